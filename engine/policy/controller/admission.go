package controller

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/conditions"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/match"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// ruleStatus is filterRule's verdict (Kyverno's RuleStatus for background
// checks).
type ruleStatus int

const (
	// statusNone: the rule does not apply (no rule response at all).
	statusNone ruleStatus = iota
	// statusPass: the rule applies to the new object.
	statusPass
	// statusFail: the new object no longer matches (match, exclude or
	// preconditions) but the old one did: synchronized downstreams go.
	statusFail
	// statusSkip: match passed but preconditions did not.
	statusSkip
	// statusError: the context or preconditions could not be evaluated.
	statusError
)

// Admit implements generate.Family: Kyverno's generate webhook handler
// turns one admission request into UpdateRequests, for triggers and for
// non-triggers (downstreams and clone sources). It never blocks the
// request.
func (c *Family) Admit(req admission.Request) {
	for _, p := range c.policies.Sorted() {
		c.handleTrigger(p, req)
	}
	if req.User.Username != admission.BackgroundUser {
		c.handleNonTrigger(req)
	}
}

// handleTrigger applies each generate rule of p to a trigger's request.
func (c *Family) handleTrigger(p *policy.Policy, req admission.Request) {
	for i := range p.Spec.Rules {
		rule := &p.Spec.Rules[i]
		if rule.Generate == nil {
			continue
		}
		if req.User.Username == admission.BackgroundUser && rule.SkipBackgroundRequests {
			continue
		}
		v := view{operation: req.Operation, object: req.Object, oldObject: req.OldObject, user: &req.User,
			subResource: req.SubResource, resource: req.Resource}
		if req.Operation == admission.OpDelete && matchesDeleteOperation(rule) {
			// MatchDeleteOperation: a rule that lists DELETE generates on delete,
			// with the deleted object as request.object.
			v.object = req.OldObject
		}
		status, reason := c.filterRule(p, rule, v)
		obj := req.Object
		if obj == nil {
			obj = req.OldObject
		}
		t := triggerOf(obj)
		// tref is declared where it is used: its address goes into events,
		// so a shared one would be allocated for every request.
		switch status {
		case statusPass:
			kind := causeTriggerCreated
			switch req.Operation {
			case admission.OpUpdate:
				kind = causeTriggerUpdated
			case admission.OpDelete:
				kind = causeTriggerDeleted
			}
			r := req
			c.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: rule.Name, trigger: t, admission: &r, cause: cause{kind: kind}})
			if applyOne(p) {
				return
			}
		case statusFail:
			kind := causeTriggerNoLongerMatches
			if req.Operation == admission.OpDelete {
				kind = causeTriggerDeleted
			}
			if rule.Generate.Synchronize {
				r := req
				c.enqueue(&updateRequest{kind: urDeleteDownstream, policy: p, rule: rule.Name, trigger: t, admission: &r, cause: cause{kind: kind, detail: reason}})
				continue
			}
			for _, d := range c.triggerDownstreams(p, rule, t) {
				r, tref := d.Ref(), t.ref()
				what := "deleted"
				if kind == causeTriggerNoLongerMatches {
					what = "changed so it no longer matches (" + reason + ")"
				}
				c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, &tref,
					"synchronize is false, so Kyverno leaves the downstream when its trigger is "+what)
			}
		case statusNone:
			c.explainOperationsKeep(p, rule, req, v, t)
			c.explainOtherNamespace(p, rule, req, v, reason)
		case statusSkip:
			if req.User.Username != admission.BackgroundUser && req.Operation != admission.OpDelete {
				tref := t.ref()
				c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &tref, p, rule.Name, nil, reason)
			}
		case statusError:
			tref := t.ref()
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, nil, reason)
		}
	}
}

// applyOne reports whether the policy stops after its first applied rule.
func applyOne(p *policy.Policy) bool { return p.Spec.ApplyRules == "One" }

// matchesDeleteOperation reports whether a rule's match lists DELETE.
func matchesDeleteOperation(rule *policy.Rule) bool {
	for _, filters := range [2][]policy.Filter{rule.Match.Any, rule.Match.All} {
		for _, f := range filters {
			if slices.Contains(f.Resources.Operations, admission.OpDelete) {
				return true
			}
		}
	}
	return false
}

