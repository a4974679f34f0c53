package engine

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/rbac"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// BackgroundScanInterval is Kyverno's default BACKGROUND_SCAN_INTERVAL.
const BackgroundScanInterval = time.Hour

// SystemNamespaces exist in every simulated cluster, as in a real one.
var SystemNamespaces = []string{"default", "kube-node-lease", "kube-public", "kube-system", "kyverno"}

// Admin is the user that scenario operations act as: kubectl's admin in a
// kind cluster, in group system:masters, which the default ClusterRoleBinding
// cluster-admin binds to the ClusterRole cluster-admin (so Kyverno's
// request.clusterRoles holds it).
var Admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"},
	ClusterRoles: []string{"cluster-admin"}}

// Session is one simulated cluster with Kyverno running in it. Every user
// operation is one timeline step: the write reaches the cluster, Kyverno's
// webhook queues UpdateRequests, and the background controller processes
// them before the step's snapshot is taken.
type Session struct {
	clock    *cluster.Clock
	store    *cluster.Store
	core     *generate.Controller
	opts     Options
	nextScan time.Time
	steps    []timeline.Step
	cur      *timeline.Step
	seq      int
	// touched orders the objects changed in the current step, with their
	// state before the step.
	touched []touch
	// isTouched indexes touched by ref.
	isTouched map[resource.Ref]bool
	diags     []timeline.Diagnostic
	// rendered memoizes each object's latest YAML rendering for diffs: an
	// object's "before" is usually the "after" of an earlier step.
	rendered map[resource.Ref]rendering
	// initial is the cluster before the first step (timeline.Result.Initial).
	initial []resource.Object
	// replayed is the cluster the timeline gives, for auditStep.
	replayed *timeline.Cluster
	// size tracks the timeline's size against Limits (limits.go).
	size timelineSize
	// budget is the run's work budget (Limits.Work, Options.Context).
	budget *budget.Budget
	// curBytes roughly measures the current step's events; overflow is set
	// once a step would make the timeline larger than Limits.TimelineBytes.
	curBytes int
	overflow bool
	wouldBe  int // the timeline's size had the step been recorded
	// admissionChanges and warningChanges are the release changes that
	// decided the last policy admission's denial and warnings
	// (generate.PolicyAdmission).
	admissionChanges, warningChanges []string
}

type touch struct {
	ref resource.Ref
	// first is the object after the step's first write to it (nil when
	// that write deleted it): the user's edit, when Kyverno then reverts it.
	first resource.Object
}

// auditStores makes every new session audit its store (cluster.EnableAudit)
// and check the audit after every step, keeping the first violation for
// auditFailure. The engine's tests turn it on (TestMain): the ownership
// rules that let the store hand objects across without copies are then
// checked by every scenario the tests run.
var (
	auditStores bool

	auditMu        sync.Mutex
	auditViolation error
)

// noteAudit keeps err as the first audit violation.
func noteAudit(err error) {
	auditMu.Lock()
	defer auditMu.Unlock()
	if auditViolation == nil {
		auditViolation = err
	}
}

// NewSession returns a cluster with its system namespaces and Kyverno.
func NewSession(opts Options) *Session {
	clock := cluster.NewClock()
	opts.Limits = opts.Limits.orDefault()
	s := &Session{clock: clock, store: cluster.NewStore(clock), opts: opts}
	if auditStores {
		s.store.EnableAudit()
	}
	if opts.KeepUIDs {
		s.store.KeepUIDs()
	}
	s.budget = newBudget(opts)
	coreOpts := opts.Limits.generate(s.budget)
	coreOpts.Authorize = s.authorize
	s.core = generate.New(s.store, clock, variables.New(variables.Options{Now: clock.Now, Budget: s.budget}), s, coreOpts)
	cfg := generate.FamilyConfig{PolicyExceptions: opts.PolicyExceptions, Permissions: string(opts.Permissions), Values: opts.Values,
		Kyverno: opts.kyverno()}
	for _, newFamily := range append(slices.Clip(builtinFamilies), opts.Families...) {
		s.core.AddFamily(newFamily(s.core, cfg))
	}
	for _, ns := range SystemNamespaces {
		_, _ = s.store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	}
	s.initial = s.store.Snapshot()
	s.size.bytes = initialLen(s.initial)
	s.store.RecordWrites() // every step's changes, from here on
	s.nextScan = clock.Now().Add(BackgroundScanInterval)
	return s
}

