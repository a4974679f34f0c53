package match

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/internal/wildcard"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// Request is what match and exclude are evaluated against.
type Request struct {
	// Operation is CREATE, UPDATE, DELETE or CONNECT, or "" in background.
	Operation string
	// Object is the object being checked (the old object on DELETE).
	Object resource.Object
	// SubResource is the admission request's subresource ("exec", "status").
	SubResource string
	// NamespaceLabels are the labels of the object's Namespace (nil if unknown).
	NamespaceLabels map[string]string
	// UserInfo is the requester; nil in background.
	UserInfo *admission.UserInfo
	// PolicyNamespace is the namespace of a namespaced Policy, "" for a ClusterPolicy.
	PolicyNamespace string
	// Budget is the run's work budget; wildcard matching charges it. Nil:
	// unbounded.
	Budget *budget.Budget
}

// Rule evaluates a rule's match block and then its exclude block. reason
// explains a non-match in one sentence.
func Rule(r *policy.Rule, req Request) (matched bool, reason string) {
	if req.Object == nil {
		return false, "the resource is empty"
	}
	if req.PolicyNamespace != "" && req.PolicyNamespace != req.Object.Namespace() {
		what := describe(req.Object)
		where := "is cluster-scoped"
		if ns := req.Object.Namespace(); ns != "" {
			where = "is in namespace " + ns
		}
		return false, fmt.Sprintf("%s %s, but a Policy in namespace %s only matches resources in its own namespace", what, where, req.PolicyNamespace)
	}
	if ok, why := Block(r.Match, req); !ok {
		return false, describe(req.Object) + " does not match rule " + r.Name + ": " + why // fmt-free: most requests miss most rules
	}
	if excluded, why := exclude(r.Exclude, req); excluded {
		return false, fmt.Sprintf("%s is excluded by the rule's exclude block (%s)", describe(req.Object), why)
	}
	return true, ""
}

// Block reports whether a match block selects the request's object; the
// reason explains a non-match.
func Block(b policy.MatchBlock, req Request) (bool, string) {
	if req.Object == nil {
		return false, "the resource is empty"
	}
	switch {
	case len(b.Any) > 0:
		var why []string
		for i, f := range b.Any {
			errs := matchFilter(f, req)
			if len(errs) == 0 {
				return true, ""
			}
			why = append(why, fmt.Sprintf("any[%d]: %s", i, strings.Join(errs, ", ")))
		}
		return false, strings.Join(why, "; ")
	case len(b.All) > 0:
		for i, f := range b.All {
			if errs := matchFilter(f, req); len(errs) > 0 {
				return false, fmt.Sprintf("all[%d]: %s", i, strings.Join(errs, ", "))
			}
		}
		return true, ""
	}
	return false, "the match block is empty"
}

func exclude(b policy.MatchBlock, req Request) (bool, string) {
	switch {
	case len(b.Any) > 0:
		for i, f := range b.Any {
			if excludes(f, req) {
				return true, fmt.Sprintf("exclude.any[%d] matches", i)
			}
		}
	case len(b.All) > 0:
		for _, f := range b.All {
			if !excludes(f, req) {
				return false, ""
			}
		}
		return true, "every filter of exclude.all matches"
	}
	return false, ""
}

func emptyDescription(d policy.ResourceDescription) bool {
	return len(d.Kinds) == 0 && d.Name == "" && len(d.Names) == 0 && len(d.Namespaces) == 0 &&
		len(d.Annotations) == 0 && d.Selector == nil && d.NamespaceSelector == nil && len(d.Operations) == 0
}

func emptyUser(f policy.Filter) bool {
	return len(f.Subjects) == 0 && len(f.Roles) == 0 && len(f.ClusterRoles) == 0
}

// matchFilter returns why a match filter does not select the object.
func matchFilter(f policy.Filter, req Request) []string {
	if req.UserInfo.Empty() {
		f.Subjects, f.Roles, f.ClusterRoles = nil, nil, nil
	}
	if emptyDescription(f.Resources) && emptyUser(f) {
		return []string{"the filter is empty"}
	}
	return check(f, req)
}

// excludes reports whether an exclude filter selects the object. An empty
// filter excludes nothing; user filters are read even in background.
func excludes(f policy.Filter, req Request) bool {
	if emptyDescription(f.Resources) && emptyUser(f) {
		return false
	}
	return len(check(f, req)) == 0
}

