package gpol

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
)

// Attributes is what matchConstraints are matched against: Kubernetes'
// admission.Attributes as Kyverno's engine builds them
// (NewAttributesRecord in pkg/cel/policies/gpol/engine).
type Attributes struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT; background requests
	// are CREATE.
	Operation string
	// Group, Version and Resource are the request's resource;
	// SubResource its subresource ("exec", "status", "").
	Group, Version, Resource, SubResource string
	// Kind is the request's kind.
	Kind resource.GVK
	// Name is the request's name.
	Name string
	// Namespace is what Kyverno passes: object.metadata.namespace, which is
	// "" on DELETE (the object is empty) and for cluster-scoped objects. So
	// on DELETE, Namespaced-scope rules do not match and the
	// namespaceSelector is not consulted, as in Kyverno.
	Namespace string
	// Object is nil on DELETE; OldObject is nil on CREATE.
	Object, OldObject resource.Object
	// NamespaceLabels are the labels of the namespace object Kyverno
	// resolved from the request's namespace; nil when there is none, in
	// which case Kyverno uses {kubernetes.io/metadata.name: Namespace}.
	NamespaceLabels map[string]string
	// Namespaced is the scope of the kind (for the reasons only: the match
	// follows Kubernetes, which reads the scope from Namespace).
	Namespaced bool
}

// Match reports whether the attributes match, with Kubernetes' webhook
// semantics in Kyverno's order: namespaceSelector, objectSelector,
// excludeResourceRules, resourceRules (an empty list matches) with
// resourceNames. reason says, for a user, why not; a matcher error (an
// invalid selector) is a non-match whose reason starts with "failed to
// execute matching:" (Kyverno's engine then reports an error; see Check).
func (m *MatchResources) Match(a Attributes) (matched bool, reason string) {
	ok, why, err := m.Check(a)
	if err != nil {
		return false, "failed to execute matching: " + err.Error()
	}
	return ok, why
}

// Check is Match with the matcher's error apart. As in Kubernetes, a
// selector error is returned only when the resource rules match.
func (m *MatchResources) Check(a Attributes) (matched bool, reason string, err error) {
	if m == nil {
		return false, "the policy has no matchConstraints", nil
	}
	nsOK, nsWhy, nsErr := m.matchNamespace(a)
	if !nsOK && nsErr == nil {
		return false, nsWhy, nil
	}
	objOK, objWhy, objErr := m.matchObject(a)
	if !objOK && objErr == nil {
		return false, objWhy, nil
	}
	for i, r := range m.ExcludeResourceRules {
		if r.matches(a) == "" {
			return false, fmt.Sprintf("%s is excluded by matchConstraints.excludeResourceRules[%d]", a.describe(), i), nil
		}
	}
	if len(m.ResourceRules) > 0 {
		var whys []string
		matched := false
		for _, r := range m.ResourceRules {
			why := r.matches(a)
			if why == "" {
				matched = true
				break
			}
			whys = append(whys, why)
		}
		if !matched {
			if len(whys) == 1 {
				return false, fmt.Sprintf("%s does not match matchConstraints.resourceRules: %s", a.describe(), whys[0]), nil
			}
			for i := range whys {
				whys[i] = fmt.Sprintf("[%d] %s", i, whys[i])
			}
			return false, fmt.Sprintf("%s matches none of matchConstraints.resourceRules: %s", a.describe(), strings.Join(whys, "; ")), nil
		}
	}
	if nsErr != nil {
		return false, "", nsErr
	}
	if objErr != nil {
		return false, "", objErr
	}
	return true, "", nil
}

// describe names the request for reasons: "CREATE of Pod team-a/web".
func (a Attributes) describe() string {
	what := a.Kind.Kind
	if what == "" {
		what = a.Resource
	}
	if a.SubResource != "" {
		what += "/" + a.SubResource
	}
	name := a.Name
	if ns := a.namespaceForReason(); ns != "" && name != "" {
		name = ns + "/" + name
	}
	if name != "" {
		what += " " + name
	}
	if a.Operation != "" {
		return a.Operation + " of " + what
	}
	return what
}

func (a Attributes) namespaceForReason() string {
	if a.Namespace != "" {
		return a.Namespace
	}
	for _, o := range []resource.Object{a.Object, a.OldObject} {
		if o != nil && o.Namespace() != "" {
			return o.Namespace()
		}
	}
	return ""
}

const namespaceNameLabel = "kubernetes.io/metadata.name"

