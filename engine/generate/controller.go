package generate

import (
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// Recorder receives what the controller does: events for the timeline and
// every object change for the step's diff.
type Recorder interface {
	Event(e timeline.Event)
	Changed(before, after resource.Object)
}

// Options bound the controller's work.
type Options struct {
	// MaxChainDepth stops a runaway chain of generated triggers: a request
	// caused by a user's write (or a policy event, or a scan) is 1 deep, a
	// request caused by a write Kyverno made while processing a request d
	// deep is d+1 deep. Requests deeper than this are dropped with a "did
	// not converge" event; a wide fan-out of one event (generateExisting
	// over many namespaces, a policy with many rules) is not limited.
	MaxChainDepth int
	// MaxRequests bounds the UpdateRequests processed over the controller's
	// life (a run); past it Reconcile processes nothing more and Exhausted
	// reports why.
	MaxRequests int
	// MaxObjects stops Reconcile while the cluster holds this many objects.
	MaxObjects int
	// MaxForEachElements bounds the elements of one foreach list.
	MaxForEachElements int
	// Authorize, when set, is the API server's authorization of a request:
	// verb (create, update, patch, delete, or watch of obj's kind across
	// the cluster: MayWatch) of obj as user, nil when granted, else the
	// error the request fails with (the session checks Kyverno's background
	// controller against its permissions, package rbac).
	Authorize func(user admission.UserInfo, verb string, obj resource.Object) error
	// Budget is the run's work budget (package budget); nil: unbounded.
	// Processing a request, every foreach element and every expression
	// charge it; once it is spent, Reconcile drops the queue and Exhausted
	// reports it.
	Budget *budget.Budget
}

// DefaultOptions are the limits used when a field is zero.
var DefaultOptions = Options{MaxChainDepth: 6, MaxRequests: 50000, MaxObjects: 10000, MaxForEachElements: 1000}

// Controller is the core of Kyverno's generate machinery over one simulated
// cluster, which every policy family runs on: writes reach the store and
// then every family's admission webhook and watches; the families queue
// their UpdateRequests here, and Reconcile processes them.
type Controller struct {
	store *cluster.Store
	clock *cluster.Clock
	eval  *variables.Evaluator
	rec   Recorder
	opts  Options
	queue []queued
	// pending holds the keys of the queued work.
	pending map[string]bool
	// userRequests are UpdateRequest objects users created, processed at
	// the next Reconcile.
	userRequests []resource.Object
	// processed counts the UpdateRequests processed so far; exhausted is
	// set once a run-wide limit (MaxRequests, MaxObjects) stopped Reconcile.
	processed int
	exhausted error
	// depth is how deep the request being processed is (0 outside
	// processing); tooDeep counts the requests dropped for MaxChainDepth
	// since the last Reconcile reported them.
	depth, tooDeep int
	// families are the policy families attached to the core (family.go).
	families []Family
}

// queued is one unit of work on the queue, with its depth in a chain of
// generated triggers (Options.MaxChainDepth).
type queued struct {
	work  Work
	depth int
}

// New returns a controller over store. eval is the JMESPath evaluator both
// families share (one per run: its random() generator is seeded per run).
func New(store *cluster.Store, clock *cluster.Clock, eval *variables.Evaluator, rec Recorder, opts Options) *Controller {
	if opts.MaxChainDepth <= 0 {
		opts.MaxChainDepth = DefaultOptions.MaxChainDepth
	}
	if opts.MaxRequests <= 0 {
		opts.MaxRequests = DefaultOptions.MaxRequests
	}
	if opts.MaxObjects <= 0 {
		opts.MaxObjects = DefaultOptions.MaxObjects
	}
	if opts.MaxForEachElements <= 0 {
		opts.MaxForEachElements = DefaultOptions.MaxForEachElements
	}
	return &Controller{
		store: store, clock: clock, eval: eval, rec: rec, opts: opts,
		pending: map[string]bool{},
	}
}

// FieldManager is the field manager of Kyverno's server-side applies,
// in both families (K:pkg/clients/dclient/client.go ApplyResource:
// "kyverno-" + "generate", Force: true).
const FieldManager = "kyverno-generate"

// PolicyAdmitter is implemented by a Recorder that admits policy objects
// (the session): a write of an object a family owns that does not come
// through the session's own policy path (a generate rule whose downstream
// is a policy) goes through the same admission webhook, status and policy
// controller as the user's, as on a cluster, where Kyverno's webhooks and
// controllers see the background controller's writes like anyone's.
type PolicyAdmitter interface {
	WritePolicy(fam Family, user admission.UserInfo, old, obj resource.Object) (resource.Object, error)
}

// policyWrite hands a write of a policy object to the Recorder's policy
// admission, when it has one: ok is false for other objects.
func (c *Controller) policyWrite(user admission.UserInfo, old, obj resource.Object) (out resource.Object, ok bool, err error) {
	fam := c.FamilyOf(obj)
	pa, admits := c.rec.(PolicyAdmitter)
	if fam == nil || !admits {
		return nil, false, nil
	}
	out, err = pa.WritePolicy(fam, user, old, obj)
	return out, true, err
}

// authorize asks Options.Authorize, when set.
func (c *Controller) authorize(user admission.UserInfo, verb string, obj resource.Object) error {
	if c.opts.Authorize == nil {
		return nil
	}
	return c.opts.Authorize(user, verb, obj)
}

// MayWatch asks Options.Authorize whether Kyverno's background controller
// may watch a kind across the cluster, as a GeneratingPolicy's
// WatchManager does: nil, or the API server's Forbidden error, which its
// watch keeps meeting (client-go's RetryWatcher retries) until the
// permission is granted.
func (c *Controller) MayWatch(g resource.GVK) error {
	return c.authorize(admission.UserInfo{Username: admission.BackgroundUser}, "watch", resource.Object{"apiVersion": g.APIVersion(), "kind": g.Kind})
}

// Create creates obj as user and admits the request; a policy object goes
// through the Recorder's policy admission (PolicyAdmitter) first.
func (c *Controller) Create(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	if out, ok, err := c.policyWrite(user, nil, obj); ok {
		return out, err
	}
	return c.CreateAdmitted(user, obj)
}

// CreateAdmitted is Create for an object through policy admission already
// (the session's policy path).
func (c *Controller) CreateAdmitted(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	if err := c.authorize(user, "create", obj); err != nil {
		return nil, err
	}
	created, err := c.store.Create(obj)
	if err != nil {
		return nil, err
	}
	c.created(user, created)
	return created, nil
}

// Update replaces obj as user and admits the request. The API server calls
// admission webhooks even when the update changes nothing. A policy object
// goes through the Recorder's policy admission (PolicyAdmitter) first.
func (c *Controller) Update(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	if c.FamilyOf(obj) != nil {
		if old, err := c.store.Get(obj.Ref()); err == nil {
			if out, ok, err := c.policyWrite(user, old, obj); ok {
				return out, err
			}
		}
	}
	return c.UpdateAdmitted(user, obj)
}

// UpdateAdmitted is Update for an object through policy admission already
// (the session's policy path).
func (c *Controller) UpdateAdmitted(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	old, err := c.store.View(obj.Ref()) // only read: recorded and admitted as oldObject
	if err != nil {
		return nil, err
	}
	if err := c.authorize(user, "update", obj); err != nil {
		return nil, err
	}
	updated, err := c.store.Update(obj)
	if err != nil {
		return nil, err
	}
	c.updated(user, old, updated)
	return updated, nil
}

// UpdateSubresource replaces obj as user through a subresource (a
// CertificateSigningRequest's approval or status): recorded and watched
// like any change, but not admitted, since Kyverno's webhooks register for
// the main resources only.
func (c *Controller) UpdateSubresource(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	old, err := c.store.View(obj.Ref()) // only read
	if err != nil {
		return nil, err
	}
	updated, err := c.store.Update(obj)
	if err != nil {
		return nil, err
	}
	if updated.ResourceVersion() != old.ResourceVersion() {
		c.rec.Changed(old, updated)
		c.observe(WatchEvent{Type: WatchModified, Object: updated, Old: old, User: user})
	}
	return updated, nil
}

// Apply writes obj as user with a forced server-side apply by FieldManager
// (cluster.Store.Apply) and admits the request: a CREATE when it created
// the object, else an UPDATE, as for Create and Update.
func (c *Controller) Apply(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	old, err := c.store.View(obj.Ref()) // only read
	if err != nil && !errors.Is(err, cluster.ErrNotFound) {
		return nil, err
	}
	if err := c.authorize(user, "patch", obj); err != nil {
		return nil, err
	}
	out, _, err := c.store.Apply(obj, FieldManager, false)
	if err != nil {
		return nil, err
	}
	if old == nil {
		c.created(user, out)
	} else {
		c.updated(user, old, out)
	}
	return out, nil
}

// created records and admits the creation of obj.
func (c *Controller) created(user admission.UserInfo, obj resource.Object) {
	c.rec.Changed(nil, obj)
	c.Admit(admission.Request{Operation: admission.OpCreate, Object: obj, User: user})
	c.observe(WatchEvent{Type: WatchAdded, Object: obj, User: user})
}

// updated records and admits an update of old to obj, which may have
// changed nothing.
func (c *Controller) updated(user admission.UserInfo, old, obj resource.Object) {
	changed := obj.ResourceVersion() != old.ResourceVersion()
	if changed {
		c.rec.Changed(old, obj)
	}
	c.Admit(admission.Request{Operation: admission.OpUpdate, Object: obj, OldObject: old, User: user})
	if changed {
		c.observe(WatchEvent{Type: WatchModified, Object: obj, Old: old, User: user})
	}
}

// Delete deletes the object as user, with the API server's cascades
// (a Namespace's contents, garbage-collected dependents), and admits a
// DELETE request for every object that went.
func (c *Controller) Delete(user admission.UserInfo, ref resource.Ref) error {
	if c.opts.Authorize != nil {
		if obj, err := c.store.View(ref); err == nil {
			if err := c.authorize(user, "delete", obj); err != nil {
				return err
			}
		}
	}
	deleted, err := c.store.Delete(ref)
	if err != nil {
		return err
	}
	for _, d := range deleted {
		c.rec.Changed(d.Object, nil)
		who := user
		switch d.Actor {
		case cluster.ActorNamespaceController:
			r := d.Object.Ref()
			who = admission.UserInfo{Username: admission.NamespaceControllerUser}
			c.Emit(timeline.Event{Actor: timeline.ActorController, Action: timeline.ActionDeleted, Object: &r,
				Reason: fmt.Sprintf("its Namespace %s was deleted", d.Object.Namespace())})
		case cluster.ActorGarbageCollector:
			r := d.Object.Ref()
			who = admission.UserInfo{Username: admission.GarbageCollectorUser}
			c.Emit(timeline.Event{Actor: timeline.ActorController, Action: timeline.ActionDeleted, Object: &r,
				Reason: "garbage collection: every owner in its ownerReferences is gone"})
		case cluster.ActorCRDFinalizer:
			r := d.Object.Ref()
			c.Emit(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionDeleted, Object: &r,
				Reason: "its CustomResourceDefinition was deleted: the API server's finalizer deletes every object of the kind, " +
					"straight from storage, so no admission request reaches Kyverno's webhook"})
			continue
		}
		c.Admit(admission.Request{Operation: admission.OpDelete, OldObject: d.Object, User: who})
		c.observe(WatchEvent{Type: WatchDeleted, Object: d.Object, User: who})
	}
	return nil
}

