package controller

import (
	"strconv"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// urKind is what an UpdateRequest asks the background controller to do.
type urKind int

const (
	// urGenerate applies a rule to one trigger (Kyverno's generate UR).
	urGenerate urKind = iota
	// urDeleteDownstream deletes one trigger's downstreams (a generate UR
	// with deleteDownstream set).
	urDeleteDownstream
	// urCleanupRule deletes every downstream of a removed rule or deleted
	// policy (createURForDownstreamDeletion).
	urCleanupRule
)

// causeKind says which event led to an UpdateRequest; the timeline's
// reasons come from it.
type causeKind int

const (
	causeTriggerCreated causeKind = iota
	causeTriggerUpdated
	causeTriggerDeleted
	causeTriggerNoLongerMatches
	causeDownstreamDeleted
	causeDownstreamChanged
	causeSourceChanged
	causeSourceDeleted
	causePolicyCreated
	causePolicyUpdated
	causeGenerateExisting
	causeBackgroundScan
	causeRuleRemoved
	causePolicyDeleted
)

// cause is why an UpdateRequest exists.
type cause struct {
	kind causeKind
	// object is the object whose change caused the request (a downstream or
	// a clone source), when it is not the trigger.
	object *resource.Ref
	// detail completes the reason, e.g. why a trigger no longer matches.
	detail string
	// policyEvent is causePolicyCreated, causePolicyUpdated or
	// causeBackgroundScan for generateExisting requests.
	policyEvent causeKind
}

// updateRequest is Kyverno's UpdateRequest, reduced to what processing reads.
type updateRequest struct {
	kind    urKind
	policy  *policy.Policy // the policy as it was when the request was made
	rule    string
	trigger trigger
	// admission is the admission request for URs created from a trigger's
	// admission request; nil for background and non-trigger URs, whose
	// operation is "".
	admission *admission.Request
	cause     cause
	// f is the family that queued it (enqueue).
	f *Family
}

// Run implements generate.Work.
func (ur *updateRequest) Run() { ur.f.process(ur) }

func (ur *updateRequest) operation() string {
	if ur.admission == nil {
		return ""
	}
	return ur.admission.Operation
}

// Key implements generate.Work: it identifies a request for deduplication,
// "kind|policy key|rule|trigger uid|trigger ref|operation". Built by
// concatenation rather than fmt (it runs for every request); the trigger's
// Ref string does not include the apiVersion, so it is left out of the Ref.
func (ur *updateRequest) Key() string {
	t := resource.Ref{Kind: ur.trigger.GVK.Kind, Namespace: ur.trigger.Namespace, Name: ur.trigger.Name}
	return strconv.Itoa(int(ur.kind)) + "|" + ur.policy.Key() + "|" + ur.rule + "|" + ur.trigger.UID + "|" +
		t.String() + "|" + ur.operation()
}

// Place says, for the work budget's messages, what the request is doing.
func (ur *updateRequest) Place() string {
	return "Kyverno processed an UpdateRequest of policy " + ur.policy.Key() + ", rule " + ur.rule
}

// ruleRef names a rule for labels.
type ruleRef struct {
	policyName      string
	policyNamespace string
	rule            string
}

func refOf(p *policy.Policy, rule string) ruleRef {
	return ruleRef{policyName: p.Name, policyNamespace: p.Namespace, rule: rule}
}
