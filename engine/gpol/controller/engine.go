package controller

import (
	"fmt"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/gpol/compiler"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// Engine result statuses (the report's result field).
const (
	resultPass  = "pass"
	resultSkip  = "skip"
	resultError = "error"
)

// evaluation is one engine run for one rule context: the request the
// engine sees and what the apply core did (SetGenerateContext).
type evaluation struct {
	f            *Family
	e            *entry
	ur           *updateRequest
	rc           ruleContext
	trig         resource.Object // the trigger: the live object, or the request's
	operation    string
	object       resource.Object // request.object ({} on DELETE)
	oldObject    resource.Object
	requestNS    string
	requestName  string
	kind         resource.GVK // request.kind
	cacheRestore bool
	// labels are the generate labels of §3.5 for this trigger.
	triggerName, triggerNamespace, triggerUID string
	// generated are the objects the apply core created, updated or (cache
	// restore) found, as the API returned them.
	generated []resource.Object
}

// newEvaluation is the request the engine sees for one rule context: the
// stored admission request, or the synthetic CREATE of a background
// UpdateRequest.
func (f *Family) newEvaluation(e *entry, ur *updateRequest, rc ruleContext, trig resource.Object) *evaluation {
	ev := &evaluation{f: f, e: e, ur: ur, rc: rc, trig: trig, cacheRestore: rc.cacheRestore}
	if ur.admission != nil {
		req := ur.admission
		ev.operation = req.Operation
		ev.object, ev.oldObject = req.Object, req.OldObject
		if req.Operation == admission.OpDelete {
			ev.object = resource.Object{}
		}
		src := req.Object
		if src == nil {
			src = req.OldObject
		}
		ev.kind = src.GVK()
		ev.requestName = src.Name()
		if req.Operation == admission.OpCreate && src.Metadata()["generateName"] != nil {
			ev.requestName = "" // the API server leaves request.name empty for generateName
		}
		_, namespaced := f.namespaced(src.GVK())
		if req.SubResource != "" {
			namespaced = true
		}
		ev.requestNS = requestNamespace(*req, src, namespaced)
	} else {
		ev.operation = admission.OpCreate
		ev.object = trig
		ev.kind = trig.GVK()
		ev.requestName = trig.Name()
		ev.requestNS = trig.Namespace() // the synthetic request uses the trigger's namespace
	}
	ev.triggerName = ev.requestName
	ev.triggerNamespace = ev.object.Namespace()
	ev.triggerUID = ev.object.UID()
	return ev
}

// runEngine is the engine step (§3.3) and the interpretation of its result
// (§3.2 step 7) for one rule context.
func (f *Family) runEngine(e *entry, ur *updateRequest, rc ruleContext, trig resource.Object) {
	p := e.p
	ev := f.newEvaluation(e, ur, rc, trig)
	tref := trig.Ref()
	status, msg, props := ev.evaluate()
	switch status {
	case "":
		// match constraints or match conditions did not match.
		if rc.synchronize {
			if inPlaceOnTriggerUpdate.In(f.cfg.Kyverno) {
				f.watch.deleteDownstreams(ur.policy, &rc.trigger, p,
					"synchronize is on and the trigger no longer matches the policy ("+msg+"), so Kyverno deletes what it generated for it: "+
						inPlaceOnTriggerUpdate.Says(), inPlaceOnTriggerUpdate)
			}
			// v1.18.2 deleted it before the evaluation (process).
			return
		}
		if ur.admission != nil && ur.admission.User.Username != admission.BackgroundUser && ur.cause == causeAdmission {
			f.emit(timeline.ActionSkipped, &tref, p, "", nil, "the policy does not apply: "+msg)
		}
		return
	case resultError:
		f.emit(timeline.ActionFailed, &tref, p, failedRule(msg), &tref, "the UpdateRequest failed: "+msg+
			" (Kyverno retries a failed UpdateRequest a few times, then deletes it; genplay reports it once)")
		f.core.Diagnose(diagnostic(p, msg))
	case resultSkip:
		f.emit(timeline.ActionSkipped, &tref, p, "", &tref, msg)
	case resultPass:
		if p.Spec.Evaluation.Synchronize && (!rc.cacheRestore || len(ev.generated) > 0) {
			// v1.19.0 syncs the watchers only with something generated, then
			// cleans up what a trigger update no longer renders; v1.18.2
			// syncs them with the empty list too (kyverno#16838).
			inPlace := inPlaceOnTriggerUpdate.In(f.cfg.Kyverno)
			if len(ev.generated) > 0 || !inPlace {
				f.watch.syncWatchers(ur.policy, rc.trigger, ev.generated, p)
			}
			if rc.synchronize && inPlace {
				f.watch.cleanupStale(ur.policy, rc.trigger, ev.generated, p)
			}
		}
	}
	f.report(ev, status, msg, props)
}

// evaluate is engine.generate and Policy.Evaluate (§2.2, §3.3): the result
// status ("" for no result), its message and its report properties.
func (ev *evaluation) evaluate() (status, msg string, props map[string]string) {
	f, p := ev.f, ev.e.p
	mc := p.Spec.MatchConstraints
	if mc == nil {
		return "", "it has no matchConstraints", nil
	}
	attrs := ev.attributes()
	if ok, why := mc.Match(attrs); !ok {
		return "", why, nil
	}
	in := ev.input()
	host := &host{ev: ev}
	// Exceptions first, before match conditions (§2.2 step 2).
	if f.cfg.PolicyExceptions {
		full, partialImages, partialValues, err := ev.exceptions(in, host)
		if err != nil && len(full) == 0 {
			return resultError, "failed to evaluate policy: " + err.Error(), nil
		}
		if len(full) > 0 {
			names := make([]string, len(full))
			for i, x := range full {
				names[i] = x.e.Name
			}
			props := map[string]string{"exceptions": strings.Join(names, ",")}
			refs := make([]string, len(full))
			for i, x := range full {
				refs[i] = x.key
			}
			if pick := highestPriority(full); pick.e.ReportResult == "pass" {
				return resultPass, "rule is passed due to policy exception: " + strings.Join(refs, ", "), props
			}
			return resultSkip, "rule is skipped due to policy exception: " + strings.Join(refs, ", "), props
		}
		in.AllowedImages, in.AllowedValues = partialImages, partialValues
	}
	// Match and AuditAnnotations each prepare an activation: skip them when
	// the policy has nothing for them to evaluate (same result).
	if len(p.Spec.MatchConditions) > 0 {
		matched, err := ev.e.compiled.Match(in, host)
		if err != nil {
			return resultError, "failed to evaluate policy: " + err.Error(), nil
		}
		if !matched {
			return "", "a matchCondition is false", nil
		}
	}
	if err := ev.e.compiled.Generate(in, host); err != nil {
		return resultError, "failed to evaluate policy: " + err.Error(), nil
	}
	var ann map[string]string
	if len(p.Spec.AuditAnnotations) > 0 {
		var err error
		if ann, err = ev.e.compiled.AuditAnnotations(in, host); err != nil {
			return resultError, "failed to evaluate policy: " + err.Error(), nil
		}
	}
	return resultPass, "policy evaluated successfully", ann
}

// attributes are the matcher's view of the request.
func (ev *evaluation) attributes() gpol.Attributes {
	a := gpol.Attributes{Operation: ev.operation, Kind: ev.kind, Name: ev.requestName, Namespace: ev.object.Namespace(),
		Object: ev.object, OldObject: ev.oldObject}
	if ev.operation == admission.OpDelete {
		a.Object = nil
	}
	if ev.ur.admission != nil && ev.ur.admission.SubResource != "" {
		res := ev.ur.admission.Resource
		a.Group, a.Version = res.Group, res.Version
		a.Resource = ev.f.resourceOf(res)
		a.SubResource = ev.ur.admission.SubResource
		a.Namespaced = true
	} else {
		a.Group, a.Version = ev.kind.Group, ev.kind.Version
		a.Resource = ev.f.resourceOf(ev.kind)
		a.Namespaced, _ = ev.f.namespaced(ev.kind)
	}
	if ev.requestNS != "" {
		a.NamespaceLabels = ev.f.namespaceLabels(ev.requestNS)
	}
	return a
}

// input is the activation of §2.1.
func (ev *evaluation) input() compiler.Input {
	in := compiler.Input{Object: map[string]any(ev.object), Request: ev.request()}
	if ev.oldObject != nil {
		in.OldObject = map[string]any(ev.oldObject)
	}
	if ev.requestNS != "" {
		if ns, err := ev.f.store.View(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: ev.requestNS}); err == nil {
			in.NamespaceObject = map[string]any(ns)
		}
	}
	return in
}