// Admit is Kyverno's admission webhook: every family's handler sees the
// request, in the order the families were added. It never blocks the
// request. An UpdateRequest someone other than Kyverno creates is no
// family's trigger (Kyverno's resourceFilters leave UpdateRequests out):
// the background controller processes it at the next Reconcile.
func (c *Controller) Admit(req admission.Request) {
	if req.Operation == admission.OpCreate && req.User.Username != admission.BackgroundUser && isUpdateRequest(req.Object) {
		c.userRequests = append(c.userRequests, req.Object)
		return
	}
	for _, f := range c.families {
		f.Admit(req)
	}
}

// isUpdateRequest reports whether obj is a Kyverno UpdateRequest.
func isUpdateRequest(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == "kyverno.io" && g.Kind == "UpdateRequest"
}

// Reconcile processes the UpdateRequests users created, then the queued
// work until none is left. Processing may queue more (a generated object
// that is itself a trigger); a chain deeper than MaxChainDepth stops with a
// "did not converge" event.
func (c *Controller) Reconcile() {
	for len(c.userRequests) > 0 {
		ur := c.userRequests[0]
		c.userRequests = c.userRequests[1:]
		for _, f := range c.families {
			if f.ProcessUpdateRequest(ur) {
				break
			}
		}
	}
	defer c.reportTooDeep()
	for len(c.queue) > 0 {
		if c.limitReached() {
			return
		}
		q := c.queue[0]
		c.queue = c.queue[1:]
		delete(c.pending, q.work.Key())
		c.processed++
		prev := c.opts.Budget.SetPlace(place(q.work))
		if err := c.opts.Budget.Charge(budget.Request, "the reconcile loop"); err != nil {
			c.opts.Budget.SetPlace(prev)
			continue // limitReached reports it
		}
		c.depth = q.depth
		q.work.Run()
		c.depth = 0
		c.opts.Budget.SetPlace(prev)
	}
}

