package generate

import (
	"errors"
	"fmt"
	"github.com/genplay/genplay/engine/internal/budget"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// Admission operations.
const (
	OpCreate = "CREATE"
	OpUpdate = "UPDATE"
	OpDelete = "DELETE"
	// OpConnect is the operation of exec, attach and port-forward requests.
	OpConnect = "CONNECT"
)

// Usernames of the Kubernetes controllers that delete objects in cascades.
const (
	NamespaceControllerUser = "system:serviceaccount:kube-system:namespace-controller"
	GarbageCollectorUser    = "system:serviceaccount:kube-system:generic-garbage-collector"
)

// Request is an admission request as Kyverno's webhook sees it.
type Request struct {
	Operation string
	Object    resource.Object // nil on DELETE
	OldObject resource.Object // nil on CREATE
	User      UserInfo
	// SubResource is set for a request on a subresource ("exec" for a
	// CONNECT on pods/exec): Object is then the subresource's object (a
	// PodExecOptions), and Resource the kind of the resource it belongs to
	// (v1 Pod), which kinds entries such as "Pod/exec" select.
	SubResource string
	Resource    resource.GVK
}

// UserInfo is the requesting user.
type UserInfo struct {
	Username     string
	Groups       []string
	Roles        []string
	ClusterRoles []string
}

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
	// Budget is the run's work budget (package budget); nil: unbounded.
	// Processing a request, every foreach element and every expression
	// charge it; once it is spent, Reconcile drops the queue and Exhausted
	// reports it.
	Budget *budget.Budget
}

// DefaultOptions are the limits used when a field is zero.
var DefaultOptions = Options{MaxChainDepth: 6, MaxRequests: 50000, MaxObjects: 10000, MaxForEachElements: 1000}

// Controller is Kyverno's webhook, background controller and policy
// controller for generate rules, over one simulated cluster.
type Controller struct {
	store    *cluster.Store
	clock    *cluster.Clock
	eval     *variables.Evaluator
	rec      Recorder
	opts     Options
	policies map[string]*policy.Policy
	sorted   []*policy.Policy // policies in key order; nil when stale
	queue    []*updateRequest
	pending  map[string]bool
	// userRequests are UpdateRequest objects users created, processed at
	// the next Reconcile.
	userRequests []resource.Object
	// applied holds, per downstream UID, what Kyverno last applied with
	// server-side apply: the fields its "generate" field manager owns.
	applied map[string]resource.Object
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
	// values stand in for context and request data (values.go).
	values *Values
}

// New returns a controller over store.
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
		policies: map[string]*policy.Policy{},
		pending:  map[string]bool{},
		applied:  map[string]resource.Object{},
	}
}

// Policy returns the current policy with the given key, or nil.
func (c *Controller) Policy(key string) *policy.Policy { return c.policies[key] }

// Create creates obj as user and admits the request.
func (c *Controller) Create(user UserInfo, obj resource.Object) (resource.Object, error) {
	created, err := c.store.Create(obj)
	if err != nil {
		return nil, err
	}
	c.rec.Changed(nil, created)
	c.Admit(Request{Operation: OpCreate, Object: created, User: user})
	c.observe(WatchEvent{Type: WatchAdded, Object: created, User: user})
	return created, nil
}

// Update replaces obj as user and admits the request. The API server calls
// admission webhooks even when the update changes nothing.
func (c *Controller) Update(user UserInfo, obj resource.Object) (resource.Object, error) {
	old, err := c.store.View(obj.Ref()) // only read: recorded and admitted as oldObject
	if err != nil {
		return nil, err
	}
	updated, err := c.store.Update(obj)
	if err != nil {
		return nil, err
	}
	if updated.ResourceVersion() != old.ResourceVersion() {
		c.rec.Changed(old, updated)
	}
	c.Admit(Request{Operation: OpUpdate, Object: updated, OldObject: old, User: user})
	if updated.ResourceVersion() != old.ResourceVersion() {
		c.observe(WatchEvent{Type: WatchModified, Object: updated, Old: old, User: user})
	}
	return updated, nil
}