// listsOperations returns the operations the rule's match filters list, in
// order (nil when none restricts them).
func listsOperations(rule *policy.Rule) []string {
	var ops []string
	for _, filters := range [2][]policy.Filter{rule.Match.Any, rule.Match.All} {
		for _, f := range filters {
			ops = append(ops, f.Resources.Operations...)
		}
	}
	return ops
}

// matchRequest builds the match package's view of obj.
func (c *Family) matchRequest(p *policy.Policy, rule *policy.Rule, v view, obj resource.Object) match.Request {
	r := match.Request{
		Operation:       v.operation,
		Object:          obj,
		PolicyNamespace: p.Namespace,
		Budget:          c.core.Budget(),
	}
	if usesNamespaceSelector(rule) { // only a namespaceSelector reads them: spare the lookup and copy
		r.NamespaceLabels = c.nsLabels(obj)
	}
	if v.subResource != "" {
		// Kinds entries name the resource and its subresource ("Pod/exec");
		// Kyverno maps the subresource's kind (PodExecOptions) to them.
		shown := obj.DeepCopy()
		shown["apiVersion"], shown["kind"] = v.resource.APIVersion(), v.resource.Kind
		r.Object, r.SubResource = shown, v.subResource
	}
	r.UserInfo = v.user
	return r
}

// filterRule is Kyverno's filterRule for generate: match and exclude, then
// the rule context, then preconditions; a new object that no longer
// matches while the old one did is a Fail (SEMANTICS §2.2, §2.3).
func (c *Family) filterRule(p *policy.Policy, rule *policy.Rule, v view) (ruleStatus, string) {
	matched, why := false, "the object is gone"
	if v.object != nil {
		matched, why = match.Rule(rule, c.matchRequest(p, rule, v, v.object))
	}
	if !matched {
		if v.oldObject != nil {
			if ok, _ := match.Rule(rule, c.matchRequest(p, rule, v, v.oldObject)); ok {
				return statusFail, why
			}
		}
		return statusNone, why
	}
	if len(rule.Context) == 0 && rule.Preconditions == nil {
		return statusPass, "" // nothing below would read the request context
	}
	ctx := c.withValues(p, v.object, requestContext(v, v.object))
	if err := c.loadContext(rule.Context, ctx, c.ruleValues(p, rule.Name)); err != nil {
		return statusError, err.Error()
	}
	if rule.Preconditions == nil {
		return statusPass, ""
	}
	passed, reason, err := conditions.Evaluate(c.eval, ctx, rule.Preconditions)
	if err != nil {
		return statusError, "preconditions could not be evaluated: " + err.Error()
	}
	if passed {
		return statusPass, ""
	}
	if v.oldObject != nil {
		oldCtx := c.withValues(p, v.oldObject, requestContext(v, v.oldObject))
		if err := c.loadContext(rule.Context, oldCtx, c.ruleValues(p, rule.Name)); err == nil {
			if ok, _, err := conditions.Evaluate(c.eval, oldCtx, rule.Preconditions); err == nil && ok {
				return statusFail, reason
			}
		}
	}
	return statusSkip, reason
}

// handleNonTrigger reacts to changes of downstreams and clone sources
// (handleNonTrigger/processRequest). It reads the old object's labels.
func (c *Family) handleNonTrigger(req admission.Request) {
	old := req.OldObject
	if old == nil {
		return
	}
	// Most objects are neither: answer that from the labels in place
	// before copying them.
	policyName, _ := old.Label(generate.LabelPolicyName)
	_, source := old.Label(generate.LabelCloneSource)
	if policyName == "" && !source {
		return
	}
	labels := old.Labels()
	ref := old.Ref()
	if _, legacy := labels[generate.LabelRuleName]; isDownstream(labels) && legacy {
		// A downstream without rule-name is the CEL family's (family.go):
		// its own watches react to it.
		c.downstreamChanged(req, old, labels, ref)
	}
	if isCloneSource(labels) {
		c.sourceChanged(req, old, ref)
	}
}

