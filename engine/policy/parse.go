package policy

import (
	"fmt"
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
	d := &diags{doc: doc}
	if doc != nil {
		d.file = doc.File
		if obj == nil {
			obj, _ = doc.Object()
		}
	}
	if obj == nil || !IsPolicy(obj) {
		d.errorf(nil, "not a %s ClusterPolicy or Policy: apiVersion %q, kind %q", Group, obj.APIVersion(), obj.Kind())
		return nil, d.result()
	}
	_, version := resource.SplitAPIVersion(obj.APIVersion())
	sch, ok := schemas[version]
	if !ok {
		d.errorf(fieldPath{"apiVersion"}, "no matches for kind %q in version %q", obj.Kind(), obj.APIVersion())
		return nil, d.result()
	}
	sch.Check(d, obj, nil)
	p := &Policy{
		APIVersion: obj.APIVersion(),
		Kind:       obj.Kind(),
		Name:       obj.Name(),
		Raw:        obj,
		Source:     doc,
		File:       d.file,
	}
	if p.Name == "" {
		d.errorf(fieldPath{"metadata"}, "metadata.name: Required value: name or generateName is required")
	}
	if p.Kind == KindPolicy {
		p.Namespace = obj.Namespace()
	}
	spec, _ := obj["spec"].(map[string]any)
	p.Spec = Spec{
		Background:         boolOr(spec, "background", true),
		GenerateExisting:   boolOr(spec, "generateExisting", false),
		UseServerSideApply: boolOr(spec, "useServerSideApply", false),
		ApplyRules:         stringOr(spec, "applyRules", "All"),
		Admission:          boolOr(spec, "admission", true),
	}
	for i, rv := range list(spec, "rules") {
		rm, _ := rv.(map[string]any)
		p.Spec.Rules = append(p.Spec.Rules, parseRule(rm, i))
	}
	return p, d.result()
}

func parseRule(m map[string]any, index int) Rule {
	r := Rule{
		Name:                   stringOr(m, "name", ""),
		Index:                  index,
		Match:                  parseMatch(mapOf(m, "match")),
		Exclude:                parseMatch(mapOf(m, "exclude")),
		Context:                list(m, "context"),
		Preconditions:          m["preconditions"],
		SkipBackgroundRequests: boolOr(m, "skipBackgroundRequests", true),
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
	for _, f := range list(m, "any") {
		b.Any = append(b.Any, parseFilter(asMap(f)))
	}
	for _, f := range list(m, "all") {
		b.All = append(b.All, parseFilter(asMap(f)))
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
		Resources:    parseResources(mapOf(m, "resources")),
		Roles:        stringList(m, "roles"),
		ClusterRoles: stringList(m, "clusterRoles"),
	}
	for _, s := range list(m, "subjects") {
		sm := asMap(s)
		f.Subjects = append(f.Subjects, Subject{
			Kind:      stringOr(sm, "kind", ""),
			Name:      stringOr(sm, "name", ""),
			Namespace: stringOr(sm, "namespace", ""),
		})
	}
	return f
}

func parseResources(m map[string]any) ResourceDescription {
	return ResourceDescription{
		Kinds:             stringList(m, "kinds"),
		Name:              stringOr(m, "name", ""),
		Names:             stringList(m, "names"),
		Namespaces:        stringList(m, "namespaces"),
		Annotations:       stringMapOf(m, "annotations"),
		Selector:          parseSelector(m["selector"]),
		NamespaceSelector: parseSelector(m["namespaceSelector"]),
		Operations:        stringList(m, "operations"),
	}
}

// parseSelector returns nil when the selector is absent.
func parseSelector(v any) *LabelSelector { return labels.Parse(v) }

func parseGeneration(m map[string]any) *Generation {
	g := &Generation{
		Target:      parseTarget(m),
		Synchronize: boolOr(m, "synchronize", false),
		OrphanDownstreamOnPolicyDelete: boolOr(m, "orphanDownstreamOnPolicyDelete", false) ||
			boolOr(m, orphanedAlias, false),
	}
	_, g.OrphanedAlias = m[orphanedAlias]
	if b, ok := m["generateExisting"].(bool); ok {
		g.GenerateExisting = &b
	}
	for _, e := range list(m, "foreach") {
		em := asMap(e)
		g.ForEach = append(g.ForEach, ForEach{
			Target:        parseTarget(em),
			List:          stringOr(em, "list", ""),
			Context:       list(em, "context"),
			Preconditions: em["preconditions"],
		})
	}
	return g
}

// parseTarget reads the pattern shared by generate and foreach entries. An
// empty clone block counts as no clone, as in Kyverno.
func parseTarget(m map[string]any) Target {
	t := Target{
		APIVersion: stringOr(m, "apiVersion", ""),
		Kind:       stringOr(m, "kind", ""),
		Name:       stringOr(m, "name", ""),
		Namespace:  stringOr(m, "namespace", ""),
	}
	t.Data, t.HasData = m["data"]
	if c := mapOf(m, "clone"); c != nil {
		clone := Clone{Namespace: stringOr(c, "namespace", ""), Name: stringOr(c, "name", "")}
		if clone != (Clone{}) {
			t.Clone = &clone
		}
	}
	if c := mapOf(m, "cloneList"); c != nil {
		t.CloneList = &CloneList{
			Namespace: stringOr(c, "namespace", ""),
			Kinds:     stringList(c, "kinds"),
			Selector:  parseSelector(c["selector"]),
		}
	}
	return t
}

// Accessors that tolerate wrong types: the schema check reports those.

func asMap(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
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