// authorize is the API server's authorization of a write: Kyverno's
// background controller writes with its permissions (package rbac); the
// scenario's user is the cluster's admin.
func (s *Session) authorize(user admission.UserInfo, verb string, obj resource.Object) error {
	if user.Username != admission.BackgroundUser {
		return nil
	}
	return rbac.Authorize(s.store, s.opts.Permissions, verb, obj)
}

// Store returns the simulated cluster.
func (s *Session) Store() *cluster.Store { return s.store }

// Event implements generate.Recorder.
func (s *Session) Event(e timeline.Event) {
	_ = s.budget.Charge(budget.Event+int64(len(e.Reason)), "the timeline") // overLimit stops the run
	s.seq++
	e.Seq = s.seq
	e.Time = s.clock.Stamp()
	if s.cur != nil {
		// A step's events count against the timeline's size as they come
		// (a rough measure; end measures the step exactly): past the limit
		// they are dropped and the step is cut short.
		s.curBytes += 256 + len(e.Reason)
		if s.size.bytes+s.curBytes > s.opts.Limits.TimelineBytes {
			s.overflow = true
			return
		}
		s.cur.Events = append(s.cur.Events, e)
	}
	if e.Action == timeline.ActionFailed && e.Policy != "" {
		s.ruleDiagnostic(e)
	}
}

// ruleDiagnostic points a failed UpdateRequest at its rule, where its
// family says it is written, so an editor can mark the line (for example an
// unresolvable variable). One diagnostic per rule and message.
func (s *Session) ruleDiagnostic(e timeline.Event) {
	var pos source.Pos
	found := false
	for _, f := range s.core.Families() {
		if pos, found = f.RulePos(e.Policy, e.Rule); found {
			break
		}
	}
	if !found {
		return
	}
	d := timeline.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Col, Severity: "warning",
		Message: fmt.Sprintf("rule %s failed: %s", e.Rule, e.Reason)}
	for _, have := range s.diags {
		if have == d {
			return
		}
	}
	s.diags = append(s.diags, d)
}

// Changed implements generate.Recorder.
func (s *Session) Changed(before, after resource.Object) {
	obj := after
	if obj == nil {
		obj = before
	} else {
		// A write costs its size: the store measured it, the step will
		// render it. Past the budget, overLimit stops the run.
		_ = s.budget.Charge(budget.Size(map[string]any(after), s.budget.Remaining()), "writing objects")
	}
	ref := obj.Ref()
	if s.isTouched[ref] {
		return
	}
	if s.isTouched == nil {
		s.isTouched = map[resource.Ref]bool{}
	}
	s.isTouched[ref] = true
	s.touched = append(s.touched, touch{ref: ref, first: after})
}

// begin starts a timeline step.
func (s *Session) begin(stepName, operation, summary string) {
	s.cur = &timeline.Step{
		Index: len(s.steps), StepName: stepName, Operation: operation, Summary: summary,
		Time: s.clock.Stamp(), Events: []timeline.Event{}, Changes: []timeline.Change{},
	}
	s.touched = nil
	clear(s.isTouched)
	s.curBytes = 0
}

// end lets Kyverno react, runs the background scan when its interval has
// passed, and records the step with what it changed.
func (s *Session) end() *timeline.Step {
	s.core.Reconcile()
	s.scanIfDue()
	step := s.cur
	written := s.store.TakeWritten() // everything the step changed
	at := make(map[writtenKey]int, len(written))
	for i, w := range written {
		at[keyOfWritten(w)] = i
	}
	taken := make([]bool, len(written))
	add := func(ref resource.Ref, w cluster.Written, first resource.Object) {
		if s.overflow {
			return // the step is cut short: no more diffs to render
		}
		ch := s.change(ref, w.Before, w.After, first)
		s.curBytes += changeLen(&ch, len(changeIndent))
		if s.size.bytes+s.curBytes > s.opts.Limits.TimelineBytes {
			s.overflow = true
		}
		step.Changes = append(step.Changes, ch)
	}
	// What Kyverno, the user and the controllers wrote, in the order they
	// wrote it, then anything else the step changed.
	for _, t := range s.touched {
		i, ok := at[refKey(t.ref)]
		if !ok || taken[i] {
			continue // created and deleted within the step, or written back unchanged
		}
		taken[i] = true
		add(t.ref, written[i], t.first)
	}
	for i, w := range written {
		if !taken[i] {
			add(objectOf(w).Ref(), w, nil)
		}
	}
	s.steps = append(s.steps, *step)
	if !s.overflow {
		if s.size.update(s.steps) > s.opts.Limits.TimelineBytes {
			s.overflow = true
			s.wouldBe = s.size.bytes
			s.size.bytes -= s.size.last
			s.size.steps--
		}
	} else {
		s.wouldBe = s.size.bytes + s.curBytes
	}
	if s.overflow {
		s.cutShort()
	}
	s.cur = nil
	if auditStores {
		s.auditStep()
	}
	return &s.steps[len(s.steps)-1]
}

