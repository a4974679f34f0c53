package gpol

import (
	"slices"
	"strconv"

	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/internal/upstream"
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
	return ParseAt(doc, obj, upstream.Latest)
}

// ParseAt is Parse against the CRDs of Kyverno release kyverno.
func ParseAt(doc *source.Document, obj resource.Object, kyverno upstream.Version) (*Policy, source.Diagnostics) {
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
	policySchemas[kyverno].Check(d, obj, nil)
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
	p.Spec = parseSpec(d, schema.MapOf(obj, "spec"))
	return p, d.Result()
}

func parseSpec(d *diags, spec map[string]any) Spec {
	sp := schema.Path{"spec"}
	s := Spec{UseServerSideApply: schema.BoolOr(spec, "useServerSideApply", false)}
	if mc, ok := spec["matchConstraints"].(map[string]any); ok {
		s.MatchConstraints = parseMatchResources(mc)
	}
	s.MatchConditions = d.namedExpressions(spec, sp.Key("matchConditions"))
	s.Variables = d.namedExpressions(spec, sp.Key("variables"))
	for i, g := range schema.ListOf(spec, "generate") {
		gm := schema.AsMap(g)
		gp := sp.Key("generate").Index(i)
		var gen Generation
		if e, ok := gm["expression"].(string); ok {
			x := d.expression(e, gp.Key("expression"))
			gen.Expression = &x
		}
		if t, ok := gm["template"].(map[string]any); ok {
			gen.Template = &Template{
				Value:       d.expression(schema.StringOr(t, "value", ""), gp.Key("template", "value")),
				Interpolate: schema.StringOr(t, "interpolate", InterpolateNone),
			}
		}
		s.Generate = append(s.Generate, gen)
	}
	ev := schema.MapOf(spec, "evaluation")
	s.Evaluation = Evaluation{
		AdmissionEnabled:               schema.BoolOr(schema.MapOf(ev, "admission"), "enabled", true),
		GenerateExisting:               schema.BoolOr(schema.MapOf(ev, "generateExisting"), "enabled", false),
		Synchronize:                    schema.BoolOr(schema.MapOf(ev, "synchronize"), "enabled", false),
		OrphanDownstreamOnPolicyDelete: schema.BoolOr(schema.MapOf(ev, "orphanDownstreamOnPolicyDelete"), "enabled", false),
		SkipBackgroundRequests:         schema.BoolOr(ev, "skipBackgroundRequests", true),
	}
	if t, ok := schema.MapOf(spec, "webhookConfiguration")["timeoutSeconds"].(float64); ok && schema.JSONType(t) == "integer" {
		v := int32(max(min(t, 1<<31-1), -1<<31))
		s.WebhookTimeoutSeconds = &v
	}
	for i, a := range schema.ListOf(spec, "auditAnnotations") {
		am := schema.AsMap(a)
		s.AuditAnnotations = append(s.AuditAnnotations, AuditAnnotation{
			Key:             schema.StringOr(am, "key", ""),
			ValueExpression: d.expression(schema.StringOr(am, "valueExpression", ""), sp.Key("auditAnnotations").Index(i).Key("valueExpression")),
		})
	}
	return s
}

func parseMatchResources(m map[string]any) *MatchResources {
	mr := &MatchResources{
		ResourceRules:        parseRules(schema.ListOf(m, "resourceRules")),
		ExcludeResourceRules: parseRules(schema.ListOf(m, "excludeResourceRules")),
		NamespaceSelector:    labels.Parse(m["namespaceSelector"]),
		ObjectSelector:       labels.Parse(m["objectSelector"]),
		MatchPolicy:          schema.StringOr(m, "matchPolicy", MatchPolicyEquivalent),
	}
	return mr
}

func parseRules(l []any) []ResourceRule {
	var out []ResourceRule
	for _, r := range l {
		rm := schema.AsMap(r)
		out = append(out, ResourceRule{
			APIGroups:     schema.StringsOf(rm, "apiGroups"),
			APIVersions:   schema.StringsOf(rm, "apiVersions"),
			Resources:     schema.StringsOf(rm, "resources"),
			Operations:    schema.StringsOf(rm, "operations"),
			ResourceNames: schema.StringsOf(rm, "resourceNames"),
			Scope:         schema.StringOr(rm, "scope", "*"),
		})
	}
	return out
}

// namedExpressions reads a list of {name, expression} at path.
func (d *diags) namedExpressions(m map[string]any, path schema.Path) []NamedExpression {
	var out []NamedExpression
	for i, e := range schema.ListOf(m, path[len(path)-1].(string)) {
		em := schema.AsMap(e)
		out = append(out, NamedExpression{
			Name:       schema.StringOr(em, "name", ""),
			Expression: d.expression(schema.StringOr(em, "expression", ""), path.Index(i).Key("expression")),
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
	return ParseExceptionAt(doc, obj, upstream.Latest)
}

// ParseExceptionAt is ParseException against the CRDs of Kyverno release
// kyverno.
func ParseExceptionAt(doc *source.Document, obj resource.Object, kyverno upstream.Version) (*Exception, source.Diagnostics) {
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
	exceptionSchemas[kyverno].Check(d, obj, nil)
	spec := schema.MapOf(obj, "spec")
	e := &Exception{
		APIVersion:     obj.APIVersion(),
		Name:           obj.Name(),
		Namespace:      obj.Namespace(),
		Images:         schema.StringsOf(spec, "images"),
		AllowedValues:  schema.StringsOf(spec, "allowedValues"),
		ReportResult:   schema.StringOr(spec, "reportResult", "skip"),
		ExpiresAt:      schema.StringOr(spec, "expiresAt", ""),
		Properties:     schema.StringMapOf(spec, "properties"),
		EvaluationMode: schema.StringOr(spec, "evaluationMode", ""),
		Raw:            obj,
		Source:         doc,
		File:           d.File,
	}
	if e.Name == "" {
		d.Errorf(schema.Path{"metadata"}, "metadata.name: Required value: name or generateName is required")
	}
	for _, r := range schema.ListOf(spec, "policyRefs") {
		rm := schema.AsMap(r)
		e.PolicyRefs = append(e.PolicyRefs, PolicyRef{Name: schema.StringOr(rm, "name", ""), Kind: schema.StringOr(rm, "kind", "")})
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
