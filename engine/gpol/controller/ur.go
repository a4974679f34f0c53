package controller

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// cause says which event led to an UpdateRequest; the timeline's reasons
// come from it.
type cause int

const (
	causeAdmission cause = iota
	causePolicyAdded
	causePolicyUpdated
	causeScan
	causeRestart
)

// triggerSpec is an UpdateRequest's ruleContext.trigger.
type triggerSpec struct {
	gvk             resource.GVK
	namespace, name string
	uid             string
}

func (t triggerSpec) ref() resource.Ref {
	return resource.Ref{APIVersion: t.gvk.APIVersion(), Kind: t.gvk.Kind, Namespace: t.namespace, Name: t.name}
}

// triggerOf is the handler's triggerSpec: the request's object, or its old
// object when there is none.
func triggerOf(obj resource.Object, req admission.Request) triggerSpec {
	t := triggerSpec{gvk: obj.GVK(), namespace: obj.Namespace(), name: obj.Name(), uid: obj.UID()}
	return t
}

// ruleContext is one entry of an UpdateRequest's spec.ruleContext.
type ruleContext struct {
	trigger          triggerSpec
	deleteDownstream bool
	synchronize      bool
	cacheRestore     bool
	// generateExisting marks contexts of handleGenerateExisting (for the
	// timeline's reasons only).
	generateExisting bool
	// predeleted are the downstreams Kyverno v1.18.2 deleted before the
	// evaluation (for the timeline's reasons only).
	predeleted map[resource.Ref]bool
}

// updateRequest is a cel-generate UpdateRequest.
type updateRequest struct {
	seq      int
	policy   string // spec.policy: name, or namespace/name for ngpol
	contexts []ruleContext
	// admission is the admission request of a webhook UR; nil for URs of
	// the policy controller.
	admission *admission.Request
	cause     cause
	f         *Family
}

// Key implements generate.Work: every UpdateRequest is a new object.
func (ur *updateRequest) Key() string { return "cel-generate|ur-" + strconv.Itoa(ur.seq) }

// Run implements generate.Work.
func (ur *updateRequest) Run() { ur.f.process(ur) }

// enqueueUR queues an UpdateRequest for the background controller.
func (f *Family) enqueueUR(ur *updateRequest) {
	f.urSeq++
	ur.seq, ur.f = f.urSeq, f
	f.core.Enqueue(ur)
}

// process is CELGenerateController.ProcessUR (§3.2). A failed context fails
// the UR; Kyverno retries it about four times, which in a deterministic
// simulation changes nothing: genplay reports the failure once.
func (f *Family) process(ur *updateRequest) {
	e := f.policyByURKey(ur.policy)
	for _, rc := range ur.contexts {
		if rc.deleteDownstream {
			// Only what the WatchManager's cache holds is deleted.
			var p *gpol.Policy
			if e != nil {
				p = e.p
			}
			f.watch.deleteDownstreams(ur.policy, &rc.trigger, p, "synchronize is on and the trigger "+rc.trigger.ref().String()+" was deleted", nil)
			continue
		}
		if rc.synchronize && !inPlaceOnTriggerUpdate.In(f.cfg.Kyverno) {
			// v1.18.2 deletes first, whatever the evaluation then says.
			var p *gpol.Policy
			if e != nil {
				p = e.p
			}
			rc.predeleted = f.watch.liveDownstreams(ur.policy, rc.trigger)
			f.watch.deleteDownstreams(ur.policy, &rc.trigger, p, "the trigger "+rc.trigger.ref().String()+" was updated and synchronize is on: Kyverno "+
				string(f.cfg.Kyverno)+" deletes what the policy generated for it before running the policy again: "+inPlaceOnTriggerUpdate.Says(), inPlaceOnTriggerUpdate)
		}
		if e == nil {
			f.urFailed(nil, rc, fmt.Sprintf("policy %s not found", ur.policy))
			continue
		}
		trig, err := f.fetchTrigger(ur, rc)
		if err != nil {
			f.urFailed(e.p, rc, err.Error())
			continue
		}
		if filtered(trig.Kind(), trig.Namespace()) {
			continue
		}
		f.runEngine(e, ur, rc, trig)
	}
}

// inPlaceOnTriggerUpdate is gpol.TriggerUpdateInPlace (kyverno#16838):
// process, the engine step, the apply core and the webhook switch on it.
var inPlaceOnTriggerUpdate = gpol.TriggerUpdateInPlace

// urFailed reports a failed rule context.
func (f *Family) urFailed(p *gpol.Policy, rc ruleContext, msg string) {
	tref := rc.trigger.ref()
	f.emit(timeline.ActionFailed, &tref, p, "", &tref, "the UpdateRequest failed: "+msg+
		" (Kyverno retries a failed UpdateRequest a few times, then deletes it; genplay reports it once)")
}

// fetchTrigger is common.GetTrigger for a rule context.
func (f *Family) fetchTrigger(ur *updateRequest, rc ruleContext) (resource.Object, error) {
	t := rc.trigger
	byUID := func() (resource.Object, error) {
		obj, err := f.store.ViewByUID(t.ref(), t.uid)
		if err != nil || (t.namespace != "" && obj.Namespace() != t.namespace) {
			return nil, fmt.Errorf("failed to get trigger resource: %s with uid %s not found", t.ref(), t.uid)
		}
		return obj, nil
	}
	if ur.admission == nil {
		return byUID()
	}
	req := ur.admission
	switch req.Operation {
	case admission.OpCreate:
		obj, err := byUID()
		if err != nil && req.SubResource != "" {
			return req.Object, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%v; the corresponding admission request may have been rejected", err)
		}
		return obj, nil
	case admission.OpUpdate:
		return byUID()
	case admission.OpDelete:
		old := req.OldObject
		if live, err := f.store.ViewByUID(t.ref(), t.uid); err == nil && live.UID() == old.UID() {
			if _, deleting := live.Metadata()["deletionTimestamp"]; !deleting {
				return nil, fmt.Errorf("trigger %s still exists: the delete request was rejected", t.ref())
			}
		}
		if _, ok := old.Label(generate.LabelPolicyName); ok {
			return byUID()
		}
		return old, nil
	default:
		return req.Object, nil
	}
}

// lowerPlural is kubectl's guess at a kind's resource name.
func lowerPlural(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}