// Delete deletes the object as user, with the API server's cascades
// (a Namespace's contents, garbage-collected dependents), and admits a
// DELETE request for every object that went.
func (c *Controller) Delete(user UserInfo, ref resource.Ref) error {
	deleted, err := c.store.Delete(ref)
	if err != nil {
		return err
	}
	for _, d := range deleted {
		c.rec.Changed(d.Object, nil)
		who := user
		switch d.Actor {
		case cluster.ActorNamespaceController:
			who = UserInfo{Username: NamespaceControllerUser}
			r := d.Object.Ref()
			c.emit(timeline.ActorController, timeline.ActionDeleted, &r, nil, "", nil,
				fmt.Sprintf("its Namespace %s was deleted", d.Object.Namespace()))
		case cluster.ActorGarbageCollector:
			who = UserInfo{Username: GarbageCollectorUser}
			r := d.Object.Ref()
			c.emit(timeline.ActorController, timeline.ActionDeleted, &r, nil, "", nil,
				"garbage collection: every owner in its ownerReferences is gone")
		case cluster.ActorCRDFinalizer:
			r := d.Object.Ref()
			c.emit(timeline.ActorAPIServer, timeline.ActionDeleted, &r, nil, "", nil,
				"its CustomResourceDefinition was deleted: the API server's finalizer deletes every object of the kind, "+
					"straight from storage, so no admission request reaches Kyverno's webhook")
			continue
		}
		c.Admit(Request{Operation: OpDelete, OldObject: d.Object, User: who})
		c.observe(WatchEvent{Type: WatchDeleted, Object: d.Object, User: who})
	}
	return nil
}

// emit records one event.
func (c *Controller) emit(actor, action string, obj *resource.Ref, p *policy.Policy, rule string, trig *resource.Ref, reason string) {
	e := timeline.Event{Actor: actor, Action: action, Object: obj, Rule: rule, Trigger: trig, Reason: reason}
	if p != nil {
		e.Policy = p.Key()
	}
	c.rec.Event(e)
}

// sortedPolicies returns the policies in key order, for determinism. The
// slice is kept until setPolicy or removePolicy changes the set: callers
// must not change it.
func (c *Controller) sortedPolicies() []*policy.Policy {
	if c.sorted == nil {
		keys := resource.SortedKeys(c.policies)
		c.sorted = make([]*policy.Policy, len(keys))
		for i, k := range keys {
			c.sorted[i] = c.policies[k]
		}
	}
	return c.sorted
}

// setPolicy stores p under its key.
func (c *Controller) setPolicy(p *policy.Policy) {
	c.policies[p.Key()] = p
	c.sorted = nil
}

// removePolicy forgets the policy p's key names.
func (c *Controller) removePolicy(p *policy.Policy) {
	delete(c.policies, p.Key())
	c.sorted = nil
}

// policyByLabels finds the policy a downstream's labels name.
func (c *Controller) policyByLabels(l map[string]string) *policy.Policy {
	if ns := l[LabelPolicyNamespace]; ns != "" {
		return c.policies[policy.KindPolicy+"/"+ns+"/"+l[LabelPolicyName]]
	}
	return c.policies[policy.KindClusterPolicy+"/"+l[LabelPolicyName]]
}