// place says, for the work budget's messages, what w is doing.
func place(w Work) string {
	if p, ok := w.(interface{ Place() string }); ok {
		return p.Place()
	}
	return "Kyverno processed an UpdateRequest (" + w.Key() + ")"
}

// reportTooDeep reports the requests dropped for MaxChainDepth, once per
// Reconcile.
func (c *Controller) reportTooDeep() {
	if c.tooDeep == 0 {
		return
	}
	c.Emit(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionFailed, Reason: fmt.Sprintf(
		"did not converge: a chain of generated triggers reached %d UpdateRequests deep "+
			"(every resource Kyverno generated triggered another generate rule: skipBackgroundRequests: false?); "+
			"genplay dropped the %d requests deeper than that", c.opts.MaxChainDepth, c.tooDeep)})
	c.tooDeep = 0
}

// ErrLimit marks a run-wide limit that stopped the controller.
var ErrLimit = errors.New("limit exceeded")

// limitReached checks the run-wide limits before an UpdateRequest is
// processed; once one is reached it records why, reports it as a "did not
// converge" event, drops the queue, and stays reached.
func (c *Controller) limitReached() bool {
	if c.exhausted == nil {
		switch {
		case c.processed >= c.opts.MaxRequests:
			c.exhausted = fmt.Errorf("%w: Kyverno processed %d UpdateRequests in this run (the most genplay allows)", ErrLimit, c.processed)
		case c.store.Len() >= c.opts.MaxObjects:
			c.exhausted = fmt.Errorf("%w: the cluster holds %d objects (the most genplay allows)", ErrLimit, c.store.Len())
		case c.opts.Budget.Err() != nil:
			c.exhausted = LimitError(c.opts.Budget.Err())
		default:
			return false
		}
		c.Emit(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionFailed, Reason: fmt.Sprintf(
			"did not converge: %v; %d UpdateRequests are still queued and genplay dropped them", c.exhausted, len(c.queue))})
	}
	c.queue = nil
	c.pending = map[string]bool{}
	return true
}

