package gpol

import (
	"encoding/hex"
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/internal/digest"
	"github.com/genplay/genplay/engine/resource"
)

// The ValidatingWebhookConfiguration Kyverno's webhook controller writes
// for the generating policies (GENERATING-POLICY.md §3.1; K:pkg/controllers/webhook
// validating.go buildWebhookRules).
const (
	WebhookConfigurationName = "kyverno-resource-validating-webhook-cfg"
	webhookManagedByLabel    = "webhook.kyverno.io/managed-by"
	gpolWebhookName          = "gpol.validate.kyverno.svc"
	ngpolWebhookName         = "ngpol.validate.kyverno.svc"
)

// WebhookConfig is the part of Kyverno's install that shapes its webhooks.
type WebhookConfig struct {
	// NamespaceSelector and ObjectSelector are the `webhooks` selectors of
	// Kyverno's ConfigMap, merged into every webhook.
	NamespaceSelector, ObjectSelector *LabelSelector
	// TimeoutSeconds is the default webhook timeout.
	TimeoutSeconds int32
	// Service, ServiceNamespace and Port address Kyverno's admission service.
	Service, ServiceNamespace string
	Port                      int32
	// PortableMatchConditions reports whether every match condition of a
	// policy also compiles in the plain Kubernetes webhook CEL environment
	// (the compiler knows; this package does not import cel-go). Nil: none
	// does, so only matchPolicy Exact and a timeout make a fine-grained
	// webhook.
	PortableMatchConditions func(*Policy) bool
}

// DefaultWebhookConfig is a standard Helm install: kube-system and the
// kyverno namespace excluded, a 10s timeout, the kyverno-svc service.
func DefaultWebhookConfig() WebhookConfig {
	return WebhookConfig{
		NamespaceSelector: &LabelSelector{MatchExpressions: []Requirement{
			{Key: namespaceNameLabel, Operator: "NotIn", Values: []string{"kube-system"}},
			{Key: namespaceNameLabel, Operator: "NotIn", Values: []string{"kyverno"}},
		}},
		TimeoutSeconds:   10,
		Service:          "kyverno-svc",
		ServiceNamespace: "kyverno",
		Port:             443,
	}
}

// webhookOperations are registered for every generating policy, whatever
// its operations say, in the order the API server keeps them.
var webhookOperations = []any{OpConnect, OpCreate, OpDelete, OpUpdate}

// ValidatingWebhookConfiguration renders the configuration Kyverno writes
// for policies, as the API server stores it (defaults filled in:
// matchPolicy, scope, selectors, timeoutSeconds). Policies with
// admission disabled are left out. A policy whose match conditions are
// portable, whose matchPolicy is Exact or that sets a timeout gets a webhook
// of its own (fine-grained); the others share one webhook per pair of
// selectors (basic), whose path lists their names.
//
// Where this knowingly differs from Kyverno: the 8-hex suffix that tells
// several basic webhooks apart hashes the selectors' JSON, which may not be
// Kyverno's serialization; autogen's extra match conditions for policies on
// pods are not rendered; the basic webhook path of NamespacedGeneratingPolicies
// joins namespace/name (not verified against a cluster).
func ValidatingWebhookConfiguration(policies []*Policy, cfg WebhookConfig) resource.Object {
	var gpols, ngpols []*Policy
	for _, p := range policies {
		if p == nil || !p.Spec.Evaluation.AdmissionEnabled || p.Spec.MatchConstraints == nil {
			continue
		}
		if p.Namespaced() {
			ngpols = append(ngpols, p)
		} else {
			gpols = append(gpols, p)
		}
	}
	webhooks := []any{}
	webhooks = append(webhooks, buildWebhooks(gpolWebhookName, "/gpol", gpols, cfg)...)
	webhooks = append(webhooks, buildWebhooks(ngpolWebhookName, "/ngpol", ngpols, cfg)...)
	return resource.Object{
		"apiVersion": "admissionregistration.k8s.io/v1",
		"kind":       "ValidatingWebhookConfiguration",
		"metadata": map[string]any{
			"name":   WebhookConfigurationName,
			"labels": map[string]any{webhookManagedByLabel: "kyverno"},
		},
		"webhooks": webhooks,
	}
}

