package controller

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/match"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// policyAdded is the policy controller's addPolicy.
func (c *Family) policyAdded(p *policy.Policy) {
	c.policies.Put(p.Key(), p)
	c.handleGenerate(p, causePolicyCreated)
}

// policyUpdated is updatePolicy: removed rules are cleaned up, changed
// targets unlabelled, then data is re-synchronized and generateExisting runs.
func (c *Family) policyUpdated(old, updated *policy.Policy) {
	c.policies.Put(updated.Key(), updated)
	if resource.Equal(old.Raw["spec"], updated.Raw["spec"]) {
		return // only metadata changed: Kyverno reacts to spec changes
	}
	for _, r := range policy.RemovedRules(old, updated) {
		if r.Generate != nil {
			c.enqueue(&updateRequest{kind: urCleanupRule, policy: old, rule: r.Name, cause: cause{kind: causeRuleRemoved}})
		}
	}
	for i := range updated.Spec.Rules {
		nr := &updated.Spec.Rules[i]
		or := old.Rule(nr.Name)
		if or != nil && or.Generate != nil && nr.Generate != nil && policy.TargetChanged(or, nr) {
			c.unlabelDownstreams(old, or)
			continue
		}
		if or != nil && nr.Generate != nil && !nr.Generate.Synchronize && dataChanged(or.Generate, nr.Generate) {
			c.explainDataNotPropagated(updated, nr)
		}
	}
	c.handleGenerate(updated, causePolicyUpdated)
}

// dataChanged reports whether a rule's data (or a foreach entry's) changed.
func dataChanged(old, updated *policy.Generation) bool {
	if old == nil || !hasDataPattern(updated) {
		return false
	}
	if !resource.Equal(old.Data, updated.Data) || len(old.ForEach) != len(updated.ForEach) {
		return true
	}
	for i := range updated.ForEach {
		if !resource.Equal(old.ForEach[i].Data, updated.ForEach[i].Data) {
			return true
		}
	}
	return false
}

// explainDataNotPropagated says, for each downstream of a rule with
// synchronize off, that the edit of the rule's data does not reach it:
// syncDataPolicyChanges only re-renders the downstreams of sync rules.
func (c *Family) explainDataNotPropagated(p *policy.Policy, rule *policy.Rule) {
	for _, d := range sortedRefs(c.ruleDownstreams(p, rule)) {
		r := d.Ref()
		c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, c.triggerRef(downstreamTrigger(d)),
			"not propagated: synchronize is false, so Kyverno does not re-render existing downstreams when the rule's data changes "+
				"(only new triggers get the new data)")
	}
}

// policyDeleted is deletePolicy.
func (c *Family) policyDeleted(p *policy.Policy) {
	c.policies.Delete(p.Key())
	for _, r := range p.Spec.Rules {
		if r.Generate != nil {
			c.enqueue(&updateRequest{kind: urCleanupRule, policy: p, rule: r.Name, cause: cause{kind: causePolicyDeleted}})
		}
	}
}

// BackgroundScan implements generate.Family: forceReconciliation, run every
// BACKGROUND_SCAN_INTERVAL.
func (c *Family) BackgroundScan() {
	for _, p := range c.policies.Sorted() {
		c.handleGenerate(p, causeBackgroundScan)
	}
}

// handleGenerate re-synchronizes data rules and runs generateExisting.
func (c *Family) handleGenerate(p *policy.Policy, event causeKind) {
	if !canBackgroundProcess(p) {
		c.emit(timeline.ActorKyverno, timeline.ActionNote, nil, p, "", nil,
			"background is false and the policy uses admission-only variables (request.userInfo, serviceAccountName, roles), "+
				"so Kyverno does no background processing for it: no generateExisting, no data re-sync, no periodic reconcile")
		return
	}
	for i := range p.Spec.Rules {
		rule := &p.Spec.Rules[i]
		g := rule.Generate
		if g == nil {
			continue
		}
		if g.Synchronize && hasDataPattern(g) {
			seen := map[string]bool{}
			for _, d := range c.ruleDownstreams(p, rule) {
				t := downstreamTrigger(d)
				if seen[t.UID] {
					continue
				}
				seen[t.UID] = true
				c.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: rule.Name, trigger: t, cause: cause{kind: event}})
			}
		}
		if p.GenerateExisting(rule) {
			for _, trig := range c.existingTriggers(p, rule) {
				c.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: rule.Name, trigger: triggerOf(trig),
					cause: cause{kind: causeGenerateExisting, policyEvent: event}})
			}
		} else if event == causeBackgroundScan {
			c.explainScanCreatesNothing(p, rule)
		}
	}
}

// explainScanCreatesNothing says, on a background scan, which triggers of
// a rule without generateExisting are left without their downstream:
// forceReconciliation creates missing downstreams only for rules with
// generateExisting (a data rule with synchronize re-syncs the downstreams
// that still exist, and cannot find the deleted ones).
func (c *Family) explainScanCreatesNothing(p *policy.Policy, rule *policy.Rule) {
	have := map[string]bool{}
	for _, d := range c.ruleDownstreams(p, rule) {
		have[downstreamTrigger(d).UID] = true
	}
	since := c.policyCreated(p)
	for _, trig := range c.existingTriggers(p, rule) {
		created, _ := trig.Nested("metadata", "creationTimestamp")
		if have[trig.UID()] || fmt.Sprint(created) < since {
			continue // it has its downstream, or was there before the policy and never had one
		}
		if status, _ := c.filterRule(p, rule, view{object: trig}); status != statusPass {
			continue // not a trigger of the rule: nothing to explain
		}
		tref := trig.Ref()
		c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &tref, p, rule.Name, &tref,
			"the background scan recreates nothing for this trigger: generateExisting is false, so the scan only re-syncs "+
				"downstreams that still exist (and only with synchronize on); a missing one comes back on the trigger's next update")
	}
}

