package timeline

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/genplay/genplay/engine/resource"
)

// FormatVersion names this JSON shape; it changes when the shape does.
const FormatVersion = "genplay.timeline/v2"

// Result is the outcome of one scenario run.
type Result struct {
	Format string `json:"format"` // FormatVersion
	// Kyverno is the Kyverno release the run simulates: "v1.19.1".
	Kyverno string `json:"kyverno"`
	// Test is the chainsaw Test's metadata.name.
	Test string `json:"test"`
	// Initial is the cluster before the first step (the namespaces every
	// cluster has), sorted as Cluster.Objects sorts. With each step's
	// Changes it gives the cluster after any step (Cluster, Clusters).
	Initial []resource.Object `json:"initial"`
	Steps   []Step            `json:"steps"`
	// Passed is false when an assert/error operation failed or an operation
	// that had to succeed did not.
	Passed bool `json:"passed"`
	// Skipped, when set, says why the scenario could not be simulated
	// honestly (for example a script that inspects Kyverno's own pods); the
	// steps before that point are still reported.
	Skipped string `json:"skipped,omitempty"`
	// Invalid is set when the input, not the run, is at fault: the scenario
	// does not parse, or a write was refused by validation of what was
	// written (the API server's schema or field validation, Kyverno's policy
	// validation) with Diagnostics at the offending fields. A result that is
	// neither Passed nor Invalid failed as it ran: an assertion, or an
	// operation on the cluster.
	Invalid bool `json:"invalid,omitempty"`
	// Diagnostics are input errors and warnings with file and line.
	Diagnostics []Diagnostic `json:"diagnostics"`
}

// Step is one operation of the scenario and everything it caused. Chainsaw
// steps hold several operations; each becomes one Step with the same StepName.
type Step struct {
	Index     int    `json:"index"`
	StepName  string `json:"stepName"`
	Operation string `json:"operation"` // apply, create, update, patch, delete, assert, error, sleep, script, ...
	// Summary is one line a person reads: "delete NetworkPolicy team-a/default-deny".
	Summary string `json:"summary"`
	// Time is the logical clock when the operation ran (RFC 3339).
	Time   string  `json:"time"`
	Events []Event `json:"events"`
	// Check is set for assert and error operations.
	Check *Check `json:"check,omitempty"`
	// Error is set when the operation itself failed (for example the API
	// server rejected the object, or Kyverno's policy validation denied it).
	Error string `json:"error,omitempty"`
	// Warnings are admission warnings, as kubectl prints them.
	Warnings []string `json:"warnings,omitempty"`
	// Changes are the objects this step changed: first those Kyverno, the
	// user or the cluster's controllers wrote, in the order they first
	// wrote them, then any other the step changed (in Cluster.Objects'
	// order). Every object the cluster holds after the step and did not
	// hold in this version before is the After of one change.
	Changes []Change `json:"changes"`
}

// Actors of events.
const (
	ActorUser       = "user"
	ActorKyverno    = "kyverno"
	ActorAPIServer  = "kube-apiserver"
	ActorController = "kube-controller-manager" // namespace deletion and garbage collection
)

// Actions of events.
const (
	ActionCreated    = "created"
	ActionUpdated    = "updated"
	ActionDeleted    = "deleted"
	ActionReverted   = "reverted"   // Kyverno undid a change to a synchronized downstream
	ActionRecreated  = "recreated"  // Kyverno recreated a deleted downstream
	ActionKept       = "kept"       // Kyverno deliberately left a downstream in place
	ActionIgnored    = "ignored"    // Kyverno did nothing about a downstream that was deleted: it stays deleted
	ActionUnlabelled = "unlabelled" // Kyverno removed its tracking labels
	ActionSkipped    = "skipped"    // a rule did not apply, and why
	ActionFailed     = "failed"     // an UpdateRequest failed
	ActionRejected   = "rejected"   // the API server or Kyverno's validation refused the request
	ActionWarned     = "warned"
	ActionNote       = "note" // how the simulation differs from a real cluster, where it matters
)

// Event is one thing that happened.
type Event struct {
	Seq    int    `json:"seq"`
	Time   string `json:"time"`
	Actor  string `json:"actor"`
	Action string `json:"action"`
	// Object is what the event is about; empty for events about no object.
	Object *resource.Ref `json:"object,omitempty"`
	// Policy is the policy key ("ClusterPolicy/name", "Policy/ns/name"), Rule its rule.
	Policy  string        `json:"policy,omitempty"`
	Rule    string        `json:"rule,omitempty"`
	Trigger *resource.Ref `json:"trigger,omitempty"`
	// Reason is one sentence a user understands, e.g. "synchronize is true
	// and the downstream was deleted".
	Reason string `json:"reason"`
	// VersionChanges, when set, name the changes between Kyverno releases
	// that decided this event ("kyverno#16920"): another release would
	// have done something else here, and the reason says what.
	VersionChanges []string `json:"versionChanges,omitempty"`
}

// Check is the outcome of an assert or error operation.
type Check struct {
	Passed bool `json:"passed"`
	// Skipped, when set, says why the scenario could not be simulated
	// honestly (for example a script that inspects Kyverno's own pods); the
	// steps before that point are still reported.
	Skipped string `json:"skipped,omitempty"`
	// Failures list what did not hold, with paths: "data.KEY: expected x, got y".
	Failures []string `json:"failures,omitempty"`
}

// Change kinds.
const (
	ChangeCreated = "created"
	ChangeUpdated = "updated"
	ChangeDeleted = "deleted"
	// ChangeRecreated: the object was deleted and created again within the
	// step (a new uid), as when Kyverno recreates a deleted downstream.
	ChangeRecreated = "recreated"
)

// Change is one object changed by a step. In the JSON answer a version of
// an object appears once: whole ("after") when the object is new, else as
// the patch that makes it from the version before ("patch").
type Change struct {
	Object resource.Ref `json:"object"`
	Change string       `json:"change"` // ChangeCreated, ChangeUpdated, ChangeDeleted, ChangeRecreated
	// Diff is set when the step's first write to the object was undone
	// within the step (Kyverno reverting an edit of a synchronized
	// downstream): two unified diffs of its YAML, to the state that write
	// left and from there to the state after the step, the only record of
	// that write. Any other diff follows from the versions (Diff renders
	// it).
	Diff string `json:"diff,omitempty"`
	// Whole is After when the answer carries the version whole: a created
	// object, or one that no merge patch describes (a null where it
	// changed).
	Whole resource.Object `json:"after,omitempty"`
	// Patch is the JSON merge patch (RFC 7386) that makes After from the
	// version before the step, for an updated or recreated object.
	Patch map[string]any `json:"patch,omitempty"`
	// After is the object after the step, nil when it was deleted: the
	// version this step made. The engine sets it (it is the cluster's own
	// object, shared: read it, copy it before changing it); a result read
	// from JSON gets it from Decode, or from Cluster.Apply.
	After resource.Object `json:"-"`
}

// Diagnostic is an input error or warning at a position.
type Diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	Severity string `json:"severity"` // "error" or "warning"
	Message  string `json:"message"`
}

// Where renders the diagnostic's position as file:line:column, leaving out
// what is unknown (a zero line or column).
func (d Diagnostic) Where() string {
	switch {
	case d.Line == 0:
		return d.File
	case d.Column == 0:
		return fmt.Sprintf("%s:%d", d.File, d.Line)
	}
	return fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
}

// Marshal renders a result as the canonical JSON every adapter returns:
// two-space indented, map keys sorted, with a final newline.
func Marshal(r *Result) ([]byte, error) { return marshal(r) }

func marshal(r any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
