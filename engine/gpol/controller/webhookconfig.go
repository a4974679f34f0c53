package controller

import (
	"encoding/hex"
	"encoding/json"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/internal/digest"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// webhookConfigName is the ValidatingWebhookConfiguration Kyverno renders
// GeneratingPolicies into.
const webhookConfigName = "kyverno-resource-validating-webhook-cfg"

// kyvernoLibraries are identifiers of Kyverno's CEL libraries: a match
// condition that uses one does not compile in the Kubernetes webhook CEL
// environment, so its policy gets no fine-grained webhook.
var kyvernoLibraries = []string{"image(", "parseImageReference", "isImage", "resource.", "globalContext", "http.", "generator.",
	"variables.", "exceptions.", "namespaceObject", "json.", "yaml.", "random(", "x509.", "time.", "hash.", "sha256(", "sha1(", "md5(",
	"listObjToMap", "gzip.", "transform.", "math.round"}

// renderWebhooks rewrites the webhook configuration from the admitted
// policies (K:pkg/controllers/webhook/validating.go buildWebhookRules).
func (f *Family) renderWebhooks() {
	type group struct {
		nsSel, objSel map[string]any
		names         []string
		rules         []any
		namespaced    bool
	}
	var webhooks []any
	groups := map[string]*group{}
	var order []string
	for _, e := range f.policies.Sorted() {
		p := e.p
		if !p.Spec.Evaluation.AdmissionEnabled || p.Spec.MatchConstraints == nil {
			continue
		}
		nsSel := namespaceSelector(p)
		objSel := selectorJSON(p.Spec.MatchConstraints.ObjectSelector)
		if objSel == nil {
			objSel = map[string]any{}
		}
		rules := webhookRules(p)
		prefix, path := "gpol", "/gpol/"
		if p.Namespaced() {
			prefix, path = "ngpol", "/ngpol/"
		}
		if fineGrained(p) {
			name := prefix + ".validate.kyverno.svc-ignore-finegrained-" + p.Name
			if p.Namespaced() {
				name = prefix + ".validate.kyverno.svc-ignore-finegrained-" + p.Namespace + "-" + p.Name
			}
			wh := webhook(name, path+p.Name, nsSel, objSel, rules)
			if len(p.Spec.MatchConditions) > 0 {
				var mcs []any
				for _, m := range p.Spec.MatchConditions {
					expr := m.Expression.Text
					if p.Spec.Evaluation.Synchronize {
						expr = "request.operation != 'CREATE' || (" + expr + ")"
					}
					mcs = append(mcs, map[string]any{"name": m.Name, "expression": expr})
				}
				wh["matchConditions"] = mcs
			}
			if p.Spec.MatchConstraints.MatchPolicy == gpol.MatchPolicyExact {
				wh["matchPolicy"] = gpol.MatchPolicyExact
			}
			if t := p.Spec.WebhookTimeoutSeconds; t != nil {
				wh["timeoutSeconds"] = float64(*t)
			}
			webhooks = append(webhooks, wh)
			continue
		}
		key := webhookGroup(p)
		g := groups[key]
		if g == nil {
			g = &group{nsSel: nsSel, objSel: objSel, namespaced: p.Namespaced()}
			groups[key] = g
			order = append(order, key)
		}
		g.names = append(g.names, p.Name)
		g.rules = append(g.rules, rules...)
	}
	for _, key := range order {
		g := groups[key]
		prefix := "gpol"
		if g.namespaced {
			prefix = "ngpol"
		}
		name := prefix + ".validate.kyverno.svc-ignore"
		if len(groups) > 1 {
			sum := digest.SHA256([]byte(canonical(g.nsSel) + canonical(g.objSel)))
			name += "-" + hex.EncodeToString(sum[:])[:8]
		}
		sort.Strings(g.names)
		webhooks = append(webhooks, webhook(name, "/"+prefix+"/"+strings.Join(g.names, "/"), g.nsSel, g.objSel, dedupe(g.rules)))
	}
	sort.SliceStable(webhooks, func(i, j int) bool {
		return webhooks[i].(map[string]any)["name"].(string) < webhooks[j].(map[string]any)["name"].(string)
	})
	ref := resource.Ref{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: webhookConfigName}
	user := admission.UserInfo{Username: admission.AdmissionControllerUser}
	live, err := f.store.View(ref)
	if len(webhooks) == 0 {
		if err == nil && f.core.Delete(user, ref) == nil {
			f.emit(timeline.ActionDeleted, &ref, nil, "", nil,
				"no GeneratingPolicy or NamespacedGeneratingPolicy needs Kyverno's admission webhook any more, so Kyverno removed its configuration")
		}
		return
	}
	obj := resource.Object{"apiVersion": ref.APIVersion, "kind": ref.Kind,
		"metadata": map[string]any{"name": ref.Name, "labels": map[string]any{"webhook.kyverno.io/managed-by": "kyverno"}},
		"webhooks": webhooks}
	if err == nil {
		if resource.Equal(live["webhooks"], obj["webhooks"]) {
			return
		}
		obj.Metadata()["resourceVersion"] = live.ResourceVersion()
		if _, err := f.core.Update(user, obj); err == nil {
			f.emit(timeline.ActionUpdated, &ref, nil, "", nil,
				"Kyverno rewrote its admission webhook's rules to follow the GeneratingPolicies as they are now: "+
					"the API server sends Kyverno the requests they match")
		}
		return
	}
	if _, err := f.core.Create(user, obj); err == nil {
		f.emit(timeline.ActionCreated, &ref, nil, "", nil,
			"Kyverno registered its admission webhook for the GeneratingPolicies: from now on the API server sends Kyverno the requests they match")
	}
}

func webhook(name, path string, nsSel, objSel map[string]any, rules []any) map[string]any {
	return map[string]any{
		"admissionReviewVersions": []any{"v1"},
		"clientConfig":            map[string]any{"service": map[string]any{"name": "kyverno-svc", "namespace": "kyverno", "path": path, "port": float64(443)}},
		"failurePolicy":           "Ignore",
		"matchPolicy":             gpol.MatchPolicyEquivalent,
		"name":                    name,
		"namespaceSelector":       nsSel,
		"objectSelector":          objSel,
		"rules":                   rules,
		"sideEffects":             "NoneOnDryRun",
		"timeoutSeconds":          float64(10),
	}
}

// fineGrained reports whether the policy gets a webhook of its own.
func fineGrained(p *gpol.Policy) bool {
	if p.Spec.WebhookTimeoutSeconds != nil || p.Spec.MatchConstraints.MatchPolicy == gpol.MatchPolicyExact {
		return true
	}
	if len(p.Spec.MatchConditions) == 0 {
		return false
	}
	for _, m := range p.Spec.MatchConditions {
		for _, lib := range kyvernoLibraries {
			if strings.Contains(m.Expression.Text, lib) {
				return false
			}
		}
	}
	return true
}

// webhookRules are the policy's resourceRules with every operation.
func webhookRules(p *gpol.Policy) []any {
	var out []any
	for _, r := range p.Spec.MatchConstraints.ResourceRules {
		scope := r.Scope
		if scope == "" {
			scope = "*"
		}
		out = append(out, map[string]any{
			"apiGroups": strs(r.APIGroups), "apiVersions": strs(r.APIVersions), "resources": strs(r.Resources),
			"operations": []any{"CONNECT", "CREATE", "DELETE", "UPDATE"}, "scope": scope,
		})
	}
	return out
}

// namespaceSelector is the policy's namespaceSelector merged with the
// install's (kube-system and kyverno left out); a NamespacedGeneratingPolicy
// is pinned to its namespace.
func namespaceSelector(p *gpol.Policy) map[string]any {
	sel := map[string]any{}
	var exprs []any
	if p.Namespaced() {
		exprs = append(exprs, requirement("kubernetes.io/metadata.name", "In", p.Namespace))
	} else if s := selectorJSON(p.Spec.MatchConstraints.NamespaceSelector); s != nil {
		if ml, ok := s["matchLabels"]; ok {
			sel["matchLabels"] = ml
		}
		if me, ok := s["matchExpressions"].([]any); ok {
			exprs = append(exprs, me...)
		}
	}
	for _, ns := range excludedNamespaces {
		exprs = append(exprs, requirement("kubernetes.io/metadata.name", "NotIn", ns))
	}
	sel["matchExpressions"] = exprs
	return sel
}

func requirement(key, op string, values ...string) map[string]any {
	return map[string]any{"key": key, "operator": op, "values": strs(values)}
}

func selectorJSON(s *gpol.LabelSelector) map[string]any {
	if s == nil {
		return nil
	}
	out := map[string]any{}
	if len(s.MatchLabels) > 0 {
		ml := map[string]any{}
		for k, v := range s.MatchLabels {
			ml[k] = v
		}
		out["matchLabels"] = ml
	}
	if len(s.MatchExpressions) > 0 {
		var me []any
		for _, r := range s.MatchExpressions {
			m := map[string]any{"key": r.Key, "operator": r.Operator}
			if len(r.Values) > 0 {
				m["values"] = strs(r.Values)
			}
			me = append(me, m)
		}
		out["matchExpressions"] = me
	}
	return out
}

func strs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// canonical renders a JSON value with sorted keys, for grouping.
func canonical(v any) string {
	b, _ := json.Marshal(v) // encoding/json sorts map keys
	return string(b)
}

func dedupe(rules []any) []any {
	seen := map[string]bool{}
	var out []any
	for _, r := range rules {
		k := canonical(r)
		if !seen[k] {
			seen[k] = true
			out = append(out, r)
		}
	}
	return out
}
