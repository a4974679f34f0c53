package policy

import (
	"fmt"
	"github.com/genplay/genplay/engine/internal/schema"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// generate checks a generate rule as Kyverno's Generation.Validate and the
// generate checks of its policy webhook do.
func (v *validator) generate(r *Rule) {
	d, rp := v.d, rulePath(r.Index)
	gp := rp.Key("generate")
	g := r.Generate
	raw := schema.AsMap(r.Raw["generate"])

	patterns := 0
	if g.Data != nil {
		patterns++
	}
	if g.Clone != nil {
		patterns++
	}
	if g.CloneList != nil && schema.AsMap(raw["cloneList"])["kinds"] != nil {
		patterns++
	}
	if raw["foreach"] != nil {
		patterns++
	}
	if patterns > 1 {
		d.Errorf(gp, "%s: Forbidden: only one of generate patterns(data, clone, cloneList and foreach) can be specified", gp)
	} else if raw["foreach"] != nil {
		for i := range g.ForEach {
			fp := gp.Key("foreach").Index(i)
			v.pattern(&g.ForEach[i].Target, fp, schema.AsMap(schema.ListOf(raw, "foreach")[i]))
			v.context(fp.Key("context"), g.ForEach[i].Context)
		}
	} else {
		v.pattern(&g.Target, gp, raw)
	}

	if sel := schema.AsMap(schema.AsMap(raw["cloneList"])["selector"]); sel != nil && selectorHasWildcard(sel) {
		d.Errorf(gp.Key("cloneList", "selector"), "path: %s.selector.: wildcard characters `*/?` not supported", gp)
	}
	if r.Raw["celPreconditions"] != nil {
		d.Errorf(rp.Key("celPreconditions"), "path: %s.: celPrecondition can only be used with validate.cel", gp)
	}
	if g.Data != nil {
		if at, key := findAnchor(g.Data, gp.Key("data")); at != nil {
			d.Errorf(at, "path: %s.data.%s.: anchors not supported on generate resources: unsupported anchor %s",
				gp, anchorPath(at[len(gp)+1:]), key)
		}
	}
	// Only the legacy match form is checked: with match.any/all the
	// background service account skip prevents loops.
	if legacy := schema.AsMap(r.Raw["match"]); legacy != nil && g.Kind != "" {
		if k := slices.Index(schema.StringsOf(schema.AsMap(legacy["resources"]), "kinds"), g.Kind); k >= 0 {
			d.Errorf(gp.Key("kind"), "generation kind and match resource kind should not be the same")
		}
	}
}

// pattern checks one generate pattern: the rule's or a foreach entry's.
func (v *validator) pattern(t *Target, at schema.Path, raw map[string]any) {
	d := v.d
	nsPath := at.Key("namespace")
	nsShown := nsPath
	if _, ok := raw["namespace"]; !ok {
		nsPath = at
	}
	if v.namespaced() {
		if ns, known := v.scope(t.APIVersion, t.Kind); known && !ns {
			d.Errorf(nsPath, "%s: Forbidden: target resource scope mismatched: the target must be a namespaced resource: %s/%s", nsShown, t.APIVersion, t.Kind)
		} else if t.Namespace != v.p.Namespace {
			d.Errorf(nsPath, "%s: Forbidden: target resource scope mismatched: a namespaced policy cannot generate resources in other namespaces, expected: %s, received: %s", nsShown, v.p.Namespace, t.Namespace)
		} else if t.Clone != nil && t.Clone.Name != "" && t.Clone.Namespace != v.p.Namespace {
			d.Errorf(at.Key("clone", "namespace"), "%s: Forbidden: target resource scope mismatched: a namespaced policy cannot clone resources from other namespaces, expected: %s, received: %s", nsShown, v.p.Namespace, t.Clone.Namespace)
		}
	}
	if t.Kind != "" {
		if ns, known := v.scope(t.APIVersion, t.Kind); known {
			if ns && t.Namespace == "" {
				d.Errorf(nsPath, "%s: Forbidden: target namespace must be set for a namespaced resource", nsShown)
			} else if !ns && t.Namespace != "" {
				d.Errorf(nsPath, "%s: Forbidden: target namespace must not be set for a cluster-wide resource", nsShown)
			}
		}
	}
	for _, k := range []string{"kind", "apiVersion", "clone", "cloneList"} {
		if fp := firstVariable(raw[k], at.Key(k)); fp != nil {
			d.Warnf(fp, "variables in %s would lead to incorrect synchronization behavior", at.Key("clone/cloneList"))
			break
		}
	}
	if t.CloneList == nil || len(t.CloneList.Kinds) == 0 {
		for _, k := range []string{"kind", "name", "apiVersion"} {
			if schema.StringOr(raw, k, "") == "" {
				d.Errorf(at.Key(k), "%s: Forbidden: %s can not be empty", at.Key(k), k)
			}
		}
		return
	}
	v.cloneList(t, at)
}

// cloneList checks the scope of cloneList kinds as Kyverno's ValidateCloneList.
func (v *validator) cloneList(t *Target, at schema.Path) {
	d, cl := v.d, t.CloneList
	kindsPath, nsPath := at.Key("cloneList", "kinds"), at.Key("cloneList", "namespace")
	nsAt := nsPath
	if cl.Namespace == "" {
		nsAt = at.Key("cloneList")
	}
	type scope struct{ namespaced, known bool }
	scopes := make([]scope, len(cl.Kinds))
	allKnown := true
	for i, k := range cl.Kinds {
		ns, known := v.scopeOfKindSelector(k)
		scopes[i] = scope{ns, known}
		allKnown = allKnown && known
	}
	if v.namespaced() {
		for i, k := range cl.Kinds {
			if scopes[i].known && !scopes[i].namespaced {
				d.Errorf(kindsPath.Index(i), "%s: Forbidden: the source in cloneList must be a namespaced resource: %s", kindsPath, k)
			}
		}
		if cl.Namespace != v.p.Namespace {
			d.Errorf(nsAt, "%s: Forbidden: a namespaced policy cannot clone resources from other namespace, expected: %s, received: %s", nsPath, v.p.Namespace, cl.Namespace)
		}
	}
	if !allKnown {
		return // Kyverno would treat unknown kinds as namespaced; genplay does not guess
	}
	clusterScope := !scopes[0].namespaced
	for i := 1; i < len(scopes); i++ {
		if clusterScope != !scopes[i].namespaced {
			d.Errorf(kindsPath.Index(i), "%s: Forbidden: mixed scope of target resources is forbidden", kindsPath)
			break
		}
	}
	switch {
	case !clusterScope || slices.ContainsFunc(scopes, func(s scope) bool { return s.namespaced }):
		if cl.Namespace == "" {
			d.Errorf(nsAt, "%s: Forbidden: namespace is required for namespaced target resources", nsPath)
		}
	case !v.namespaced() && cl.Namespace != "":
		d.Errorf(nsAt, "%s: Forbidden: namespace is forbidden for cluster-wide target resources", nsPath)
	}
}

// findAnchor returns the path and key of the first anchor in data.
func findAnchor(v any, base schema.Path) (schema.Path, string) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range resource.SortedKeys(t) {
			if anchorKey.MatchString(k) {
				return base.Key(k), k
			}
			if at, key := findAnchor(t[k], base.Key(k)); at != nil {
				return at, key
			}
		}
	case []any:
		for i, e := range t {
			if at, key := findAnchor(e, base.Index(i)); at != nil {
				return at, key
			}
		}
	}
	return nil, ""
}

// anchorPath renders a path inside data as Kyverno's pattern validator: /a/b/0/c.
func anchorPath(fp schema.Path) string {
	var b strings.Builder
	for _, s := range fp {
		b.WriteString("/")
		b.WriteString(fmt.Sprint(s))
	}
	return b.String()
}