// policyCreated is the live policy's creationTimestamp (RFC 3339, so it
// sorts as text), or "" when unknown.
func (c *Family) policyCreated(p *policy.Policy) string {
	live, err := c.store.View(p.Raw.Ref())
	if err != nil {
		return ""
	}
	t, _ := live.Nested("metadata", "creationTimestamp")
	if s, ok := t.(string); ok {
		return s
	}
	return ""
}

func hasDataPattern(g *policy.Generation) bool {
	if g.HasData {
		return true
	}
	for _, fe := range g.ForEach {
		if fe.HasData {
			return true
		}
	}
	return false
}

// existingTriggers lists the candidate triggers of a rule for
// generateExisting: per match filter and kind, by the filter's selector,
// then by name and namespace wildcards (resourceMatches). The full check
// runs when each request is processed.
func (c *Family) existingTriggers(p *policy.Policy, rule *policy.Rule) []resource.Object {
	var out []resource.Object
	seen := map[string]bool{}
	filters := append(append([]policy.Filter{}, rule.Match.Any...), rule.Match.All...)
	for _, f := range filters {
		for _, k := range f.Resources.Kinds {
			for _, info := range c.kindsMatching(k) {
				q := cluster.Query{APIVersion: resource.GVK{Group: info.Group, Version: info.Version}.APIVersion(), Kind: info.Kind}
				if p.Kind == policy.KindPolicy {
					q.Namespace = p.Namespace
				}
				if f.Resources.Selector != nil {
					sel := f.Resources.Selector
					q.Selector = func(l map[string]string) bool { return match.Selector(sel, l) }
				}
				patterns := int64(len(f.Resources.Name))
				for _, n := range append(f.Resources.Names, f.Resources.Namespaces...) {
					patterns += int64(len(n))
				}
				for _, obj := range c.store.List(q) {
					// Wildcards cost O(pattern x name) per candidate.
					if c.core.Budget().Charge(budget.Object+patterns*int64(len(obj.Name())+len(obj.Namespace())), "generateExisting's wildcard match") != nil {
						break // Reconcile reports the spent budget
					}
					if seen[obj.UID()] || !nameMatches(f.Resources, obj) {
						continue
					}
					seen[obj.UID()] = true
					out = append(out, obj)
				}
			}
		}
	}
	return sortedRefs(out)
}

// kindsMatching resolves a match kind ("Namespace", "v1/ConfigMap",
// "apps/v1/Deployment", "*/Pod", "Pod/exec") to registered kinds.
func (c *Family) kindsMatching(k string) []cluster.KindInfo {
	if strings.Contains(k, "/") {
		parts := strings.Split(k, "/")
		last := parts[len(parts)-1]
		if info, ok := c.store.KindInfo("", parts[0]); ok && len(parts) == 2 && info.Kind == parts[0] {
			return nil // Kind/subresource: subresources are not listed
		}
		apiVersion := strings.Join(parts[:len(parts)-1], "/")
		if strings.ContainsAny(apiVersion, "*?") {
			if info, ok := c.store.KindInfo("", last); ok {
				return []cluster.KindInfo{info}
			}
			return nil
		}
		if info, ok := c.store.KindInfo(apiVersion, last); ok {
			return []cluster.KindInfo{info}
		}
		if len(parts) == 2 { // version/Kind
			if info, ok := c.store.KindInfo("", last); ok && info.Version == parts[0] {
				return []cluster.KindInfo{info}
			}
		}
		return nil
	}
	if info, ok := c.store.KindInfo("", k); ok {
		return []cluster.KindInfo{info}
	}
	return nil
}

func nameMatches(rd policy.ResourceDescription, obj resource.Object) bool {
	if rd.Name != "" && !match.Wildcard(rd.Name, obj.Name()) {
		return false
	}
	if len(rd.Names) > 0 {
		ok := false
		for _, n := range rd.Names {
			ok = ok || match.Wildcard(n, obj.Name())
		}
		if !ok {
			return false
		}
	}
	if len(rd.Namespaces) > 0 {
		ns := obj.Namespace()
		if obj.Kind() == "Namespace" {
			ns = obj.Name()
		}
		ok := false
		for _, n := range rd.Namespaces {
			ok = ok || match.Wildcard(n, ns)
		}
		if !ok {
			return false
		}
	}
	return true
}

// userVariables are the variables only an admission request provides.
var userVariables = []string{"request.userInfo", "serviceAccountName", "serviceAccountNamespace", "request.roles", "request.clusterRoles"}

// canBackgroundProcess is Kyverno's check that a policy can run in the
// background: no admission-only variables and no userInfo filters.
func canBackgroundProcess(p *policy.Policy) bool {
	if p.Spec.Background {
		return true // validation already rejected user variables
	}
	spec, _ := json.Marshal(p.Raw["spec"])
	s := string(spec)
	for _, v := range userVariables {
		if strings.Contains(s, v) {
			return false
		}
	}
	for _, r := range p.Spec.Rules {
		for _, f := range append(append(append(append([]policy.Filter{}, r.Match.Any...), r.Match.All...), r.Exclude.Any...), r.Exclude.All...) {
			if len(f.Subjects)+len(f.Roles)+len(f.ClusterRoles) > 0 {
				return false
			}
		}
	}
	return true
}
