package gpol

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Served versions (Kyverno 1.19's CRDs).
var (
	policyVersions     = []string{"v1", "v1beta1", "v1alpha1"}
	namespacedVersions = []string{"v1", "v1beta1"}
	exceptionVersions  = []string{"v1", "v1beta1", "v1alpha1"}
)

// IsPolicy reports whether obj is a GeneratingPolicy or
// NamespacedGeneratingPolicy of a served version.
func IsPolicy(obj resource.Object) bool {
	g := obj.GVK()
	if g.Group != Group {
		return false
	}
	switch g.Kind {
	case KindGeneratingPolicy:
		return slices.Contains(policyVersions, g.Version)
	case KindNamespacedGeneratingPolicy:
		return slices.Contains(namespacedVersions, g.Version)
	}
	return false
}

// IsPolicyKind reports whether obj claims to be a GeneratingPolicy or
// NamespacedGeneratingPolicy, of any version (served or not): Parse answers
// an unserved version with the API server's error.
func IsPolicyKind(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == Group && (g.Kind == KindGeneratingPolicy || g.Kind == KindNamespacedGeneratingPolicy)
}

// IsExceptionKind reports whether obj claims to be a policies.kyverno.io
// PolicyException, of any version: ParseException answers an unserved
// version with the API server's error.
func IsExceptionKind(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == Group && g.Kind == KindPolicyException
}

// IsException reports whether obj is a policies.kyverno.io PolicyException
// of a served version.
func IsException(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == Group && g.Kind == KindPolicyException && slices.Contains(exceptionVersions, g.Version)
}

// Parse reads a GeneratingPolicy or NamespacedGeneratingPolicy. obj is the
// document's object, possibly after templating; doc gives positions and may
// be nil (obj is then required). The policy is returned whenever obj is one
// of a served version, even with errors, so callers can show as much as
// possible; it must not be used when the diagnostics hold errors.
//
// A NamespacedGeneratingPolicy without metadata.namespace gets none: the
// caller defaults it, as kubectl does from its context.
func Parse(doc *source.Document, obj resource.Object) (*Policy, source.Diagnostics) {
	d := newDiags(doc)
	if obj == nil && doc != nil {
		obj, _ = doc.Object()
	}
	if obj == nil || !IsPolicyKind(obj) {
		d.Errorf(nil, "not a %s GeneratingPolicy or NamespacedGeneratingPolicy: apiVersion %q, kind %q", Group, obj.APIVersion(), obj.Kind())
		return nil, d.Result()
	}
	if !IsPolicy(obj) {
		d.Errorf(schema.Path{"apiVersion"}, "no matches for kind %q in version %q", obj.Kind(), obj.APIVersion())
		return nil, d.Result()
	}
	policySchema.Check(d, obj, nil)
	p := &Policy{
		APIVersion: obj.APIVersion(),
		Kind:       obj.Kind(),
		Name:       obj.Name(),
		Raw:        obj,
		Source:     doc,
		File:       d.File,
	}
	if p.Name == "" {
		d.Errorf(schema.Path{"metadata"}, "metadata.name: Required value: name or generateName is required")
	}
	if p.Namespaced() {
		p.Namespace = obj.Namespace()
	}
	p.Spec = parseSpec(d, mapOf(obj, "spec"))
	return p, d.Result()
}

func parseSpec(d *diags, spec map[string]any) Spec {
	sp := schema.Path{"spec"}
	s := Spec{UseServerSideApply: boolOr(spec, "useServerSideApply", false)}
	if mc, ok := spec["matchConstraints"].(map[string]any); ok {
		s.MatchConstraints = parseMatchResources(mc)
	}
	s.MatchConditions = d.namedExpressions(spec, sp.Key("matchConditions"))
	s.Variables = d.namedExpressions(spec, sp.Key("variables"))
	for i, g := range list(spec, "generate") {
		gm := asMap(g)
		gp := sp.Key("generate").Index(i)
		var gen Generation
		if e, ok := gm["expression"].(string); ok {
			x := d.expression(e, gp.Key("expression"))
			gen.Expression = &x
		}
		if t, ok := gm["template"].(map[string]any); ok {
			gen.Template = &Template{
				Value:       d.expression(stringOr(t, "value", ""), gp.Key("template", "value")),
				Interpolate: stringOr(t, "interpolate", InterpolateNone),
			}
		}
		s.Generate = append(s.Generate, gen)
	}
	ev := mapOf(spec, "evaluation")
	s.Evaluation = Evaluation{
		AdmissionEnabled:               boolOr(mapOf(ev, "admission"), "enabled", true),
		GenerateExisting:               boolOr(mapOf(ev, "generateExisting"), "enabled", false),
		Synchronize:                    boolOr(mapOf(ev, "synchronize"), "enabled", false),
		OrphanDownstreamOnPolicyDelete: boolOr(mapOf(ev, "orphanDownstreamOnPolicyDelete"), "enabled", false),
		SkipBackgroundRequests:         boolOr(ev, "skipBackgroundRequests", true),
	}
	if t, ok := mapOf(spec, "webhookConfiguration")["timeoutSeconds"].(float64); ok && schema.JSONType(t) == "integer" {
		v := int32(max(min(t, 1<<31-1), -1<<31))
		s.WebhookTimeoutSeconds = &v
	}
	for i, a := range list(spec, "auditAnnotations") {
		am := asMap(a)
		s.AuditAnnotations = append(s.AuditAnnotations, AuditAnnotation{
			Key:             stringOr(am, "key", ""),
			ValueExpression: d.expression(stringOr(am, "valueExpression", ""), sp.Key("auditAnnotations").Index(i).Key("valueExpression")),
		})
	}
	return s
}

func parseMatchResources(m map[string]any) *MatchResources {
	mr := &MatchResources{
		ResourceRules:        parseRules(list(m, "resourceRules")),
		ExcludeResourceRules: parseRules(list(m, "excludeResourceRules")),
		NamespaceSelector:    labels.Parse(m["namespaceSelector"]),
		ObjectSelector:       labels.Parse(m["objectSelector"]),
		MatchPolicy:          stringOr(m, "matchPolicy", MatchPolicyEquivalent),
	}
	return mr
}

func parseRules(l []any) []ResourceRule {
	var out []ResourceRule
	for _, r := range l {
		rm := asMap(r)
		out = append(out, ResourceRule{
			APIGroups:     stringList(rm, "apiGroups"),
			APIVersions:   stringList(rm, "apiVersions"),
			Resources:     stringList(rm, "resources"),
			Operations:    stringList(rm, "operations"),
			ResourceNames: stringList(rm, "resourceNames"),
			Scope:         stringOr(rm, "scope", "*"),
		})
	}
	return out
}

// namedExpressions reads a list of {name, expression} at path.
func (d *diags) namedExpressions(m map[string]any, path schema.Path) []NamedExpression {
	var out []NamedExpression
	for i, e := range list(m, path[len(path)-1].(string)) {
		em := asMap(e)
		out = append(out, NamedExpression{
			Name:       stringOr(em, "name", ""),
			Expression: d.expression(stringOr(em, "expression", ""), path.Index(i).Key("expression")),
		})
	}
	return out
}

// expression records the text of the field at path with its position.
func (d *diags) expression(text string, path schema.Path) Expression {
	e := Expression{Text: text, Path: path.String(), Pos: d.Pos(path)}
	if d.Doc != nil {
		if s := d.Doc.Scalar(path...); s != nil && s.Value() == text {
			e.scalar = s
			e.Pos = s.Pos()
		}
	}
	return e
}

// ParseException reads a policies.kyverno.io PolicyException, as Parse
// reads a policy.
func ParseException(doc *source.Document, obj resource.Object) (*Exception, source.Diagnostics) {
	d := newDiags(doc)
	if obj == nil && doc != nil {
		obj, _ = doc.Object()
	}
	if obj == nil || !IsExceptionKind(obj) {
		d.Errorf(nil, "not a %s PolicyException: apiVersion %q, kind %q", Group, obj.APIVersion(), obj.Kind())
		return nil, d.Result()
	}
	if !IsException(obj) {
		d.Errorf(schema.Path{"apiVersion"}, "no matches for kind %q in version %q", obj.Kind(), obj.APIVersion())
		return nil, d.Result()
	}
	exceptionSchema.Check(d, obj, nil)
	spec := mapOf(obj, "spec")
	e := &Exception{
		APIVersion:     obj.APIVersion(),
		Name:           obj.Name(),
		Namespace:      obj.Namespace(),
		Images:         stringList(spec, "images"),
		AllowedValues:  stringList(spec, "allowedValues"),
		ReportResult:   stringOr(spec, "reportResult", "skip"),
		ExpiresAt:      stringOr(spec, "expiresAt", ""),
		Properties:     stringMapOf(spec, "properties"),
		EvaluationMode: stringOr(spec, "evaluationMode", ""),
		Raw:            obj,
		Source:         doc,
		File:           d.File,
	}
	if e.Name == "" {
		d.Errorf(schema.Path{"metadata"}, "metadata.name: Required value: name or generateName is required")
	}
	for _, r := range list(spec, "policyRefs") {
		rm := asMap(r)
		e.PolicyRefs = append(e.PolicyRefs, PolicyRef{Name: stringOr(rm, "name", ""), Kind: stringOr(rm, "kind", "")})
	}
	e.MatchConditions = d.namedExpressions(spec, schema.Path{"spec", "matchConditions"})
	if v, ok := obj.Label(PriorityLabel); ok {
		if n, err := strconv.Atoi(v); err == nil && n > 0 {
			e.Priority = n
		}
	}
	return e, d.Result()
}

// PriorityLabel orders matched exceptions: the highest positive integer wins.
const PriorityLabel = "polex.kyverno.io/priority"

// Key identifies the exception: "PolicyException/ns/name".
func (e *Exception) Key() string { return KindPolicyException + "/" + e.Namespace + "/" + e.Name }

// Refers reports whether the exception names p in spec.policyRefs (name and
// kind; the namespace is not compared, as in Kyverno).
func (e *Exception) Refers(p *Policy) bool {
	return slices.ContainsFunc(e.PolicyRefs, func(r PolicyRef) bool { return r.Name == p.Name && r.Kind == p.Kind })
}

// Accessors that tolerate wrong types: the schema check reports those.

func asMap(v any) map[string]any {
	switch m := v.(type) {
	case map[string]any:
		return m
	case resource.Object:
		return m
	}
	return nil
}

func mapOf(m map[string]any, k string) map[string]any { return asMap(m[k]) }

func list(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

func boolOr(m map[string]any, k string, def bool) bool {
	if b, ok := m[k].(bool); ok {
		return b
	}
	return def
}

func stringOr(m map[string]any, k string, def string) string {
	if s, ok := m[k].(string); ok {
		return s
	}
	return def
}

func stringList(m map[string]any, k string) []string {
	var out []string
	for _, e := range list(m, k) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

func stringMapOf(m map[string]any, k string) map[string]string {
	src, ok := m[k].(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(src))
	for key, v := range src {
		if s, ok := v.(string); ok {
			out[key] = s
		} else if v != nil {
			out[key] = fmt.Sprint(v)
		}
	}
	return out
}