func buildWebhooks(name, queryPath string, policies []*Policy, cfg WebhookConfig) []any {
	policies = slices.Clone(policies)
	slices.SortFunc(policies, func(a, b *Policy) int { return strings.Compare(a.Key(), b.Key()) })
	var fine, basic []*Policy
	for _, p := range policies {
		mc := p.Spec.MatchConstraints
		switch {
		case len(p.Spec.MatchConditions) > 0 && cfg.PortableMatchConditions != nil && cfg.PortableMatchConditions(p),
			mc.MatchPolicy == MatchPolicyExact, p.Spec.WebhookTimeoutSeconds != nil:
			fine = append(fine, p)
		default:
			basic = append(basic, p)
		}
	}
	var out []any
	for _, p := range fine {
		mc := p.Spec.MatchConstraints
		wh := webhook(cfg)
		wh["name"] = name + "-ignore-finegrained-" + p.Name
		if p.Namespaced() {
			wh["name"] = name + "-ignore-finegrained-" + p.Namespace + "-" + p.Name
		}
		wh["clientConfig"] = clientConfig(cfg, path.Join(queryPath, p.Name))
		ns, obj := resolvedSelectors(p, cfg)
		wh["namespaceSelector"], wh["objectSelector"] = selectorJSON(ns), selectorJSON(obj)
		wh["rules"] = webhookRules([]*Policy{p})
		if mc.MatchPolicy == MatchPolicyExact {
			wh["matchPolicy"] = MatchPolicyExact
		}
		if t := p.Spec.WebhookTimeoutSeconds; t != nil {
			wh["timeoutSeconds"] = float64(*t)
		}
		if len(p.Spec.MatchConditions) > 0 && cfg.PortableMatchConditions != nil && cfg.PortableMatchConditions(p) {
			conds := make([]any, len(p.Spec.MatchConditions))
			for i, c := range p.Spec.MatchConditions {
				expr := c.Expression.Text
				if p.Spec.Evaluation.Synchronize {
					// restrictMatchConditionsToCreate: UPDATEs and DELETEs
					// must reach Kyverno for the clean-up.
					expr = "request.operation != 'CREATE' || (" + expr + ")"
				}
				conds[i] = map[string]any{"name": c.Name, "expression": expr}
			}
			wh["matchConditions"] = conds
		}
		out = append(out, wh)
	}
	// Basic policies, grouped by their resolved selectors.
	type group struct {
		ns, obj  *LabelSelector
		key      string
		policies []*Policy
	}
	var groups []*group
	for _, p := range basic {
		ns, obj := resolvedSelectors(p, cfg)
		key := selectorKey(ns, obj)
		i := slices.IndexFunc(groups, func(g *group) bool { return g.key == key })
		if i < 0 {
			groups = append(groups, &group{ns: ns, obj: obj, key: key})
			i = len(groups) - 1
		}
		groups[i].policies = append(groups[i].policies, p)
	}
	slices.SortFunc(groups, func(a, b *group) int { return strings.Compare(a.key, b.key) })
	for _, g := range groups {
		names := make([]string, len(g.policies))
		for i, p := range g.policies {
			names[i] = p.Name
			if p.Namespaced() {
				names[i] = p.Namespace + "/" + p.Name
			}
		}
		slices.Sort(names)
		wh := webhook(cfg)
		wh["name"] = name + "-ignore"
		if len(groups) > 1 {
			sum := digest.SHA256([]byte(g.key))
			wh["name"] = name + "-ignore-" + hex.EncodeToString(sum[:])[:8]
		}
		wh["clientConfig"] = clientConfig(cfg, path.Join(append([]string{queryPath}, names...)...))
		wh["namespaceSelector"], wh["objectSelector"] = selectorJSON(g.ns), selectorJSON(g.obj)
		wh["rules"] = webhookRules(g.policies)
		out = append(out, wh)
	}
	return out
}

