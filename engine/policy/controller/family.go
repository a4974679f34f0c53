package controller

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/rbac"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// Family is the ClusterPolicy/Policy family of one simulated cluster.
type Family struct {
	core     *generate.Controller
	store    *cluster.Store
	eval     *variables.Evaluator
	cfg      generate.FamilyConfig
	policies generate.PolicySet[*policy.Policy]
	// admitted is the policy AdmitPolicy parsed last, handed to
	// PolicyWritten so that each version is parsed once.
	admitted *policy.Policy
}

// New creates the ClusterPolicy/Policy family over core.
func New(core *generate.Controller, cfg generate.FamilyConfig) generate.Family {
	if cfg.Kyverno == "" {
		cfg.Kyverno = upstream.Latest
	}
	return &Family{core: core, store: core.Store(), eval: core.Evaluator(), cfg: cfg}
}

// Name implements generate.Family.
func (c *Family) Name() string { return "ClusterPolicy" }

// Owns implements generate.Family: ClusterPolicy and Policy objects.
func (c *Family) Owns(obj resource.Object) bool { return policy.IsPolicy(obj) }

// Override implements generate.Family: synchronize and
// orphanDownstreamOnPolicyDelete on every generate rule.
func (c *Family) Override(obj resource.Object, o generate.Override) {
	rules, _ := obj.Nested("spec", "rules")
	list, _ := rules.([]any)
	for _, r := range list {
		rm, _ := r.(map[string]any)
		g, ok := rm["generate"].(map[string]any)
		if !ok {
			continue
		}
		if o.Synchronize != nil {
			g["synchronize"] = *o.Synchronize
		}
		if o.OrphanDownstreamOnPolicyDelete != nil {
			g["orphanDownstreamOnPolicyDelete"] = *o.OrphanDownstreamOnPolicyDelete
		}
	}
}

// policyKeyOf is policy.Policy.Key for a stored object.
func policyKeyOf(obj resource.Object) string {
	if obj.Kind() == policy.KindPolicy {
		return policy.KindPolicy + "/" + obj.Namespace() + "/" + obj.Name()
	}
	return policy.KindClusterPolicy + "/" + obj.Name()
}

// AdmitPolicy implements generate.Family: the API server's strict field
// validation, then Kyverno's policy validation webhook, with the
// permission check of its background controller (package rbac).
func (c *Family) AdmitPolicy(obj, old resource.Object, doc *source.Document) generate.PolicyAdmission {
	c.admitted = nil
	var prev *policy.Policy
	if old != nil {
		prev = c.policies.Get(policyKeyOf(old))
	}
	p, diags := policy.Parse(doc, obj)
	var changes []string
	if !diags.HasErrors() {
		valid, refusedBy := policy.ValidateAt(p, c.store, c.cfg.Kyverno)
		diags, changes = append(diags, valid...), refusedBy
		if !diags.HasErrors() {
			diags = append(diags, rbac.CheckGenerate(c.store, rbac.Profile(c.cfg.Permissions), p)...)
		}
		if prev != nil {
			diags = append(diags, policy.ValidateUpdate(prev, p)...)
		}
	}
	var warnings, errs []string
	for _, d := range diags {
		if d.Severity == source.SeverityWarning {
			warnings = append(warnings, d.Message)
		} else {
			errs = append(errs, d.Message)
		}
	}
	strict := len(errs) > 0 && strings.HasPrefix(errs[0], "strict decoding error")
	deprecation, decidedBy := c.deprecationWarnings(obj, strict)
	warnings = append(warnings, deprecation...)
	adm := generate.PolicyAdmission{Warnings: warnings, Diagnostics: diags, Changes: changes, WarningChanges: decidedBy}
	switch {
	case strict:
		// Unknown fields never reach Kyverno: the API server's strict
		// field validation refuses the object first.
		_, version := resource.SplitAPIVersion(obj.APIVersion())
		adm.Err = fmt.Errorf("%s in version %q cannot be handled as a %s: %s", obj.Kind(), version, obj.Kind(), strings.Join(errs, "; "))
	case len(errs) > 0:
		adm.Err = fmt.Errorf("admission webhook \"validate-policy.kyverno.svc\" denied the request: %s", strings.Join(errs, "; "))
	default:
		c.admitted = p
	}
	return adm
}