// request is the AdmissionRequest as the engine sees it: the stored one, or
// the synthetic CREATE of a background UpdateRequest.
func (ev *evaluation) request() map[string]any {
	kind := map[string]any{"group": ev.kind.Group, "version": ev.kind.Version, "kind": ev.kind.Kind}
	resGVK, sub := ev.kind, ""
	user := map[string]any{}
	if req := ev.ur.admission; req != nil {
		if req.SubResource != "" {
			resGVK, sub = req.Resource, req.SubResource
		}
		groups := make([]any, len(req.User.Groups))
		for i, g := range req.User.Groups {
			groups[i] = g
		}
		user = map[string]any{"username": req.User.Username, "groups": groups}
	}
	res := map[string]any{"group": resGVK.Group, "version": resGVK.Version, "resource": ev.f.resourceOf(resGVK)}
	r := map[string]any{
		"uid": "", "kind": kind, "resource": res, "requestKind": kind, "requestResource": res,
		"name": ev.requestName, "namespace": ev.requestNS, "operation": ev.operation,
		"userInfo": user, "object": map[string]any(ev.object), "oldObject": nil, "dryRun": false,
	}
	if sub != "" {
		r["subResource"] = sub
		r["requestSubResource"] = sub
	}
	if ev.oldObject != nil {
		r["oldObject"] = map[string]any(ev.oldObject)
	}
	return r
}

