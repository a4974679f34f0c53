package generate

import (
	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Family is a policy family over this core: ClusterPolicy/Policy generate
// rules (engine/policy/controller) and the CEL GeneratingPolicy family
// (engine/gpol/controller) are its two implementations, peers that the
// session and the core call the same way.
//
// What both families share is here, in the core: the UpdateRequest queue
// with its deduplication and limits (Enqueue, Reconcile, Options), writes
// made as Kyverno's background ServiceAccount that are themselves admitted
// (Create, Update, Delete), event emission (Emit), the API server's answers
// to apiCall entries (APIGet), the JMESPath evaluator (Evaluator, Search)
// and the label constants (labels.go). The session runs one admission path
// for every family's policy objects: Override, AdmitPolicy, the write,
// Status, PolicyWritten; PolicyDeleted on delete.
//
// What differs between the two, by design, as in Kyverno (which keeps them in
// separate trees, pkg/background/generate and pkg/background/gpol):
//   - reaction to downstream and source changes: the JMESPath family reacts
//     to admission requests on downstreams and clone sources (Admit);
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
	// Override forces o's settings on an owned object the user writes,
	// before admission (the playground's outcome matrix).
	Override(obj resource.Object, o Override)
	// AdmitPolicy is the API server's schema check and Kyverno's policy
	// validation webhook for a write of an owned object (old is the live
	// object on update, else nil). A denied write returns an error worded as
	// kubectl prints it; diagnostics point at the YAML; warnings are
	// admission warnings.
	AdmitPolicy(obj, old resource.Object, doc *source.Document) PolicyAdmission
	// Status returns the status Kyverno's controllers write on a stored
	// owned object, or nil to leave it.
	Status(obj resource.Object) map[string]any
	// PolicyWritten tells the family an owned object was created (old nil)
	// or updated; obj is the stored object.
	PolicyWritten(old, obj resource.Object)
	// PolicyDeleted tells the family an owned object was deleted.
	PolicyDeleted(obj resource.Object)
	// RulePos is where the rule named in a failed UpdateRequest's event
	// (its policy key and rule) is written, for the session's diagnostic at
	// that line; false when the family has no such policy or diagnoses its
	// failures itself (Diagnose).
	RulePos(policyKey, rule string) (source.Pos, bool)
	// Admit is the family's admission webhook: called for every admission
	// request the API server sends Kyverno, Kyverno's own included.
	Admit(req admission.Request)
	// Observe is the family's informers and watches: called for every write
	// the store sees, Kyverno's own included.
	Observe(ev WatchEvent)
	// ProcessUpdateRequest is the background controller's handling of an
	// UpdateRequest object a user created; false leaves it to the next
	// family.
	ProcessUpdateRequest(ur resource.Object) bool
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
	// Changes name the changes between Kyverno releases that decided the
	// denial, WarningChanges those that decided the warnings, for the
	// timeline's events.
	Changes, WarningChanges []string
}

// Override forces generate settings on every policy a scenario writes; a
// nil field leaves the policy's value.
type Override struct {
	Synchronize                    *bool `json:"synchronize,omitempty"`
	OrphanDownstreamOnPolicyDelete *bool `json:"orphanDownstreamOnPolicyDelete,omitempty"`
}

// FamilyConfig is what the session hands every family when it creates it:
// the simulated Kyverno's flags and install. Behaviour that depends on
// them, or on Kyverno's version, reads it from here.
type FamilyConfig struct {
	// PolicyExceptions is Kyverno's --enablePolicyException (false in the
	// Helm chart; Kyverno's conformance suite runs with it on).
	PolicyExceptions bool
	// Permissions names what Kyverno's background controller may manage,
	// for the permission check of policy validation: an rbac.Profile.
	Permissions string
	// Values stand in for context and request data, as a kyverno-test.yaml's
	// values file does for Kyverno's CLI; nil: none.
	Values *Values
	// Kyverno is the simulated Kyverno release (empty: the latest):
	// behaviour that differs between releases asks an upstream.Change
	// whether it is In it.
	Kyverno upstream.Version
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
	User admission.UserInfo
}

// Work is one unit of background work a family queues on the core: an
// UpdateRequest, or a watch event's reaction. Queued work with the same key
// runs once (Kyverno deduplicates UpdateRequests the same way), so each
// family's keys start with a prefix of its own; the core's limits count
// every Work as one UpdateRequest. A Work may also have a method Place()
// string that says what it does for the work budget's messages; without
// it, the messages name its key.
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

// PolicySet is a family's admitted policies by key, with the same policies
// in key order (for determinism: every family iterates its policies so).
// The zero value is an empty set.
type PolicySet[P any] struct {
	byKey  map[string]P
	sorted []P // nil when stale
}

// Get returns the policy under key, or the zero P.
func (s *PolicySet[P]) Get(key string) P { return s.byKey[key] }

// Put stores p under key.
func (s *PolicySet[P]) Put(key string, p P) {
	if s.byKey == nil {
		s.byKey = map[string]P{}
	}
	s.byKey[key] = p
	s.sorted = nil
}

// Delete forgets key.
func (s *PolicySet[P]) Delete(key string) {
	delete(s.byKey, key)
	s.sorted = nil
}

// Len is the number of policies.
func (s *PolicySet[P]) Len() int { return len(s.byKey) }

// Sorted returns the policies in key order. The slice is kept until Put or
// Delete changes the set: callers must not change it.
func (s *PolicySet[P]) Sorted() []P {
	if s.sorted == nil {
		keys := resource.SortedKeys(s.byKey)
		s.sorted = make([]P, len(keys))
		for i, k := range keys {
			s.sorted[i] = s.byKey[k]
		}
	}
	return s.sorted
}