// change records one object the step changed: before is the object as the
// previous step left it, after as this one leaves it (nil: absent), first
// as the step's first write to it left it (nil: unknown or deleted).
func (s *Session) change(ref resource.Ref, before, after, first resource.Object) timeline.Change {
	ch := timeline.Change{Object: ref, After: after}
	switch {
	case before == nil:
		ch.Change = timeline.ChangeCreated
	case after == nil:
		ch.Change = timeline.ChangeDeleted
	case before.UID() != after.UID():
		ch.Change = timeline.ChangeRecreated
	default:
		ch.Change = timeline.ChangeUpdated
	}
	switch ch.Change {
	case timeline.ChangeCreated:
		ch.Whole = after
	case timeline.ChangeDeleted:
		delete(s.rendered, ref)
	default:
		_ = s.budget.Charge(budget.Object, "the step's changes") // overLimit stops the run
		patch, exact := timeline.PatchOf(before, after)
		if exact {
			ch.Patch = patch
		} else {
			ch.Whole = after
		}
		if ch.Change == timeline.ChangeUpdated && first != nil && sameContent(before, after) && !sameContent(before, first) {
			// A write undone within the step (Kyverno reverting an edit):
			// the diffs of the write and the revert are its only record.
			name := ref.String()
			old, err1 := s.yaml(before)
			mid, err2 := s.yaml(first)
			now, err3 := s.yaml(after)
			if err1 != nil || err2 != nil || err3 != nil {
				// An object whose YAML alone is larger than the timeline
				// may be: the step is recorded in outline, and the run stops.
				s.curBytes += s.opts.Limits.TimelineBytes + 1
				s.overflow = true
				return ch
			}
			_ = s.budget.Charge(int64(len(old)+len(mid)+len(now)), "the step's diffs") // overLimit stops the run
			ch.Diff = source.Diff(name+" (before)", name+" (after the step's first write)", old, mid) +
				source.Diff(name+" (after the step's first write)", name+" (after)", mid, now)
		}
	}
	return ch
}

// writtenKey names an object as the store does (its kind's versions share
// storage), to match the controller's refs with the store's writes.
type writtenKey struct{ group, kind, namespace, name string }

func refKey(r resource.Ref) writtenKey {
	g, _ := resource.SplitAPIVersion(r.APIVersion)
	return writtenKey{g, r.Kind, r.Namespace, r.Name}
}

func keyOfWritten(w cluster.Written) writtenKey { return refKey(objectOf(w).Ref()) }

func objectOf(w cluster.Written) resource.Object {
	if w.After != nil {
		return w.After
	}
	return w.Before
}

// auditStep checks, for the engine's tests, the store's ownership rules
// and that the timeline's changes give the cluster exactly: Initial with
// every step's changes applied is the store's own snapshot, object for
// object.
func (s *Session) auditStep() {
	if err := s.store.Audit(); err != nil {
		noteAudit(err)
	}
	if s.replayed == nil {
		s.replayed = timeline.NewCluster(s.initial)
	}
	last := &s.steps[len(s.steps)-1]
	s.replayed.Apply(last)
	if s.overflow {
		return // a step cut short records none of its changes
	}
	got, want := s.replayed.Objects(), s.store.Snapshot()
	if len(got) != len(want) {
		noteAudit(fmt.Errorf("step %d (%s): the timeline's changes give %d objects, the store holds %d", last.Index, last.Summary, len(got), len(want)))
		return
	}
	for i := range want {
		if !resource.Same(got[i], want[i]) {
			noteAudit(fmt.Errorf("step %d (%s): the timeline's changes give %s at position %d, the store holds %s (resourceVersion %s)",
				last.Index, last.Summary, got[i].Ref(), i, want[i].Ref(), want[i].ResourceVersion()))
			return
		}
	}
}

// cutShort replaces the last step, which made the timeline larger than
// Limits.TimelineBytes, with its outline: what ran, and why the rest is not
// recorded. The run then stops (overLimit), so the answer stays within the
// limit, plus one short step.
func (s *Session) cutShort() {
	last := &s.steps[len(s.steps)-1]
	*last = timeline.Step{Index: last.Index, StepName: last.StepName, Operation: last.Operation, Summary: last.Summary, Time: last.Time,
		Events: []timeline.Event{}, Changes: []timeline.Change{},
		Error: fmt.Sprintf("%v: this step would make the timeline larger than %d bytes, so what it did is not recorded", ErrLimit, s.opts.Limits.TimelineBytes)}
	s.size.update(s.steps)
}