// exceptions evaluates the PolicyExceptions that refer to the policy
// (§3.11): the full exemptions that match, and what partial ones allow.
func (ev *evaluation) exceptions(in compiler.Input, h compiler.Host) (full []*exception, images, values []string, err error) {
	f, e := ev.f, ev.e
	keys := make([]string, 0, len(f.exceptions))
	for k := range f.exceptions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	images, values = []string{}, []string{}
	for _, k := range keys {
		x := f.exceptions[k]
		if !x.e.Refers(e.p) {
			continue
		}
		ce := e.exceptions[k]
		if ce == nil || ce.rv != x.rv {
			c, diags := compiler.CompileException(x.e, e.p, f.compilerOptions())
			ce = &compiledException{rv: x.rv, c: c}
			if diags.HasErrors() {
				ce.err = fmt.Errorf("PolicyException %s: %s", k, diags.Errors()[0].Message)
			}
			e.exceptions[k] = ce
		}
		if ce.err != nil {
			if err == nil {
				err = ce.err
			}
			continue
		}
		ok, merr := ce.c.Match(in, h)
		if merr != nil {
			if err == nil {
				err = fmt.Errorf("PolicyException %s: %w", k, merr)
			}
			continue
		}
		if !ok {
			continue
		}
		if len(x.e.Images) == 0 && len(x.e.AllowedValues) == 0 {
			full = append(full, x)
			continue
		}
		images = append(images, x.e.Images...)
		values = append(values, x.e.AllowedValues...)
	}
	return full, images, values, err
}

// highestPriority picks the matched exception whose reportResult counts:
// the one with the highest polex.kyverno.io/priority label above 0, else
// the first.
func highestPriority(xs []*exception) *exception {
	best, bestPrio := xs[0], 0
	for _, x := range xs {
		if x.e.Priority > bestPrio {
			best, bestPrio = x, x.e.Priority
		}
	}
	return best
}