func (c *Family) downstreamChanged(req admission.Request, old resource.Object, labels map[string]string, ref resource.Ref) {
	kind := causeDownstreamChanged
	what := "changed"
	if req.Operation == admission.OpDelete {
		kind, what = causeDownstreamDeleted, "deleted"
	}
	p := c.policyByLabels(labels)
	if req.User.Username == admission.NamespaceControllerUser {
		// Kyverno's request to restore it fails: the namespace is being deleted.
		if rule := ruleOf(p, labels[generate.LabelRuleName]); rule != nil && rule.Generate.Synchronize && labels[generate.LabelTriggerKind] != "Namespace" {
			c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &ref, p, rule.Name, nil,
				"the downstream went with its Namespace; Kyverno cannot recreate it in a namespace that is being deleted")
		}
		return
	}
	if p == nil {
		c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &ref, nil, labels[generate.LabelRuleName], nil, fmt.Sprintf(
			"the downstream was %s, but the policy %q that generated it no longer exists, so nothing restores it", what, labels[generate.LabelPolicyName]))
		return
	}
	rule := p.Rule(labels[generate.LabelRuleName])
	if rule == nil || rule.Generate == nil {
		c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &ref, p, labels[generate.LabelRuleName], nil, fmt.Sprintf(
			"the downstream was %s, but its rule %q is no longer in the policy, so nothing restores it", what, labels[generate.LabelRuleName]))
		return
	}
	t := triggerFromLabels(labels)
	tref := c.triggerRef(t)
	if !rule.Generate.Synchronize {
		action, msg := timeline.ActionKept, "synchronize is false, so Kyverno does not watch the downstream: the change stays"
		if kind == causeDownstreamDeleted {
			action, msg = timeline.ActionIgnored, "synchronize is false, so Kyverno does not watch the downstream: it stays deleted until the rule is next applied to its trigger (a trigger update, or generateExisting on a policy change or background scan)"
		}
		c.emit(timeline.ActorKyverno, action, &ref, p, rule.Name, tref, msg)
		return
	}
	c.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: rule.Name, trigger: t, cause: cause{kind: kind, object: &ref}})
}

// triggerRef returns a reference to the live trigger, or one built from
// labels when it is gone.
func (c *Family) triggerRef(t trigger) *resource.Ref {
	if live := c.findByUID(t); live != nil { // only its Ref is read
		r := live.Ref()
		return &r
	}
	r := t.ref()
	if r.Name == "" {
		r.Name = "uid:" + t.UID
	}
	return &r
}

func (c *Family) sourceChanged(req admission.Request, old resource.Object, ref resource.Ref) {
	kind := causeSourceChanged
	if req.Operation == admission.OpDelete {
		kind = causeSourceDeleted
	}
	for _, d := range c.sourceDownstreams(old) {
		labels := d.Labels()
		dref := d.Ref()
		p := c.policyByLabels(labels)
		if p == nil {
			continue
		}
		rule := p.Rule(labels[generate.LabelRuleName])
		if rule == nil || rule.Generate == nil {
			continue
		}
		t := triggerFromLabels(labels)
		if !rule.Generate.Synchronize {
			what := "change"
			if kind == causeSourceDeleted {
				what = "deletion"
			}
			c.emit(timeline.ActorKyverno, timeline.ActionKept, &dref, p, rule.Name, c.triggerRef(t), fmt.Sprintf(
				"synchronize is false, so the %s of the clone source %s is not propagated", what, ref))
			continue
		}
		if kind == causeSourceChanged && req.Object != nil {
			if ok, _ := match.Rule(rule, c.matchRequest(p, rule, view{operation: req.Operation, user: &req.User}, req.Object)); ok {
				// "admission resource is both the source and the trigger": only the trigger path runs.
				continue
			}
		}
		urk := urGenerate
		if kind == causeSourceDeleted {
			urk = urDeleteDownstream
		}
		c.enqueue(&updateRequest{kind: urk, policy: p, rule: rule.Name, trigger: t, cause: cause{kind: kind, object: &ref}})
	}
}