// Reconcile processes queued UpdateRequests until none is left. Processing
// may queue more (a generated object that is itself a trigger); a chain
// deeper than MaxChainDepth stops with a "did not converge" event.
func (c *Controller) Reconcile() {
	for len(c.userRequests) > 0 {
		ur := c.userRequests[0]
		c.userRequests = c.userRequests[1:]
		c.processUserRequest(ur)
	}
	defer c.reportTooDeep()
	for len(c.queue) > 0 {
		if c.limitReached() {
			return
		}
		ur := c.queue[0]
		c.queue = c.queue[1:]
		delete(c.pending, ur.key())
		c.processed++
		prev := c.opts.Budget.SetPlace(ur.place())
		if err := c.opts.Budget.Charge(budget.Request, "the reconcile loop"); err != nil {
			c.opts.Budget.SetPlace(prev)
			continue // limitReached reports it
		}
		c.depth = ur.depth
		c.process(ur)
		c.depth = 0
		c.opts.Budget.SetPlace(prev)
	}
}

// reportTooDeep reports the requests dropped for MaxChainDepth, once per
// Reconcile.
func (c *Controller) reportTooDeep() {
	if c.tooDeep == 0 {
		return
	}
	c.emit(timeline.ActorKyverno, timeline.ActionFailed, nil, nil, "", nil, fmt.Sprintf(
		"did not converge: a chain of generated triggers reached %d UpdateRequests deep "+
			"(every resource Kyverno generated triggered another generate rule: skipBackgroundRequests: false?); "+
			"genplay dropped the %d requests deeper than that", c.opts.MaxChainDepth, c.tooDeep))
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
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, nil, nil, "", nil, fmt.Sprintf(
			"did not converge: %v; %d UpdateRequests are still queued and genplay dropped them", c.exhausted, len(c.queue)))
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

func (c *Controller) enqueue(ur *updateRequest) {
	ur.depth = c.depth + 1
	if ur.depth > c.opts.MaxChainDepth {
		c.tooDeep++
		return
	}
	k := ur.key()
	if c.pending[k] {
		return
	}
	c.pending[k] = true
	c.queue = append(c.queue, ur)
}

// nsLabels returns the labels of obj's Namespace, or nil.
func (c *Controller) nsLabels(obj resource.Object) map[string]string {
	if obj == nil || obj.Namespace() == "" || obj.Kind() == "Namespace" {
		return nil
	}
	ns, err := c.store.View(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: obj.Namespace()}) // only read
	if err != nil {
		return nil
	}
	return ns.Labels()
}

// findByUID returns the live trigger t names: the stored object itself
// (cluster.Store.View), which callers only read. It becomes request.object
// in variable contexts, where JMESPath only reads and substitution copies
// what it inserts; the store audit in the engine's tests checks this.
func (c *Controller) findByUID(t trigger) resource.Object {
	if t.Name != "" {
		obj, err := c.store.View(t.ref())
		if err == nil && (t.UID == "" || obj.UID() == t.UID) {
			return obj
		}
	}
	// The store's uid index: a trigger named only by uid (downstream labels
	// carry no name) costs the same in any size of cluster.
	obj, err := c.store.ViewByUID(t.ref(), t.UID)
	if err == nil && (t.Namespace != "" || obj.Namespace() == "") {
		return obj
	}
	return nil
}

// resolveKind turns a kind as written in a policy ("Secret", "v1/Secret",
// "apps/v1/Deployment") into apiVersion and kind.
func (c *Controller) resolveKind(s string) (apiVersion, kind string, ok bool) {
	parts := strings.Split(s, "/")
	switch len(parts) {
	case 1:
		info, found := c.store.KindInfo("", parts[0])
		if !found {
			return "", parts[0], false
		}
		return resource.GVK{Group: info.Group, Version: info.Version}.APIVersion(), info.Kind, true
	case 2:
		return parts[0], parts[1], true
	default:
		return strings.Join(parts[:len(parts)-1], "/"), parts[len(parts)-1], true
	}
}

func isNotFound(err error) bool { return errors.Is(err, cluster.ErrNotFound) }

func refPtr(r resource.Ref) *resource.Ref { return &r }

func sortedRefs(objs []resource.Object) []resource.Object {
	sort.SliceStable(objs, func(i, j int) bool {
		a, b := objs[i].Ref(), objs[j].Ref()
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return objs
}
