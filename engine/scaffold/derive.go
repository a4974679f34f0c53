package scaffold

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/match"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// DefaultName is the name of a trigger (or of its namespace) when the
// match does not constrain it.
const DefaultName = "demo"

// trigger is a derived trigger: an object the rule's match selects, the
// labels its namespace must carry, and how it is written.
type trigger struct {
	kind        cluster.KindInfo
	name        string
	namespace   string // "" for a cluster-scoped kind
	labels      map[string]string
	annotations map[string]string
	nsLabels    map[string]string
	// update is true when the match selects only UPDATE requests: the
	// trigger is created and then updated.
	update bool
	// why says how the trigger was derived (a comment in the scenario).
	why []string
}

func (t *trigger) object() resource.Object {
	meta := map[string]any{"name": t.name}
	if t.namespace != "" {
		meta["namespace"] = t.namespace
	}
	if len(t.labels) > 0 {
		meta["labels"] = stringMap(t.labels)
	}
	if len(t.annotations) > 0 {
		meta["annotations"] = stringMap(t.annotations)
	}
	obj := resource.Object{"apiVersion": t.kind.APIVersion(), "kind": t.kind.Kind, "metadata": meta}
	switch t.kind.Kind {
	case "ConfigMap":
		obj["data"] = map[string]any{"example": "a trigger"}
	case "Pod":
		obj["spec"] = map[string]any{"containers": []any{map[string]any{"name": "app", "image": "nginx"}}}
	}
	return obj
}

// updated is the trigger after the update that an UPDATE-only match needs.
func (t *trigger) updated() resource.Object {
	obj := t.object()
	meta := obj.Metadata()
	l, _ := meta["labels"].(map[string]any)
	if l == nil {
		l = map[string]any{}
	}
	l["genplay.io/updated"] = "true"
	meta["labels"] = l
	return obj
}

func stringMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// concrete turns a wildcard pattern into a name it matches: each * becomes
// DefaultName (or nothing, between other characters, when that keeps the
// name valid), each ? an x.
func concrete(pattern string) string {
	if pattern == "" || pattern == "*" {
		return DefaultName
	}
	if !strings.ContainsAny(pattern, "*?") {
		return pattern
	}
	s := strings.ReplaceAll(pattern, "?", "x")
	s = strings.ReplaceAll(s, "*", DefaultName)
	return s
}

