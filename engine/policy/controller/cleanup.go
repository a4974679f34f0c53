package controller

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/match"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

func selectorMatches(sel *policy.LabelSelector, labels map[string]string) bool {
	return match.Selector(sel, labels)
}

// generatedKinds lists the apiVersion/kind pairs a rule generates, as
// cleanupPatterns does: the rule's target, each cloneList kind without
// wildcards, and each foreach entry's target. Kinds written with variables
// cannot be known without a trigger and are left out.
func (c *Family) generatedKinds(rule *policy.Rule) [][2]string {
	var out [][2]string
	seen := map[[2]string]bool{}
	add := func(t policy.Target) {
		if t.CloneList != nil {
			for _, k := range t.CloneList.Kinds {
				if strings.ContainsAny(k, "*?") || variables.HasVariables(k) {
					continue
				}
				if av, kind, ok := c.resolveKind(k); ok && !seen[[2]string{av, kind}] {
					seen[[2]string{av, kind}] = true
					out = append(out, [2]string{av, kind})
				}
			}
			return
		}
		if t.Kind == "" || variables.HasVariables(t.Kind) || variables.HasVariables(t.APIVersion) {
			return
		}
		k := [2]string{t.APIVersion, t.Kind}
		if k[0] == "" {
			if av, _, ok := c.resolveKind(t.Kind); ok {
				k[0] = av
			}
		}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if rule.Generate == nil {
		return nil
	}
	add(rule.Generate.Target)
	for _, fe := range rule.Generate.ForEach {
		add(fe.Target)
	}
	return out
}

// listLabelled lists objects of one kind in every namespace by labels.
func (c *Family) listLabelled(apiVersion, kind string, labels map[string]string) []resource.Object {
	return c.store.List(cluster.Query{APIVersion: apiVersion, Kind: kind, Labels: labels})
}

// triggerDownstreams lists one trigger's downstreams of a policy, as
// getDownstreams does: rule-name is not part of the selector, so every
// rule of the policy that generates the same kind for the trigger counts.
func (c *Family) triggerDownstreams(p *policy.Policy, rule *policy.Rule, t trigger) []resource.Object {
	var out []resource.Object
	for _, k := range c.generatedKinds(rule) {
		sel := map[string]string{
			generate.LabelPolicyName: p.Name, generate.LabelPolicyNamespace: p.Namespace, generate.LabelManagedBy: generate.ValueKyverno,
			generate.LabelTriggerUID: t.UID, generate.LabelTriggerNS: t.Namespace, generate.LabelTriggerKind: t.GVK.Kind,
			generate.LabelTriggerGroup: t.GVK.Group, generate.LabelTriggerVersion: t.GVK.Version,
		}
		found := c.listLabelled(k[0], k[1], sel)
		if len(found) == 0 && t.Name != "" {
			delete(sel, generate.LabelTriggerUID)
			sel[generate.LabelTriggerName] = t.Name
			found = c.listLabelled(k[0], k[1], sel)
		}
		out = append(out, found...)
	}
	return out
}

// ruleDownstreams lists every downstream of one rule
// (buildURForGenerateRuleChanges' selector).
func (c *Family) ruleDownstreams(p *policy.Policy, rule *policy.Rule) []resource.Object {
	var out []resource.Object
	for _, k := range c.generatedKinds(rule) {
		sel := policyLabels(refOf(p, rule.Name))
		out = append(out, c.listLabelled(k[0], k[1], sel)...)
	}
	return out
}

// deleteTriggerDownstreams deletes one trigger's downstreams
// (handleNonPolicyChanges for a delete-downstream request).
func (c *Family) deleteTriggerDownstreams(ur *updateRequest) {
	p := ur.policy
	rule := p.Rule(ur.rule)
	if rule == nil {
		return
	}
	tref := ur.trigger.ref()
	var reason string
	switch ur.cause.kind {
	case causeTriggerDeleted:
		reason = "synchronize is true and the trigger was deleted"
	case causeTriggerNoLongerMatches:
		reason = "synchronize is true and the trigger no longer matches the rule: " + ur.cause.detail
	case causeSourceDeleted:
		reason = fmt.Sprintf("synchronize is true and the clone source %s was deleted; Kyverno deletes the trigger's downstreams "+
			"of this rule, selected by trigger and not by source, so other copies of a cloneList go too", ur.cause.object)
	default:
		reason = "synchronize is true"
	}
	for _, d := range c.triggerDownstreams(p, rule, ur.trigger) {
		r := d.Ref()
		if err := c.core.Delete(kyverno, r); err != nil {
			if !isNotFound(err) {
				c.emit(timeline.ActorKyverno, timeline.ActionFailed, &r, p, rule.Name, &tref, err.Error())
			}
			continue
		}
		c.emit(timeline.ActorKyverno, timeline.ActionDeleted, &r, p, rule.Name, &tref, reason)
	}
}

// cleanupClones is policy.CleanupClones (kyverno#16329), on which
// cleanupRule switches.
var cleanupClones = policy.CleanupClones

// dataKinds are the kinds of a rule's data patterns (its target and its
// foreach entries with data), those v1.18.2 cleans up.
func (c *Family) dataKinds(rule *policy.Rule) map[[2]string]bool {
	out := map[[2]string]bool{}
	add := func(t policy.Target) {
		if !t.HasData || t.Kind == "" || variables.HasVariables(t.Kind) || variables.HasVariables(t.APIVersion) {
			return
		}
		k := [2]string{t.APIVersion, t.Kind}
		if k[0] == "" {
			if av, _, ok := c.resolveKind(t.Kind); ok {
				k[0] = av
			}
		}
		out[k] = true
	}
	add(rule.Generate.Target)
	for _, fe := range rule.Generate.ForEach {
		add(fe.Target)
	}
	return out
}

// cleanupRule deletes, or explains keeping, every downstream of a removed
// rule or deleted policy (createURForDownstreamDeletion, v1.19: data,
// clone, cloneList and foreach patterns; v1.18.2: data patterns only).
func (c *Family) cleanupRule(ur *updateRequest) {
	p := ur.policy
	rule := p.Rule(ur.rule)
	if rule == nil || rule.Generate == nil {
		return
	}
	what := "the policy was deleted"
	if ur.cause.kind == causeRuleRemoved {
		what = "the rule was removed from the policy"
	}
	downstreams := c.ruleDownstreams(p, rule)
	g := rule.Generate
	var dataOnly map[[2]string]bool
	if !cleanupClones.In(c.cfg.Kyverno) {
		dataOnly = c.dataKinds(rule)
	}
	for _, d := range downstreams {
		r := d.Ref()
		trig := c.triggerRef(downstreamTrigger(d))
		switch {
		case g.Synchronize && !g.OrphanDownstreamOnPolicyDelete && dataOnly != nil && !dataOnly[[2]string{d.APIVersion(), d.Kind()}]:
			c.emitChange(cleanupClones, timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, trig,
				what+" with synchronize true, but the downstream is a clone, which Kyverno "+string(c.cfg.Kyverno)+" does not clean up: "+cleanupClones.Says())
		case !g.Synchronize:
			c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, trig,
				what+", but synchronize is false, so Kyverno never deletes what the rule generated")
		case g.OrphanDownstreamOnPolicyDelete:
			c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, trig,
				what+", but orphanDownstreamOnPolicyDelete is true, so the downstream is orphaned and kept")
		default:
			if err := c.core.Delete(kyverno, r); err != nil {
				if !isNotFound(err) {
					c.emit(timeline.ActorKyverno, timeline.ActionFailed, &r, p, rule.Name, trig, err.Error())
				}
				continue
			}
			c.emit(timeline.ActorKyverno, timeline.ActionDeleted, &r, p, rule.Name, trig,
				what+" with synchronize true and orphanDownstreamOnPolicyDelete false, so Kyverno deletes what the rule generated")
		}
	}
}