// sourceDownstreams lists the downstreams cloned from src, by source labels.
func (c *Family) sourceDownstreams(src resource.Object) []resource.Object {
	g := src.GVK()
	sel := map[string]string{
		generate.LabelSourceGroup: g.Group, generate.LabelSourceVersion: g.Version, generate.LabelSourceKind: g.Kind,
		generate.LabelSourceNS: src.Namespace(), generate.LabelSourceUID: src.UID(),
	}
	out := c.listLabelled(src.APIVersion(), src.Kind(), sel)
	if len(out) == 0 {
		delete(sel, generate.LabelSourceUID)
		sel[generate.LabelSourceName] = src.Name()
		out = c.listLabelled(src.APIVersion(), src.Kind(), sel)
	}
	var kept []resource.Object
	for _, d := range out {
		if d.UID() != src.UID() {
			kept = append(kept, d)
		}
	}
	return kept
}

// reasonNoOperation explains why an operations-limited rule does nothing
// for a request that carries no operation (SEMANTICS §2.5).
func reasonNoOperation(ops []string) string {
	return fmt.Sprintf("the rule's match lists operations [%s], and Kyverno's background request carries no operation, "+
		"so the rule does not apply (kyverno#10574)", strings.Join(ops, ", "))
}

// ruleOf returns p's generate rule of that name, or nil.
func ruleOf(p *policy.Policy, name string) *policy.Rule {
	if p == nil {
		return nil
	}
	if r := p.Rule(name); r != nil && r.Generate != nil {
		return r
	}
	return nil
}

// usesNamespaceSelector reports whether any filter of the rule's match or
// exclude block has a namespaceSelector, the only reader of
// match.Request.NamespaceLabels.
func usesNamespaceSelector(rule *policy.Rule) bool {
	for _, b := range []policy.MatchBlock{rule.Match, rule.Exclude} {
		for _, fs := range [][]policy.Filter{b.Any, b.All} {
			for _, f := range fs {
				if f.Resources.NamespaceSelector != nil {
					return true
				}
			}
		}
	}
	return false
}

// explainOperationsKeep says why a synchronized downstream stays when its
// trigger is deleted or stops matching under a rule whose match lists
// operations without this request's: filterRule does not match the old
// object either, so Kyverno sends no clean-up request (kyverno#10574).
// explainOtherNamespace says why a namespaced Policy ignores a new object
// its rule would otherwise match: a Policy applies only in its namespace.
func (c *Family) explainOtherNamespace(p *policy.Policy, rule *policy.Rule, req admission.Request, v view, reason string) {
	if p.Kind != policy.KindPolicy || req.Operation != admission.OpCreate || req.Object == nil || req.User.Username == admission.BackgroundUser ||
		req.Object.Namespace() == p.Namespace {
		return
	}
	anywhere := c.matchRequest(p, rule, v, req.Object)
	anywhere.PolicyNamespace = ""
	if ok, _ := match.Rule(rule, anywhere); !ok {
		return // the rule would not match it in its own namespace either
	}
	ref := req.Object.Ref()
	c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &ref, p, rule.Name, nil, "ignored: "+reason)
}

func (c *Family) explainOperationsKeep(p *policy.Policy, rule *policy.Rule, req admission.Request, v view, t trigger) {
	ops := listsOperations(rule)
	if len(ops) == 0 || slices.Contains(ops, req.Operation) || req.OldObject == nil || !rule.Generate.Synchronize {
		return
	}
	old := c.matchRequest(p, rule, v, req.OldObject)
	old.Operation = ops[0]
	if ok, _ := match.Rule(rule, old); !ok {
		return // the rule did not apply to the old object in any case
	}
	tref := t.ref()
	for _, d := range c.triggerDownstreams(p, rule, t) {
		r := d.Ref()
		c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, &tref,
			fmt.Sprintf("the rule's match lists operations [%s] without %s, so Kyverno sends no clean-up request and the downstream stays (kyverno#10574)",
				strings.Join(ops, ", "), req.Operation))
	}
}