// resolveKind finds the first known kind a kinds entry selects. A bare
// wildcard prefers ConfigMap (a namespaced kind anyone can create).
func resolveKind(pattern string, kinds []cluster.KindInfo) (cluster.KindInfo, bool) {
	if strings.Contains(strings.TrimPrefix(pattern, "*/"), "/") {
		// A subresource (Pod/status) is not a trigger a scenario can create.
		_, last, _ := cutLast(pattern, "/")
		if last != "" && last[0] >= 'a' && last[0] <= 'z' && !versionLike(last) {
			return cluster.KindInfo{}, false
		}
	}
	if strings.ContainsAny(pattern, "*?") {
		for _, k := range kinds {
			if k.Kind == "ConfigMap" && match.Kind(pattern, k.GVK(), "") {
				return k, true
			}
		}
	}
	for _, k := range kinds {
		if isKyvernoGroup(k.Group) && strings.ContainsAny(pattern, "*?") {
			continue
		}
		if match.Kind(pattern, k.GVK(), "") {
			return k, true
		}
	}
	return cluster.KindInfo{}, false
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

func versionLike(s string) bool {
	return len(s) > 1 && s[0] == 'v' && s[1] >= '0' && s[1] <= '9'
}

func isKyvernoGroup(g string) bool {
	return strings.HasSuffix(g, "kyverno.io") || strings.HasSuffix(g, "wgpolicyk8s.io") || strings.HasPrefix(g, "admissionregistration")
}

// satisfy returns labels that a selector selects. Wildcards in matchLabels
// (Kyverno's) are resolved like names. It fails, saying why, when the
// selector cannot select anything.
func satisfy(sel *labels.Selector, what string) (map[string]string, error) {
	out := map[string]string{}
	if sel.Empty() {
		return out, nil
	}
	// Kyverno resolves wildcards in matchLabels before it reads the
	// selector (ReplaceInSelector): so does the wrap.
	resolved := &labels.Selector{MatchLabels: map[string]string{}, MatchExpressions: sel.MatchExpressions}
	for _, k := range sortedKeys(sel.MatchLabels) {
		v := sel.MatchLabels[k]
		if v != "" {
			v = concrete(v)
		}
		resolved.MatchLabels[concrete(k)] = v
	}
	if err := resolved.Validate(); err != nil {
		return nil, fmt.Errorf("the %s is invalid: %v", what, err)
	}
	maps.Copy(out, resolved.MatchLabels)
	// In first: it fixes values.
	for _, r := range sel.MatchExpressions {
		if r.Operator != "In" {
			continue
		}
		if v, ok := out[r.Key]; ok {
			if !slices.Contains(r.Values, v) {
				return nil, fmt.Errorf("the %s needs label %s in %v, and also %s=%s", what, r.Key, r.Values, r.Key, v)
			}
			continue
		}
		out[r.Key] = r.Values[0]
	}
	// Exists: any value the NotIn terms of the key allow.
	for _, r := range sel.MatchExpressions {
		if _, set := out[r.Key]; r.Operator != "Exists" || set {
			continue
		}
		v := "true"
		for i := 0; notIn(sel, r.Key, v); i++ {
			v = fmt.Sprintf("value-%d", i)
		}
		out[r.Key] = v
	}
	for _, r := range sel.MatchExpressions {
		v, set := out[r.Key]
		switch r.Operator {
		case "NotIn":
			if set && slices.Contains(r.Values, v) {
				return nil, fmt.Errorf("the %s needs label %s not in %v, and also %s=%s", what, r.Key, r.Values, r.Key, v)
			}
		case "DoesNotExist":
			if set {
				return nil, fmt.Errorf("the %s needs label %s absent, and also %s=%s", what, r.Key, r.Key, v)
			}
		}
	}
	return out, nil
}

// notIn reports whether a NotIn term of the selector excludes key=v.
func notIn(sel *labels.Selector, key, v string) bool {
	return slices.ContainsFunc(sel.MatchExpressions, func(r labels.Requirement) bool {
		return r.Operator == "NotIn" && r.Key == key && slices.Contains(r.Values, v)
	})
}

func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

// deriveFilter derives a trigger from one match filter (or the merge of
// match.all's filters).
func deriveFilter(filters []policy.Filter, kinds []cluster.KindInfo, policyNS string) (*trigger, error) {
	t := &trigger{labels: map[string]string{}, annotations: map[string]string{}, nsLabels: map[string]string{}}
	terms, err := t.collect(filters)
	if err != nil {
		return nil, err
	}
	if err := t.resolveKind(terms.kinds, kinds); err != nil {
		return nil, err
	}
	if err := t.setOperations(terms.operations); err != nil {
		return nil, err
	}
	if err := t.place(terms, policyNS); err != nil {
		return nil, err
	}
	namedNamespace(t)
	if len(terms.names) > 0 {
		t.why = append(t.why, fmt.Sprintf("name %s (from %q)", t.name, terms.names[0]))
	}
	if t.namespace != "" && len(terms.namespaces) > 0 {
		t.why = append(t.why, fmt.Sprintf("namespace %s (from namespaces %v)", t.namespace, terms.namespaces[0]))
	}
	if len(t.labels) > 0 {
		t.why = append(t.why, "labels that satisfy the selector")
	}
	if len(t.nsLabels) > 0 {
		t.why = append(t.why, fmt.Sprintf("its namespace %s labelled to satisfy the namespaceSelector", t.namespace))
	}
	return t, nil
}

// filterTerms are what a trigger must satisfy of each filter: every filter's
// kinds, namespaces and operations, and the names they give.
type filterTerms struct {
	kinds, namespaces, operations [][]string
	names                         []string
}

// collect reads the filters' terms, and puts the labels and annotations
// their selectors require on t.
func (t *trigger) collect(filters []policy.Filter) (filterTerms, error) {
	var terms filterTerms
	for _, f := range filters {
		rd := f.Resources
		if len(f.Subjects) > 0 || len(f.Roles) > 0 || len(f.ClusterRoles) > 0 {
			if len(rd.Kinds) == 0 {
				return terms, errors.New("the filter matches only by who sends the request (subjects, roles, clusterRoles): a trigger cannot be derived from it; genplay's scenario requests come from kubernetes-admin (group system:masters, ClusterRole cluster-admin)")
			}
			t.why = append(t.why, "the filter also matches by subjects, roles or clusterRoles: the trigger is created as kubernetes-admin")
		}
		if len(rd.Kinds) > 0 {
			terms.kinds = append(terms.kinds, rd.Kinds)
		}
		if rd.Name != "" {
			terms.names = append(terms.names, rd.Name)
		}
		if len(rd.Names) > 0 {
			terms.names = append(terms.names, rd.Names[0])
		}
		if len(rd.Namespaces) > 0 {
			terms.namespaces = append(terms.namespaces, rd.Namespaces)
		}
		if len(rd.Operations) > 0 {
			terms.operations = append(terms.operations, rd.Operations)
		}
		if err := t.satisfySelectors(rd); err != nil {
			return terms, err
		}
		for _, k := range sortedKeys(rd.Annotations) {
			t.annotations[concrete(k)] = concrete(rd.Annotations[k])
		}
	}
	if len(terms.kinds) == 0 {
		return terms, errors.New("the filter names no kinds")
	}
	return terms, nil
}

// satisfySelectors puts on t the labels a filter's selector and
// namespaceSelector require.
func (t *trigger) satisfySelectors(rd policy.ResourceDescription) error {
	l, err := satisfy(rd.Selector, "selector")
	if err != nil {
		return err
	}
	if err := mergeLabels(t.labels, l, "selector"); err != nil {
		return err
	}
	l, err = satisfy(rd.NamespaceSelector, "namespaceSelector")
	if err != nil {
		return err
	}
	return mergeLabels(t.nsLabels, l, "namespaceSelector")
}

// resolveKind picks the first kind of the first filter that every filter's
// kinds match.
func (t *trigger) resolveKind(patterns [][]string, kinds []cluster.KindInfo) error {
	for _, p := range patterns[0] {
		k, ok := resolveKind(p, kinds)
		if !ok {
			continue
		}
		if !slices.ContainsFunc(patterns[1:], func(ps []string) bool {
			return !slices.ContainsFunc(ps, func(q string) bool { return match.Kind(q, k.GVK(), "") })
		}) {
			t.kind = k
			t.why = append(t.why, fmt.Sprintf("kind %s (from kinds %v)", k.Kind, patterns[0]))
			return nil
		}
	}
	return fmt.Errorf("none of the kinds %v is a kind genplay knows (a subresource, or a custom resource: apply its CustomResourceDefinition and a trigger of your own)", patterns[0])
}

// setOperations reads the filters' operations: the trigger is created, and
// updated when a filter selects UPDATE without CREATE.
func (t *trigger) setOperations(operations [][]string) error {
	for _, ops := range operations {
		switch {
		case slices.Contains(ops, "CREATE"):
		case slices.Contains(ops, "UPDATE"):
			t.update = true
		default:
			return fmt.Errorf("the filter selects only %v requests: the wrap creates (and updates) triggers", ops)
		}
	}
	if t.update {
		t.why = append(t.why, "operations [UPDATE]: the trigger is created, then updated")
	}
	return nil
}

// pick is the first candidate every pattern list of all matches (a list
// matches when one of its patterns does) and every one of extra matches.
func pick(candidates []string, all [][]string, extra []string) (string, bool) {
	for _, c := range candidates {
		ok := !slices.ContainsFunc(all, func(ps []string) bool { return !anyMatch(ps, c) })
		for _, e := range extra {
			ok = ok && match.Wildcard(e, c)
		}
		if ok {
			return c, true
		}
	}
	return "", false
}

// concreteAll is each pattern of lists made concrete, in order.
func concreteAll(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		for _, n := range l {
			out = append(out, concrete(n))
		}
	}
	return out
}