// churn are the metadata fields every write changes.
var churn = []string{"resourceVersion", "generation", "managedFields", "creationTimestamp", "uid"}

// sameContent reports whether two versions of an object differ at most in
// churn (server-set metadata) and status.
func sameContent(a, b resource.Object) bool {
	strip := func(o resource.Object) map[string]any {
		out := make(map[string]any, len(o))
		for k, v := range o {
			if k != "status" {
				out[k] = v
			}
		}
		if md, ok := o["metadata"].(map[string]any); ok {
			m := make(map[string]any, len(md))
			for k, v := range md {
				if !slices.Contains(churn, k) {
					m[k] = v
				}
			}
			out["metadata"] = m
		}
		return out
	}
	return resource.Equal(strip(a), strip(b))
}

// scanIfDue runs the periodic background scans whose time has come. A
// sleep may cross many intervals; Kyverno's scans are level-based (each
// re-reads the cluster and re-applies the same policies), and nothing else
// happens between them, all at the same logical time here, so once a scan
// changes nothing every later one would find the same cluster and change
// nothing either: those are not run one by one, and the timeline says so.
func (s *Session) scanIfDue() {
	if s.clock.Now().Before(s.nextScan) {
		return
	}
	due := int64(s.clock.Now().Sub(s.nextScan)/BackgroundScanInterval) + 1
	s.nextScan = s.nextScan.Add(time.Duration(due) * BackgroundScanInterval)
	prev := s.budget.SetPlace("the periodic background scan ran")
	defer s.budget.SetPlace(prev)
	for i := int64(0); i < due; i++ {
		if s.budget.Charge(budget.Object*int64(s.store.Len()), "the background scan") != nil {
			return // the run stops (overLimit)
		}
		before := s.store.Writes()
		s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionNote,
			Reason: "the periodic background scan ran (BACKGROUND_SCAN_INTERVAL, 1h by default): every generate policy is re-applied"})
		s.core.BackgroundScan()
		s.core.Reconcile()
		if rest := due - i - 1; rest > 0 && s.store.Writes() == before {
			s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionNote, Reason: fmt.Sprintf(
				"this sleep crosses %d more background scan intervals; genplay does not run those %d scans one by one: "+
					"this scan changed nothing, and a scan is level-based (it re-reads the cluster and re-applies the same policies, "+
					"with nothing else happening in between), so each of them would change nothing either", rest, rest)})
			return
		}
	}
}

// rendering is the YAML of one version of an object.
type rendering struct {
	uid, resourceVersion string
	text                 []byte
}

// yaml renders obj for a diff, reusing the rendering of the same version
// (apiVersion, kind, namespace, name, uid and resourceVersion: the store
// gives every write a new resourceVersion). nil renders as nothing.
func (s *Session) yaml(obj resource.Object) ([]byte, error) {
	if obj == nil {
		return nil, nil
	}
	ref, uid, rv := obj.Ref(), obj.UID(), obj.ResourceVersion()
	if r, ok := s.rendered[ref]; ok && rv != "" && r.uid == uid && r.resourceVersion == rv {
		return r.text, nil
	}
	text, err := source.MarshalLimit(map[string]any(obj), s.opts.Limits.TimelineBytes)
	if err != nil {
		return nil, err
	}
	if rv != "" {
		if s.rendered == nil {
			s.rendered = map[resource.Ref]rendering{}
		}
		s.rendered[ref] = rendering{uid: uid, resourceVersion: rv, text: text}
	}
	return text, nil
}

// userEvent records what the user did.
func (s *Session) userEvent(action string, ref resource.Ref, reason string) {
	s.Event(timeline.Event{Actor: timeline.ActorUser, Action: action, Object: &ref, Reason: reason})
}

// eventMark is where the current step's next event goes.
func (s *Session) eventMark() int {
	if s.cur == nil {
		return 0
	}
	return len(s.cur.Events)
}

// userEventAt records what the user did before the events its write caused
// (recorded since mark): the write is known to have succeeded only after
// the admission webhook ran, but it happened first.
func (s *Session) userEventAt(mark int, action string, ref resource.Ref, reason string) {
	s.userEvent(action, ref, reason)
	if s.cur == nil || mark >= len(s.cur.Events)-1 {
		return
	}
	ev := s.cur.Events
	user := ev[len(ev)-1]
	copy(ev[mark+1:], ev[mark:len(ev)-1])
	ev[mark] = user
	first := user.Seq - (len(ev) - 1 - mark)
	for i := mark; i < len(ev); i++ {
		ev[i].Seq = first + i - mark
	}
}

