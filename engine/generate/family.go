package generate

import (
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Family is a policy family's front end over this core: how the session and
// the controller talk to the CEL GeneratingPolicy family (engine/gpol/controller).
//
// The JMESPath family (ClusterPolicy and Policy generate rules) is built into
// Controller itself and is not a Family value: it predates the interface and
// its admission needs the engine's permission check. What both families share
// is here, in the core: the UpdateRequest queue with its deduplication and
// limits (Enqueue, Reconcile, Options), writes made as Kyverno's background
// ServiceAccount that are themselves admitted (Create, Update, Delete),
// event emission (Emit) and the label constants (labels.go).
//
// What differs between the two, by design, as in Kyverno (which keeps them in
// separate trees, pkg/background/generate and pkg/background/gpol):
//   - reaction to downstream and source changes: the JMESPath family reacts
//     to admission requests on downstreams and clone sources (handleNonTrigger);
//     the CEL family to watch events of the objects it generated (Observe),
//     from an in-memory cache that a background-controller restart loses;
//   - labels: the CEL family writes trigger-name, no policy-namespace, no
//     rule-name and no source-* labels but source-uid, and never labels the
//     clone source;
//   - finding downstreams: the JMESPath family lists by label, the CEL family
//     looks in its watch cache;
//   - the background scan: JMESPath re-applies data rules and generateExisting;
//     CEL deletes and regenerates every tracked downstream (1.19.0).
//
// A Family is called synchronously, inside the step that caused the call; it
// queues what Kyverno does asynchronously (UpdateRequests, watch reactions) as
// Work on the core's queue, which Reconcile drains before the step ends.
type Family interface {
	// Name names the family in messages: "GeneratingPolicy".
	Name() string
	// Owns reports whether obj is one of the family's policy objects (its
	// policies and policy exceptions), whose writes the session admits
	// through AdmitPolicy and reports through PolicyWritten/PolicyDeleted.
	Owns(obj resource.Object) bool
	// AdmitPolicy is the API server's schema check and Kyverno's policy
	// validation webhook for a write of an owned object (old is the live
	// object on update, else nil). A denied write returns an error worded as
	// kubectl prints it; diagnostics point at the YAML; warnings are
	// admission warnings.
	AdmitPolicy(obj, old resource.Object, doc *source.Document) PolicyAdmission
	// PolicyWritten tells the family an owned object was created (old nil)
	// or updated; obj is the stored object.
	PolicyWritten(old, obj resource.Object)
	// PolicyDeleted tells the family an owned object was deleted.
	PolicyDeleted(obj resource.Object)
	// Status returns the status Kyverno's controllers write on a stored
	// owned object, or nil to leave it.
	Status(obj resource.Object) map[string]any
	// Admit is the family's admission webhook: called for every admission
	// request the API server sends Kyverno, Kyverno's own included.
	Admit(req Request)
	// Observe is the family's informers and watches: called for every write
	// the store sees, Kyverno's own included.
	Observe(ev WatchEvent)
	// BackgroundScan is the policy controller's periodic requeue
	// (BACKGROUND_SCAN_INTERVAL).
	BackgroundScan()
	// Restart models a restart of Kyverno's background controller: its
	// in-memory state is lost and rebuilt as on startup.
	Restart()
}

// PolicyAdmission is a family's answer to a policy write.
type PolicyAdmission struct {
	// Err denies the write; nil admits it.
	Err error
	// Warnings are admission warnings (kubectl prints them as "Warning: ...").
	Warnings []string
	// Diagnostics point at the YAML that caused an error or a warning.
	Diagnostics source.Diagnostics
}

// FamilyConfig is what the session hands a family when it creates it.
type FamilyConfig struct {
	// PolicyExceptions is Kyverno's --enablePolicyException (false in the
	// Helm chart; Kyverno's conformance suite runs with it on).
	PolicyExceptions bool
}

// NewFamily creates a family over a core. Adapters register families by
// listing their NewFamily in engine.Options.Families.
type NewFamily func(core *Controller, cfg FamilyConfig) Family

// Watch event types.
const (
	WatchAdded    = "ADDED"
	WatchModified = "MODIFIED"
	WatchDeleted  = "DELETED"
)

// WatchEvent is one write as a watch delivers it.
type WatchEvent struct {
	Type string
	// Object is the object after the write; for DELETED, the deleted object.
	Object resource.Object
	// Old is the object before a MODIFIED write.
	Old resource.Object
	// User made the write.
	User UserInfo
}

// Work is one unit of background work a family queues on the core: an
// UpdateRequest, or a watch event's reaction. Queued work with the same key
// runs once (Kyverno deduplicates UpdateRequests the same way); the core's
// limits count every Work as one UpdateRequest.
type Work interface {
	Key() string
	Run()
}

// AddFamily attaches a family to the controller: from now on it sees every
// admission request, every write, the background scan and restarts.
func (c *Controller) AddFamily(f Family) { c.families = append(c.families, f) }

// Families returns the attached families, in the order they were added.
func (c *Controller) Families() []Family { return c.families }

// FamilyOf returns the family that owns obj, or nil.
func (c *Controller) FamilyOf(obj resource.Object) Family {
	for _, f := range c.families {
		if f.Owns(obj) {
			return f
		}
	}
	return nil
}

// Enqueue queues a family's work; work with the key of queued work is
// dropped.
func (c *Controller) Enqueue(w Work) { c.enqueue(&updateRequest{work: w}) }

// Emit records one event on the timeline.
func (c *Controller) Emit(e timeline.Event) { c.rec.Event(e) }

// Store returns the simulated cluster.
func (c *Controller) Store() *cluster.Store { return c.store }

// Budget returns the run's work budget, which a family's evaluations draw
// from (nil: unbounded; charging a nil Budget is free).
func (c *Controller) Budget() *budget.Budget { return c.opts.Budget }

// Clock returns the simulation's logical clock.
func (c *Controller) Clock() *cluster.Clock { return c.clock }

// Restart models a restart of Kyverno's background controller for every
// family. The JMESPath family keeps nothing in memory that a restart loses:
// Kyverno rebuilds it from labels.
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

// ReportsUser is the username of Kyverno's reports controller, which writes
// PolicyReports.
const ReportsUser = "system:serviceaccount:kyverno:kyverno-reports-controller"

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

// APIGet answers a Kubernetes API GET path from the simulated cluster, as
// apiCall context entries are answered (both families' API calls).
func (c *Controller) APIGet(path string) (any, error) { return c.apiGet(path) }

// Search evaluates a JMESPath expression over data with Kyverno's
// functions (GlobalContextEntry projections).
func (c *Controller) Search(expr string, data any) (any, error) { return c.eval.Search(expr, data) }