// place names the trigger and, for a namespaced kind, picks its namespace.
func (t *trigger) place(terms filterTerms, policyNS string) error {
	nameCandidates := concreteAll(terms.names)
	if t.kind.Kind == "Namespace" {
		// Kyverno compares a Namespace's own name with namespaces.
		nameCandidates = append(nameCandidates, concreteAll(terms.namespaces...)...)
		nameCandidates = append(nameCandidates, DefaultName)
		name, ok := pick(nameCandidates, terms.namespaces, terms.names)
		if !ok {
			return fmt.Errorf("no name satisfies names %v and namespaces %v together", terms.names, terms.namespaces)
		}
		t.name = name
		if len(t.nsLabels) > 0 {
			return errors.New("a namespaceSelector never matches a Namespace (Kyverno reads the labels of the resource's namespace, and a Namespace has none)")
		}
		return nil
	}
	name, ok := pick(append(nameCandidates, DefaultName), nil, terms.names)
	if !ok {
		return fmt.Errorf("no name satisfies names %v together", terms.names)
	}
	t.name = name
	switch {
	case t.kind.Namespaced:
		return t.placeNamespace(terms.namespaces, policyNS)
	case len(t.nsLabels) > 0:
		return fmt.Errorf("a namespaceSelector never matches the cluster-scoped kind %s", t.kind.Kind)
	}
	return nil
}