// unlabelDownstreams removes the policy labels from a rule's old
// downstreams after its target changed (unlabelDownstream, 1.14+). It uses
// the rule-level kind, so foreach downstreams stay labelled, as in Kyverno.
func (c *Family) unlabelDownstreams(p *policy.Policy, rule *policy.Rule) {
	if rule.Generate == nil || rule.Generate.Kind == "" || variables.HasVariables(rule.Generate.Kind) {
		return
	}
	apiVersion := rule.Generate.APIVersion
	kinds := [][2]string{{apiVersion, rule.Generate.Kind}}
	if rule.Generate.CloneList != nil {
		kinds = c.generatedKinds(rule)
	}
	for _, k := range kinds {
		for _, d := range c.listLabelled(k[0], k[1], policyLabels(refOf(p, rule.Name))) {
			upd := d.DeepCopy()
			l := upd.Labels()
			delete(l, generate.LabelPolicyName)
			delete(l, generate.LabelPolicyNamespace)
			delete(l, generate.LabelRuleName)
			upd.SetLabels(l)
			if _, err := c.core.Update(kyverno, upd); err != nil {
				continue
			}
			r := d.Ref()
			c.emit(timeline.ActorKyverno, timeline.ActionUnlabelled, &r, p, rule.Name, nil,
				"the rule's generate target changed, so Kyverno removed the policy labels from the old downstream: it is kept but no longer tracked (stale target)")
		}
	}
}