func (m *MatchResources) matchNamespace(a Attributes) (bool, string, error) {
	if a.Namespace == "" && a.Resource != "namespaces" {
		return true, "", nil // cluster-scoped objects other than Namespaces are never exempted
	}
	sel := m.NamespaceSelector
	if sel.Empty() {
		return true, "", nil
	}
	if err := sel.Validate(); err != nil {
		return false, "", fmt.Errorf("matchConstraints.namespaceSelector: %w", err)
	}
	var lbls map[string]string
	whose := "namespace " + a.Namespace
	switch {
	case a.Resource == "namespaces" && a.SubResource == "" && (a.Operation == admission.OpCreate || a.Operation == admission.OpUpdate):
		if a.Object != nil {
			lbls = a.Object.Labels()
		}
		whose = "the Namespace's own labels"
	case a.Namespace == "" && a.NamespaceLabels != nil:
		// A Namespace's DELETE (or CONNECT): Kyverno looks up the namespace
		// named by the empty attribute namespace and finds that the
		// namespace object it resolved has another name.
		return false, "", fmt.Errorf(`namespaces.v1 "" not found`)
	case a.NamespaceLabels != nil:
		lbls = a.NamespaceLabels
	default:
		lbls = map[string]string{namespaceNameLabel: a.Namespace}
	}
	if sel.MatchesValid(func(k string) (string, bool) { v, ok := lbls[k]; return v, ok }) {
		return true, "", nil
	}
	if whose == "the Namespace's own labels" {
		return false, fmt.Sprintf("%s: the Namespace's own labels do not match matchConstraints.namespaceSelector (%s)", a.describe(), sel), nil
	}
	return false, fmt.Sprintf("%s: the labels of %s do not match matchConstraints.namespaceSelector (%s)", a.describe(), whose, sel), nil
}

func (m *MatchResources) matchObject(a Attributes) (bool, string, error) {
	sel := m.ObjectSelector
	if sel.Empty() {
		return true, "", nil
	}
	if err := sel.Validate(); err != nil {
		return false, "", fmt.Errorf("matchConstraints.objectSelector: %w", err)
	}
	for _, o := range []resource.Object{a.Object, a.OldObject} {
		if o != nil && sel.MatchesValid(o.Label) {
			return true, "", nil
		}
	}
	which := "the object's labels do"
	if a.Object != nil && a.OldObject != nil {
		which = "neither the object's nor the old object's labels"
	} else if a.Object == nil && a.OldObject != nil {
		which = "the old object's labels do"
	}
	if strings.HasPrefix(which, "neither") {
		return false, fmt.Sprintf("%s: %s match matchConstraints.objectSelector (%s)", a.describe(), which, sel), nil
	}
	return false, fmt.Sprintf("%s: %s not match matchConstraints.objectSelector (%s)", a.describe(), which, sel), nil
}

// matches checks one rule as Kubernetes' rules.Matcher does, then
// resourceNames as Kyverno does; it returns "" on a match, else why not.
func (r ResourceRule) matches(a Attributes) string {
	switch r.Scope {
	case "", "*":
	case "Namespaced":
		if a.isNamespaceResource() || a.Namespace == "" {
			return "scope Namespaced does not match a cluster-scoped request"
		}
	case "Cluster":
		if !a.isNamespaceResource() && a.Namespace != "" {
			return "scope Cluster does not match a namespaced request"
		}
	default:
		return fmt.Sprintf("scope %q is not Cluster, Namespaced or *", r.Scope)
	}
	if !slices.Contains(r.Operations, "*") && !slices.Contains(r.Operations, a.Operation) {
		return fmt.Sprintf("operation %s is not in operations %s", orBackground(a.Operation), list2(r.Operations))
	}
	if !exactOrWildcard(r.APIGroups, a.Group) {
		return fmt.Sprintf("API group %q is not in apiGroups %s", a.Group, list2(r.APIGroups))
	}
	if !exactOrWildcard(r.APIVersions, a.Version) {
		return fmt.Sprintf("version %q is not in apiVersions %s", a.Version, list2(r.APIVersions))
	}
	if !r.matchesResource(a.Resource, a.SubResource) {
		res := a.Resource
		if a.SubResource != "" {
			res += "/" + a.SubResource
		}
		return fmt.Sprintf("resource %q is not in resources %s", res, list2(r.Resources))
	}
	if len(r.ResourceNames) == 0 {
		return ""
	}
	if a.Name == "" {
		gen := ""
		if a.Object != nil {
			gen, _ = resource.Object(a.Object).Metadata()["generateName"].(string)
		}
		for _, n := range r.ResourceNames {
			if gen != "" && strings.HasPrefix(gen, n) {
				return ""
			}
		}
		return fmt.Sprintf("the request has no name and its generateName %q starts with none of resourceNames %s", gen, list2(r.ResourceNames))
	}
	if slices.Contains(r.ResourceNames, a.Name) {
		return ""
	}
	return fmt.Sprintf("name %q is not in resourceNames %s", a.Name, list2(r.ResourceNames))
}

func orBackground(op string) string {
	if op == "" {
		return `""`
	}
	return op
}

func (a Attributes) isNamespaceResource() bool {
	return a.Group == "" && a.Version == "v1" && a.Resource == "namespaces"
}

func exactOrWildcard(items []string, requested string) bool {
	return slices.Contains(items, "*") || slices.Contains(items, requested)
}

// matchesResource reads "pods", "pods/log", "*", "pods/*", "*/scale" and
// "*/*" as Kubernetes does.
func (r ResourceRule) matchesResource(res, sub string) bool {
	for _, item := range r.Resources {
		ir, is, _ := strings.Cut(item, "/")
		if (ir == "*" || ir == res) && (is == "*" || is == sub) {
			return true
		}
	}
	return false
}

// list2 renders a list for reasons: [CREATE, UPDATE], with the core group
// as "".
func list2(items []string) string {
	shown := make([]string, len(items))
	for i, s := range items {
		if s == "" {
			s = `""`
		}
		shown[i] = s
	}
	return "[" + strings.Join(shown, ", ") + "]"
}