// check evaluates every attribute of a filter.
func check(f policy.Filter, req Request) []string {
	d := f.Resources
	obj := req.Object
	if len(d.Operations) > 0 && !slices.Contains(d.Operations, req.Operation) {
		op := req.Operation
		if op == "" {
			op = `"" (background)`
		}
		return []string{fmt.Sprintf("operation %s is not one of %v", op, d.Operations)}
	}
	var errs []string
	gvk := obj.GVK()
	if len(d.Kinds) > 0 {
		matched := false
		for _, k := range d.Kinds {
			if Kind(k, gvk, req.SubResource) {
				matched = true
				break
			}
		}
		if !matched {
			k := gvk.Kind
			if req.SubResource != "" {
				k += "/" + req.SubResource
			}
			errs = append(errs, "kind "+k+" is not one of ["+strings.Join(d.Kinds, " ")+"]") // as %v prints them
		}
	}
	name := obj.Name()
	if name == "" {
		name = obj.NestedString("metadata", "generateName")
	}
	if req.Budget != nil {
		// Wildcards cost O(pattern x text) per name; the controller stops
		// at its next check once the budget is spent.
		patterns := len(d.Name)
		for _, p := range d.Names {
			patterns += len(p)
		}
		for _, p := range d.Namespaces {
			patterns += len(p)
		}
		_ = req.Budget.Charge(int64(patterns+len(d.Kinds))*int64(len(name)+len(obj.Namespace())+1), "match")
	}
	if d.Name != "" && !Wildcard(d.Name, name) {
		errs = append(errs, fmt.Sprintf("name %q does not match %q", name, d.Name))
	}
	if len(d.Names) > 0 && !wildcard.Any(d.Names, name) {
		errs = append(errs, fmt.Sprintf("name %q is not one of %v", name, d.Names))
	}
	if len(d.Namespaces) > 0 {
		ns := obj.Namespace()
		if gvk.Kind == "Namespace" {
			ns = obj.Name()
		}
		if !wildcard.Any(d.Namespaces, ns) {
			errs = append(errs, fmt.Sprintf("namespace %q is not one of %v", ns, d.Namespaces))
		}
	}
	if len(d.Annotations) > 0 && !annotations(d.Annotations, obj.Annotations()) {
		errs = append(errs, "annotations do not match")
	}
	if d.Selector != nil && !ObjectSelector(d.Selector, obj) {
		errs = append(errs, "labels do not match the selector")
	}
	if d.NamespaceSelector != nil {
		if gvk.Kind == "Namespace" {
			errs = append(errs, "namespaceSelector never matches a Namespace")
		} else if gvk.Kind != "" && !Selector(d.NamespaceSelector, req.NamespaceLabels) {
			errs = append(errs, "the namespace's labels do not match the namespaceSelector")
		}
	}
	u := req.UserInfo
	if u == nil {
		u = &admission.UserInfo{}
	}
	if len(f.Roles) > 0 && !anyIn(f.Roles, u.Roles) {
		errs = append(errs, fmt.Sprintf("the user has none of the roles %v", f.Roles))
	}
	if len(f.ClusterRoles) > 0 && !anyIn(f.ClusterRoles, u.ClusterRoles) {
		errs = append(errs, fmt.Sprintf("the user has none of the cluster roles %v", f.ClusterRoles))
	}
	if len(f.Subjects) > 0 && !subjects(f.Subjects, u) {
		errs = append(errs, "the user is none of the subjects")
	}
	return errs
}

func describe(o resource.Object) string {
	ref := o.Ref()
	if ref.Name == "" {
		ref.Name = o.NestedString("metadata", "generateName") + "*"
	}
	return ref.String()
}

func anyIn(want, have []string) bool {
	for _, h := range have {
		if slices.Contains(want, h) {
			return true
		}
	}
	return false
}

func annotations(expected, actual map[string]string) bool {
	for k, v := range expected {
		found := false
		for ak, av := range actual {
			if Wildcard(k, ak) && Wildcard(v, av) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func subjects(list []policy.Subject, u *admission.UserInfo) bool {
	for _, s := range list {
		switch s.Kind {
		case "ServiceAccount":
			if Wildcard("system:serviceaccount:"+s.Namespace+":"+s.Name, u.Username) {
				return true
			}
		case "Group":
			for _, g := range u.Groups {
				if Wildcard(s.Name, g) {
					return true
				}
			}
		case "User":
			if Wildcard(s.Name, u.Username) {
				return true
			}
		}
	}
	return false
}

// Wildcard matches s against a pattern where * is any sequence and ? one
// character; case-sensitive.
func Wildcard(pattern, s string) bool { return wildcard.Match(pattern, s) }

var versionPattern = regexp.MustCompile(`^(v\d+((alpha|beta)\d+)?|\*)$`)

// Kind reports whether a kinds entry selects gvk and subresource. Entries are
// Kind, version/Kind, group/version/Kind, Kind/subresource,
// version/Kind/subresource or group/version/Kind/subresource, each part with
// wildcards; "*/*" selects everything. As in Kyverno, Pod also selects its
// ephemeralcontainers subresource.
func Kind(pattern string, gvk resource.GVK, subresource string) bool {
	group, version, kind, sub, ok := parseKind(pattern)
	if !ok {
		return false
	}
	if !Wildcard(group, gvk.Group) || !Wildcard(version, gvk.Version) || !Wildcard(kind, gvk.Kind) {
		return false
	}
	if Wildcard(sub, subresource) {
		return true
	}
	return gvk == resource.GVK{Version: "v1", Kind: "Pod"} && subresource == "ephemeralcontainers"
}

// parseKind is Kyverno's ParseKindSelector.
func parseKind(s string) (group, version, kind, sub string, ok bool) {
	if !strings.ContainsAny(s, "/.") {
		return "*", "*", s, "", true // a bare Kind, most policies' way: no split
	}
	parts := strings.Split(s, "/")
	parts = append(parts[:len(parts)-1], strings.Split(parts[len(parts)-1], ".")...)
	switch len(parts) {
	case 1:
		return "*", "*", parts[0], "", true
	case 2:
		if parts[0] == "*" && parts[1] == "*" {
			return "*", "*", "*", "*", true
		}
		if parts[0] == "*" && strings.ToLower(parts[1]) == parts[1] {
			return "*", "*", parts[0], parts[1], true
		}
		if versionPattern.MatchString(parts[0]) {
			return "*", parts[0], parts[1], "", true
		}
		return "*", "*", parts[0], parts[1], true
	case 3:
		if versionPattern.MatchString(parts[0]) {
			return "*", parts[0], parts[1], parts[2], true
		}
		return parts[0], parts[1], parts[2], "", true
	case 4:
		return parts[0], parts[1], parts[2], parts[3], true
	}
	return "", "", "", "", false
}