// deprecateLegacy: Kyverno v1.19.0's policy webhook warns on every create
// and update of a legacy kind, admitted or denied; v1.18.2 says nothing.
var deprecateLegacy = upstream.Register(upstream.Change{
	ID: "kyverno#16868", Since: upstream.V1_19_0, Family: upstream.FamilyLegacy,
	Title:  "ClusterPolicy and Policy are deprecated",
	Before: "admit ClusterPolicies and Policies without a word",
	After:  "answer every create and update of one with a deprecation warning that names its replacements",
	Files:  []string{"pkg/webhooks/policy/handlers.go"},
})

// versionedWarnings: Kyverno v1.19.1's deprecation warning names the API
// version, as the CRDs' own deprecation warning (the same text, so the API
// server sends it once); its validationFailureAction warning names the
// field. v1.19.0 wrote "ClusterPolicy (kyverno.io) is deprecated ...".
var versionedWarnings = upstream.Register(upstream.Change{
	ID: "kyverno#17362", Since: upstream.V1_19_1, Family: upstream.FamilyLegacy,
	Title:  "deprecation warnings name the API version and the field",
	Before: "warn \"ClusterPolicy (kyverno.io) is deprecated ...\" and \"Validation failure actions enforce/audit are deprecated ...\"",
	After:  "warn \"kyverno.io/v1 ClusterPolicy is deprecated ...\", also from the API server for the CRD's deprecated versions, and prefix the validationFailureAction warning with its field",
	Files:  []string{"pkg/deprecations/deprecations.go", "pkg/webhooks/policy/handlers.go", "pkg/validation/policy/validate.go", "config/crds/kyverno/kyverno.io_clusterpolicies.yaml"},
})

// deprecationWarnings are the warnings a write of a legacy policy gets, in
// the order kubectl prints them: the validationFailureAction ones of
// Kyverno's validation, then the kind's deprecation. An object the API
// server refuses (strict) never reaches Kyverno; from v1.19.1 the CRD's
// own deprecation warning still comes.
func (c *Family) deprecationWarnings(obj resource.Object, strict bool) (warnings, changes []string) {
	v := c.cfg.Kyverno
	group, version := resource.SplitAPIVersion(obj.APIVersion())
	kind := obj.Kind()
	replacement := "ValidatingPolicy, MutatingPolicy, GeneratingPolicy or ImageValidatingPolicy"
	const guide = "https://kyverno.io/docs/guides/migration-to-cel/"
	var out []string
	if versionedWarnings.In(v) {
		if kind == policy.KindPolicy {
			replacement = "NamespacedValidatingPolicy and the other namespaced policy types"
		}
		kindWarning := fmt.Sprintf("%s/%s %s is deprecated and will be removed in a future release; migrate to %s (policies.kyverno.io), see %s",
			group, version, kind, replacement, guide)
		changes = []string{deprecateLegacy.ID, versionedWarnings.ID}
		if strict {
			return []string{kindWarning}, changes
		}
		spec, _ := obj["spec"].(map[string]any)
		if failureAction(spec["validationFailureAction"]) {
			out = append(out, "spec.validationFailureAction: Validation failure actions enforce/audit are deprecated, use Enforce/Audit instead.")
		}
		overrides, _ := spec["validationFailureActionOverrides"].([]any)
		for i, o := range overrides {
			if m, ok := o.(map[string]any); ok && failureAction(m["action"]) {
				out = append(out, fmt.Sprintf("spec.validationFailureActionOverrides[%d].action: Validation failure actions enforce/audit are deprecated, use Enforce/Audit instead.", i))
			}
		}
		return append(out, kindWarning), changes
	}
	if strict {
		return nil, nil
	}
	spec, _ := obj["spec"].(map[string]any)
	deprecated := failureAction(spec["validationFailureAction"])
	overrides, _ := spec["validationFailureActionOverrides"].([]any)
	for _, o := range overrides {
		if m, ok := o.(map[string]any); ok && failureAction(m["action"]) {
			deprecated = true
		}
	}
	if deprecated {
		out = append(out, "Validation failure actions enforce/audit are deprecated, use Enforce/Audit instead.")
	}
	if deprecated {
		changes = append(changes, versionedWarnings.ID)
	}
	if !deprecateLegacy.In(v) {
		return out, changes
	}
	if kind == policy.KindPolicy {
		replacement = "NamespacedValidatingPolicy, NamespacedMutatingPolicy, NamespacedGeneratingPolicy or NamespacedImageValidatingPolicy"
	}
	return append(out, kind+" (kyverno.io) is deprecated and will be removed in a future release; migrate to "+replacement+
		" (policies.kyverno.io), see "+guide), append(changes, deprecateLegacy.ID, versionedWarnings.ID)
}