// LimitError marks a spent budget as a limit (ErrLimit); a cancelled run
// (the adapters' wall clock) is not a limit of the input and stays as it
// is.
func LimitError(err error) error {
	if errors.Is(err, budget.ErrCancelled) {
		return err
	}
	return fmt.Errorf("%w: %w", ErrLimit, err)
}

// Processed reports how many UpdateRequests the controller has processed.
func (c *Controller) Processed() int { return c.processed }

// Exhausted reports the run-wide limit that stopped the controller, or nil.
func (c *Controller) Exhausted() error { return c.exhausted }

// Pending reports how many UpdateRequests are queued.
func (c *Controller) Pending() int { return len(c.queue) }

// Enqueue queues a family's work; work with the key of queued work is
// dropped, and so is work deeper than Options.MaxChainDepth (counted, and
// reported once Reconcile ends).
func (c *Controller) Enqueue(w Work) {
	depth := c.depth + 1
	if depth > c.opts.MaxChainDepth {
		c.tooDeep++
		return
	}
	k := w.Key()
	if c.pending[k] {
		return
	}
	c.pending[k] = true
	c.queue = append(c.queue, queued{work: w, depth: depth})
}

// BackgroundScan is the policy controller's periodic requeue
// (BACKGROUND_SCAN_INTERVAL) for every family.
func (c *Controller) BackgroundScan() {
	for _, f := range c.families {
		f.BackgroundScan()
	}
}

// Restart models a restart of Kyverno's background controller for every
// family.
func (c *Controller) Restart() {
	for _, f := range c.families {
		f.Restart()
	}
}

// observe delivers a write to every family's watches.
func (c *Controller) observe(ev WatchEvent) {
	for _, f := range c.families {
		f.Observe(ev)
	}
}

// Emit records one event on the timeline.
func (c *Controller) Emit(e timeline.Event) { c.rec.Event(e) }

// Changed records a write that reaches no webhook (a status update) in the
// step's diff.
func (c *Controller) Changed(before, after resource.Object) { c.rec.Changed(before, after) }

// Store returns the simulated cluster.
func (c *Controller) Store() *cluster.Store { return c.store }

// Clock returns the simulation's logical clock.
func (c *Controller) Clock() *cluster.Clock { return c.clock }

// Budget returns the run's work budget, which a family's evaluations draw
// from (nil: unbounded; charging a nil Budget is free).
func (c *Controller) Budget() *budget.Budget { return c.opts.Budget }

// Options returns the controller's limits, with the defaults filled in.
func (c *Controller) Options() Options { return c.opts }

// Evaluator returns the run's JMESPath evaluator, with Kyverno's functions.
func (c *Controller) Evaluator() *variables.Evaluator { return c.eval }

// Search evaluates a JMESPath expression over data with Kyverno's
// functions (GlobalContextEntry projections).
func (c *Controller) Search(expr string, data any) (any, error) { return c.eval.Search(expr, data) }

// Diagnoser is implemented by a Recorder that also takes diagnostics: the
// session, which shows them at the YAML line of the policy.
type Diagnoser interface {
	Diagnostic(d timeline.Diagnostic)
}

// Diagnose passes a family's diagnostic (a runtime error at the expression
// that failed) to the recorder, when it takes them.
func (c *Controller) Diagnose(d timeline.Diagnostic) {
	if r, ok := c.rec.(Diagnoser); ok {
		r.Diagnostic(d)
	}
}