// placeNamespace picks the namespace of a namespaced trigger: the Policy's
// own, else one namespaces allows, else default (or, when a
// namespaceSelector needs labels, a namespace of the scenario's own).
func (t *trigger) placeNamespace(namespaces [][]string, policyNS string) error {
	var nsCandidates []string
	if policyNS != "" {
		nsCandidates = []string{policyNS}
	}
	nsCandidates = append(nsCandidates, concreteAll(namespaces...)...)
	if len(t.nsLabels) > 0 {
		nsCandidates = append(nsCandidates, DefaultName)
	} else {
		nsCandidates = append(nsCandidates, "default")
	}
	ns, ok := pick(nsCandidates, namespaces, nil)
	if !ok || policyNS != "" && ns != policyNS {
		return fmt.Errorf("no namespace satisfies namespaces %v (a namespaced Policy in %s only sees its own namespace)", namespaces, policyNS)
	}
	if len(t.nsLabels) > 0 && ns == "default" {
		// The default namespace would need relabelling: a namespace of the scenario's own.
		ns = DefaultName
	}
	t.namespace = ns
	return nil
}

// namedNamespace names the trigger's namespace after the label
// kubernetes.io/metadata.name when the namespaceSelector fixes it (the API
// server sets that label to the namespace's name).
func namedNamespace(t *trigger) {
	const nameLabel = "kubernetes.io/metadata.name"
	if t == nil {
		return
	}
	if n, ok := t.nsLabels[nameLabel]; ok && t.namespace != "" {
		t.namespace = n
		delete(t.nsLabels, nameLabel)
	}
	if n, ok := t.labels[nameLabel]; ok && t.kind.Kind == "Namespace" {
		t.name = n
		delete(t.labels, nameLabel)
	}
}

func anyMatch(patterns []string, s string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool { return match.Wildcard(p, s) })
}

func mergeLabels(dst, src map[string]string, what string) error {
	for k, v := range src {
		if old, ok := dst[k]; ok && old != v {
			return fmt.Errorf("the filters' %ss need label %s to be both %q and %q", what, k, old, v)
		}
		dst[k] = v
	}
	return nil
}

// deriveRule derives the trigger of a generate rule: from the first
// match.any filter that yields one (or from all of match.all), checked
// with Kyverno's matcher, exclude included.
func deriveRule(r *policy.Rule, kinds []cluster.KindInfo, policyNS string) (*trigger, error) {
	var groups [][]policy.Filter
	if len(r.Match.Any) > 0 {
		for _, f := range r.Match.Any {
			groups = append(groups, []policy.Filter{f})
		}
	} else if len(r.Match.All) > 0 {
		groups = append(groups, r.Match.All)
	} else {
		return nil, errors.New("the rule's match is empty: it selects nothing")
	}
	var reasons []string
	for _, g := range groups {
		t, err := deriveFilter(g, kinds, policyNS)
		if err != nil {
			reasons = append(reasons, err.Error())
			continue
		}
		if ok, why := checkLegacy(r, t, policyNS); !ok {
			reasons = append(reasons, why)
			continue
		}
		return t, nil
	}
	return nil, errors.New(strings.Join(reasons, "; "))
}

// checkLegacy runs Kyverno's matcher on the derived trigger.
func checkLegacy(r *policy.Rule, t *trigger, policyNS string) (bool, string) {
	obj := t.object()
	op := "CREATE"
	if t.update {
		op, obj = "UPDATE", t.updated()
	}
	req := match.Request{Operation: op, Object: obj, PolicyNamespace: policyNS,
		UserInfo: &admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters", "system:authenticated"}, ClusterRoles: []string{"cluster-admin"}}}
	if t.namespace != "" {
		req.NamespaceLabels = map[string]string{"kubernetes.io/metadata.name": t.namespace}
		maps.Copy(req.NamespaceLabels, t.nsLabels)
	}
	return match.Rule(r, req)
}