// Write modes for Put.
const (
	ModeApply  = "apply"  // create, or merge into the live object
	ModeCreate = "create" // create; AlreadyExists is an error
	ModeUpdate = "update" // replace the live object
	ModePatch  = "patch"  // merge into the live object; NotFound is an error
)

// Put writes obj as the scenario's user (Admin). Policies go through
// Kyverno's policy validation first; its warnings are returned and
// recorded on the step.
func (s *Session) Put(mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error) {
	return s.PutAs(Admin, mode, obj, doc)
}

// PutAs is Put as another user (kubectl --as): the same admission, and the
// write reaches Kyverno's webhook as that user.
func (s *Session) PutAs(user admission.UserInfo, mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error) {
	obj = obj.DeepCopy()
	if obj.Kind() == "" || obj.APIVersion() == "" {
		return nil, nil, fmt.Errorf("object has no apiVersion or kind")
	}
	fam := s.core.FamilyOf(obj)
	if fam != nil && s.opts.Override != nil {
		fam.Override(obj, *s.opts.Override)
	}
	live, err := s.store.Get(obj.Ref())
	exists := err == nil
	if err != nil && !errors.Is(err, cluster.ErrNotFound) {
		return nil, nil, err
	}
	switch mode {
	case ModeCreate:
		if exists {
			_, err := s.store.Create(obj) // the API server's AlreadyExists
			return nil, nil, err
		}
	case ModeUpdate, ModePatch:
		if !exists {
			return nil, nil, err
		}
	}
	next := obj
	var old resource.Object
	if exists {
		old = live
		if mode == ModeApply || mode == ModePatch {
			next = live.DeepCopy()
			resource.MergePatch(map[string]any(next), map[string]any(obj))
		}
		// The user's write replaces what they sent; the server keeps its fields.
		next.Metadata()["resourceVersion"] = live.ResourceVersion()
	}
	if fam != nil {
		return s.putPolicy(fam, user, mode, old, next, doc)
	}
	if isFamilyGroup(next) {
		return nil, nil, &scenario.UnsupportedError{Reason: fmt.Sprintf("writes the %s %s, and this build of genplay has no CEL engine "+
			"(the browser's core build leaves the GeneratingPolicy family out); run the scenario with the genplay CLI", next.Kind(), next.Name())}
	}
	if err := s.certificateStrategy(user, old, next); err != nil {
		return nil, nil, err
	}
	mark := s.eventMark()
	var out resource.Object
	verb := timeline.ActionCreated
	if exists {
		out, err = s.core.Update(user, next)
		verb = timeline.ActionUpdated
	} else {
		out, err = s.core.Create(user, next)
	}
	if err != nil {
		return nil, nil, err
	}
	s.userEventAt(mark, verb, out.Ref(), writeReason(user, mode))
	s.runSigner(out)
	return out, nil, nil
}

// writeReason says who wrote an object, and how.
func writeReason(user admission.UserInfo, mode string) string {
	if user.Username != Admin.Username {
		return "by " + user.Username + " (" + mode + ")"
	}
	return map[string]string{ModeApply: "applied by the user", ModeCreate: "created by the user",
		ModeUpdate: "replaced by the user (update)", ModePatch: "patched by the user"}[mode]
}

// IsPolicy reports whether obj is a policy of any family, which writes
// admit through Put.
func (s *Session) IsPolicy(obj resource.Object) bool {
	return s.core.FamilyOf(obj) != nil || isFamilyGroup(obj)
}

// Remove deletes an object as the user.
func (s *Session) Remove(ref resource.Ref) error {
	live, err := s.store.View(ref) // only read: no copy
	if err != nil {
		return err
	}
	fam := s.core.FamilyOf(live)
	mark := s.eventMark()
	if err := s.core.Delete(Admin, ref); err != nil {
		return err
	}
	s.userEventAt(mark, timeline.ActionDeleted, live.Ref(), "deleted by the user")
	if fam != nil {
		fam.PolicyDeleted(live)
	}
	return nil
}

// Sleep advances the logical clock; crossing the background scan interval
// runs Kyverno's periodic reconcile.
// A sleep that crosses many intervals costs at most a few scans (scanIfDue).
func (s *Session) Sleep(d time.Duration) { s.clock.Advance(d) }