// webhook is a webhook with the fields every generating policy's shares.
func webhook(cfg WebhookConfig) map[string]any {
	return map[string]any{
		"admissionReviewVersions": []any{"v1"},
		"failurePolicy":           "Ignore",
		"matchPolicy":             MatchPolicyEquivalent,
		"sideEffects":             "NoneOnDryRun",
		"timeoutSeconds":          float64(cfg.TimeoutSeconds),
	}
}

func clientConfig(cfg WebhookConfig, p string) map[string]any {
	return map[string]any{"service": map[string]any{
		"name": cfg.Service, "namespace": cfg.ServiceNamespace, "path": p, "port": float64(cfg.Port),
	}}
}

// resolvedSelectors merges the policy's selectors with the configuration's;
// a NamespacedGeneratingPolicy's namespaceSelector is replaced by its own
// namespace (resolveNamespaceSelector).
func resolvedSelectors(p *Policy, cfg WebhookConfig) (ns, obj *LabelSelector) {
	own := p.Spec.MatchConstraints.NamespaceSelector
	if p.Namespaced() {
		own = &LabelSelector{MatchExpressions: []Requirement{{Key: namespaceNameLabel, Operator: "In", Values: []string{p.Namespace}}}}
	}
	return mergeSelectors(own, cfg.NamespaceSelector), mergeSelectors(p.Spec.MatchConstraints.ObjectSelector, cfg.ObjectSelector)
}

// mergeSelectors is Kyverno's mergeLabelSelectors: a alone, b alone, or the
// union of their labels (b's win) and a's expressions followed by b's.
func mergeSelectors(a, b *LabelSelector) *LabelSelector {
	if a == nil {
		return b
	}
	if b == nil {
		return a
	}
	out := &LabelSelector{MatchLabels: map[string]string{}}
	for k, v := range a.MatchLabels {
		out.MatchLabels[k] = v
	}
	for k, v := range b.MatchLabels {
		out.MatchLabels[k] = v
	}
	out.MatchExpressions = append(slices.Clone(a.MatchExpressions), b.MatchExpressions...)
	return out
}

// selectorJSON renders a selector as the API server stores it: {} for none.
func selectorJSON(s *LabelSelector) map[string]any {
	out := map[string]any{}
	if s == nil {
		return out
	}
	if len(s.MatchLabels) > 0 {
		ml := map[string]any{}
		for k, v := range s.MatchLabels {
			ml[k] = v
		}
		out["matchLabels"] = ml
	}
	if len(s.MatchExpressions) > 0 {
		exprs := make([]any, len(s.MatchExpressions))
		for i, r := range s.MatchExpressions {
			e := map[string]any{"key": r.Key, "operator": r.Operator}
			if len(r.Values) > 0 {
				e["values"] = stringsJSON(r.Values)
			}
			exprs[i] = e
		}
		out["matchExpressions"] = exprs
	}
	return out
}

// selectorKey identifies a pair of selectors for grouping (stable: JSON
// marshals maps with sorted keys).
func selectorKey(ns, obj *LabelSelector) string {
	b, _ := json.Marshal([]any{selectorJSON(ns), selectorJSON(obj)})
	return string(b)
}

// webhookRules is one rule per resourceRules entry of the policies, with
// the four operations, de-duplicated.
func webhookRules(policies []*Policy) []any {
	var out []any
	seen := map[string]bool{}
	for _, p := range policies {
		for _, r := range p.Spec.MatchConstraints.ResourceRules {
			scope := r.Scope
			if scope == "" {
				scope = "*"
			}
			rule := map[string]any{
				"apiGroups":   stringsJSON(r.APIGroups),
				"apiVersions": stringsJSON(r.APIVersions),
				"operations":  slices.Clone(webhookOperations),
				"resources":   stringsJSON(r.Resources),
				"scope":       scope,
			}
			key, _ := json.Marshal(rule)
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			out = append(out, rule)
		}
	}
	return out
}

func stringsJSON(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
