package assert

import (
	"fmt"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// Lister returns the objects of one type, in one namespace or, when
// namespace is "", in every namespace (and the cluster-scoped ones).
type Lister func(apiVersion, kind, namespace string) []resource.Object

// Resource runs chainsaw's assert operation for one expected resource.
//
// The expected apiVersion, kind, metadata.name and metadata.namespace may be
// "(expr)" strings; they are evaluated first, as chainsaw's templating of
// the resource reference does. Candidates are the objects of that type in
// that namespace (every namespace when it is empty); when metadata.name is
// set only the object of that name is compared. Labels are not a filter:
// they are part of the match. The assertion passes when any candidate
// matches the whole tree. Otherwise failures explain the closest candidate
// (the one with the fewest failing paths), or say that nothing was found:
// `configmaps "foo" not found`, "no ConfigMap found in namespace team-a".
//
// An expected value without apiVersion or kind is not a resource: the tree
// is matched against null, which is how chainsaw asserts on bindings alone.
//
// The caller defaults metadata.namespace to the test namespace for
// namespaced kinds before calling, as chainsaw's namespacer does.
func Resource(expected resource.Object, list Lister, bindings map[string]any) (ok bool, failures []string) {
	tree, ref, err := resolveRef(expected, bindings)
	if err != nil {
		return false, []string{err.Error()}
	}
	if ref.APIVersion == "" || ref.Kind == "" {
		failures := Match(tree, nil, bindings)
		return len(failures) == 0, failures
	}
	candidates := find(ref, list)
	if len(candidates) == 0 {
		return false, []string{notFound(ref)}
	}
	var best []string
	var bestRef resource.Ref
	for _, c := range candidates {
		f := Match(tree, c, bindings)
		if len(f) == 0 {
			return true, nil
		}
		if best == nil || len(f) < len(best) {
			best, bestRef = f, c.Ref()
		}
	}
	if len(candidates) > 1 {
		failures = append(failures, fmt.Sprintf("none of %d %s objects%s match; the closest is %s:",
			len(candidates), ref.Kind, inNamespace(ref.Namespace), bestRef))
	}
	for _, f := range best {
		failures = append(failures, bestRef.String()+": "+f)
	}
	return false, failures
}

// Absent runs chainsaw's error operation for one expected resource: it
// passes when no candidate matches the tree (including when there is no
// candidate at all), and fails naming each object that matches.
func Absent(expected resource.Object, list Lister, bindings map[string]any) (ok bool, failures []string) {
	tree, ref, err := resolveRef(expected, bindings)
	if err != nil {
		return false, []string{err.Error()}
	}
	if ref.APIVersion == "" || ref.Kind == "" {
		if len(Match(tree, nil, bindings)) == 0 {
			return false, []string{"the assertion holds, but it must not"}
		}
		return true, nil
	}
	for _, c := range find(ref, list) {
		if len(Match(tree, c, bindings)) == 0 {
			failures = append(failures, c.Ref().String()+" matches, but it must not")
		}
	}
	return len(failures) == 0, failures
}

// resolveRef evaluates the expressions of the reference fields and returns a
// copy of the tree with them resolved.
func resolveRef(expected resource.Object, bindings map[string]any) (map[string]any, resource.Ref, error) {
	tree := expected.DeepCopy()
	if tree == nil {
		tree = resource.Object{}
	}
	fields := [][]string{{"apiVersion"}, {"kind"}, {"metadata", "name"}, {"metadata", "namespace"}}
	for _, path := range fields {
		v, found := tree.Nested(path...)
		s, isString := v.(string)
		if !found || !isString {
			continue
		}
		expr := ParseTemplate(s)
		out, err := expr.Evaluate(s, bindings)
		if err != nil {
			return nil, resource.Ref{}, fmt.Errorf("%s: %w", strings.Join(path, "."), err)
		}
		str, ok := out.(string)
		if !ok {
			return nil, resource.Ref{}, fmt.Errorf("%s: expression %s gave %s, not a string", strings.Join(path, "."), s, format(out))
		}
		tree.SetNested(str, path...)
	}
	return map[string]any(tree), tree.Ref(), nil
}

func find(ref resource.Ref, list Lister) []resource.Object {
	var out []resource.Object
	for _, o := range list(ref.APIVersion, ref.Kind, ref.Namespace) {
		if o.APIVersion() != ref.APIVersion || o.Kind() != ref.Kind {
			continue
		}
		if ref.Namespace != "" && o.Namespace() != ref.Namespace {
			continue
		}
		if ref.Name != "" && o.Name() != ref.Name {
			continue
		}
		out = append(out, o)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Namespace() != b.Namespace() {
			return a.Namespace() < b.Namespace()
		}
		return a.Name() < b.Name()
	})
	return out
}

func notFound(ref resource.Ref) string {
	if ref.Name != "" {
		return fmt.Sprintf("%s %q not found%s", Plural(ref.Kind), ref.Name, inNamespace(ref.Namespace))
	}
	return fmt.Sprintf("no %s found%s", ref.Kind, inNamespace(ref.Namespace))
}

func inNamespace(ns string) string {
	if ns == "" {
		return ""
	}
	return " in namespace " + ns
}

// Plural guesses the resource name of a kind the way the API names most
// types: lower case, plural ("ConfigMap" → "configmaps", "NetworkPolicy" →
// "networkpolicies", "Ingress" → "ingresses").
func Plural(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case k == "":
		return k
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}