// failureAction reports whether a validationFailureAction is one of the
// lowercase values Kyverno deprecates.
func failureAction(v any) bool { return v == "enforce" || v == "audit" }

// Status implements generate.Family: the Ready condition Kyverno's policy
// controller reports.
func (c *Family) Status(obj resource.Object) map[string]any {
	return map[string]any{
		"conditions": []any{map[string]any{
			"lastTransitionTime": c.core.Clock().Stamp(),
			"message":            "Ready", "reason": "Succeeded", "status": "True", "type": "Ready",
		}},
	}
}

// PolicyWritten implements generate.Family: the policy controller's
// addPolicy or updatePolicy.
func (c *Family) PolicyWritten(old, obj resource.Object) {
	p := c.admitted
	c.admitted = nil
	if p == nil || p.Key() != policyKeyOf(obj) {
		return
	}
	if prev := c.policies.Get(p.Key()); prev != nil {
		c.policyUpdated(prev, p)
	} else {
		c.policyAdded(p)
	}
}

// PolicyDeleted implements generate.Family: the policy controller's
// deletePolicy.
func (c *Family) PolicyDeleted(obj resource.Object) {
	if p := c.policies.Get(policyKeyOf(obj)); p != nil {
		c.policyDeleted(p)
	}
}

// RulePos implements generate.Family: a failed rule's generate block.
func (c *Family) RulePos(policyKey, rule string) (source.Pos, bool) {
	p := c.policies.Get(policyKey)
	if p == nil || p.Source == nil {
		return source.Pos{}, false
	}
	pos := p.Source.Pos("spec", "rules")
	for i, r := range p.Spec.Rules {
		if r.Name == rule {
			pos = p.Source.Pos("spec", "rules", i, "generate")
		}
	}
	return pos, true
}

// Observe implements generate.Family: this family reacts to admission
// requests (Admit), never to watch events.
func (c *Family) Observe(generate.WatchEvent) {}

// Restart implements generate.Family: this family keeps nothing in memory
// that a restart loses; Kyverno rebuilds it from labels.
func (c *Family) Restart() {}

// emit records one event.
func (c *Family) emit(actor, action string, obj *resource.Ref, p *policy.Policy, rule string, trig *resource.Ref, reason string) {
	c.emitChange(nil, actor, action, obj, p, rule, trig, reason)
}

// emitChange records one event that a change between releases decided
// (ch; nil when every release does the same).
func (c *Family) emitChange(ch *upstream.Change, actor, action string, obj *resource.Ref, p *policy.Policy, rule string, trig *resource.Ref, reason string) {
	e := timeline.Event{Actor: actor, Action: action, Object: obj, Rule: rule, Trigger: trig, Reason: reason}
	if p != nil {
		e.Policy = p.Key()
	}
	if ch != nil {
		e.VersionChanges = []string{ch.ID}
	}
	c.core.Emit(e)
}

// policyByLabels finds the policy a downstream's labels name.
func (c *Family) policyByLabels(l map[string]string) *policy.Policy {
	if ns := l[generate.LabelPolicyNamespace]; ns != "" {
		return c.policies.Get(policy.KindPolicy + "/" + ns + "/" + l[generate.LabelPolicyName])
	}
	return c.policies.Get(policy.KindClusterPolicy + "/" + l[generate.LabelPolicyName])
}

// enqueue queues an UpdateRequest on the core.
func (c *Family) enqueue(ur *updateRequest) {
	ur.f = c
	c.core.Enqueue(ur)
}

// nsLabels returns the labels of obj's Namespace, or nil.
func (c *Family) nsLabels(obj resource.Object) map[string]string {
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
func (c *Family) findByUID(t trigger) resource.Object {
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
func (c *Family) resolveKind(s string) (apiVersion, kind string, ok bool) {
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

// kyverno is the user of the writes Kyverno's background controller makes.
var kyverno = admission.UserInfo{Username: admission.BackgroundUser}

func isNotFound(err error) bool { return errors.Is(err, cluster.ErrNotFound) }

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
