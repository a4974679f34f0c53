package policy

import (
	"github.com/genplay/genplay/engine/internal/schema"
	"slices"

	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Group is the API group of Kyverno policies.
const Group = "kyverno.io"

// IsPolicy reports whether obj is a kyverno.io ClusterPolicy or Policy, of
// any version.
func IsPolicy(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == Group && (g.Kind == KindClusterPolicy || g.Kind == KindPolicy)
}

// Parse reads a ClusterPolicy or Policy. obj is the document's object,
// possibly after templating; doc gives positions and may be nil. The policy
// is returned whenever obj is a policy, even with errors, so callers can show
// as much as possible; it must not be used when the diagnostics hold errors.
//
// A Policy without metadata.namespace gets none: the caller defaults it, as
// kubectl does from its context.
func Parse(doc *source.Document, obj resource.Object) (*Policy, source.Diagnostics) {
	d := &schema.Diags{Doc: doc}
	if doc != nil {
		d.File = doc.File
		if obj == nil {
			obj, _ = doc.Object()
		}
	}
	if obj == nil || !IsPolicy(obj) {
		d.Errorf(nil, "not a %s ClusterPolicy or Policy: apiVersion %q, kind %q", Group, obj.APIVersion(), obj.Kind())
		return nil, d.Result()
	}
	_, version := resource.SplitAPIVersion(obj.APIVersion())
	sch, ok := schemas[version]
	if !ok {
		d.Errorf(schema.Path{"apiVersion"}, "no matches for kind %q in version %q", obj.Kind(), obj.APIVersion())
		return nil, d.Result()
	}
	sch.Check(d, obj, nil)
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
	if p.Kind == KindPolicy {
		p.Namespace = obj.Namespace()
	}
	spec, _ := obj["spec"].(map[string]any)
	p.Spec = Spec{
		Background:         schema.BoolOr(spec, "background", true),
		GenerateExisting:   schema.BoolOr(spec, "generateExisting", false),
		UseServerSideApply: schema.BoolOr(spec, "useServerSideApply", false),
		ApplyRules:         schema.StringOr(spec, "applyRules", "All"),
		Admission:          schema.BoolOr(spec, "admission", true),
	}
	for i, rv := range schema.ListOf(spec, "rules") {
		rm, _ := rv.(map[string]any)
		p.Spec.Rules = append(p.Spec.Rules, parseRule(rm, i))
	}
	return p, d.Result()
}

func parseRule(m map[string]any, index int) Rule {
	r := Rule{
		Name:                   schema.StringOr(m, "name", ""),
		Index:                  index,
		Match:                  parseMatch(schema.MapOf(m, "match")),
		Exclude:                parseMatch(schema.MapOf(m, "exclude")),
		Context:                schema.ListOf(m, "context"),
		Preconditions:          m["preconditions"],
		SkipBackgroundRequests: schema.BoolOr(m, "skipBackgroundRequests", true),
		Raw:                    m,
	}
	if g, ok := m["generate"].(map[string]any); ok {
		r.Generate = parseGeneration(g)
	}
	return r
}

// parseMatch reads a match or exclude block; the legacy form becomes All
// with one filter when neither any nor all is given.
func parseMatch(m map[string]any) MatchBlock {
	var b MatchBlock
	for _, f := range schema.ListOf(m, "any") {
		b.Any = append(b.Any, parseFilter(schema.AsMap(f)))
	}
	for _, f := range schema.ListOf(m, "all") {
		b.All = append(b.All, parseFilter(schema.AsMap(f)))
	}
	if len(b.Any) == 0 && len(b.All) == 0 && hasLegacyMatch(m) {
		b.All = []Filter{parseFilter(m)}
	}
	return b
}

// legacyMatchKeys are the fields of the legacy match/exclude form.
var legacyMatchKeys = []string{"resources", "subjects", "roles", "clusterRoles"}

func hasLegacyMatch(m map[string]any) bool {
	return slices.ContainsFunc(legacyMatchKeys, func(k string) bool { return m[k] != nil })
}

func parseFilter(m map[string]any) Filter {
	f := Filter{
		Resources:    parseResources(schema.MapOf(m, "resources")),
		Roles:        schema.StringsOf(m, "roles"),
		ClusterRoles: schema.StringsOf(m, "clusterRoles"),
	}
	for _, s := range schema.ListOf(m, "subjects") {
		sm := schema.AsMap(s)
		f.Subjects = append(f.Subjects, Subject{
			Kind:      schema.StringOr(sm, "kind", ""),
			Name:      schema.StringOr(sm, "name", ""),
			Namespace: schema.StringOr(sm, "namespace", ""),
		})
	}
	return f
}

func parseResources(m map[string]any) ResourceDescription {
	return ResourceDescription{
		Kinds:             schema.StringsOf(m, "kinds"),
		Name:              schema.StringOr(m, "name", ""),
		Names:             schema.StringsOf(m, "names"),
		Namespaces:        schema.StringsOf(m, "namespaces"),
		Annotations:       schema.StringMapOf(m, "annotations"),
		Selector:          parseSelector(m["selector"]),
		NamespaceSelector: parseSelector(m["namespaceSelector"]),
		Operations:        schema.StringsOf(m, "operations"),
	}
}

// parseSelector returns nil when the selector is absent.
func parseSelector(v any) *LabelSelector { return labels.Parse(v) }

func parseGeneration(m map[string]any) *Generation {
	g := &Generation{
		Target:                         parseTarget(m),
		Synchronize:                    schema.BoolOr(m, "synchronize", false),
		OrphanDownstreamOnPolicyDelete: schema.BoolOr(m, "orphanDownstreamOnPolicyDelete", false),
	}
	if b, ok := m["generateExisting"].(bool); ok {
		g.GenerateExisting = &b
	}
	for _, e := range schema.ListOf(m, "foreach") {
		em := schema.AsMap(e)
		g.ForEach = append(g.ForEach, ForEach{
			Target:        parseTarget(em),
			List:          schema.StringOr(em, "list", ""),
			Context:       schema.ListOf(em, "context"),
			Preconditions: em["preconditions"],
		})
	}
	return g
}

// parseTarget reads the pattern shared by generate and foreach entries. An
// empty clone block counts as no clone, as in Kyverno.
func parseTarget(m map[string]any) Target {
	t := Target{
		APIVersion: schema.StringOr(m, "apiVersion", ""),
		Kind:       schema.StringOr(m, "kind", ""),
		Name:       schema.StringOr(m, "name", ""),
		Namespace:  schema.StringOr(m, "namespace", ""),
	}
	t.Data, t.HasData = m["data"]
	if c := schema.MapOf(m, "clone"); c != nil {
		clone := Clone{Namespace: schema.StringOr(c, "namespace", ""), Name: schema.StringOr(c, "name", "")}
		if clone != (Clone{}) {
			t.Clone = &clone
		}
	}
	if c := schema.MapOf(m, "cloneList"); c != nil {
		t.CloneList = &CloneList{
			Namespace: schema.StringOr(c, "namespace", ""),
			Kinds:     schema.StringsOf(c, "kinds"),
			Selector:  parseSelector(c["selector"]),
		}
	}
	return t
}
