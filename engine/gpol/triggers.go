package gpol

import (
	"slices"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/match"
	"github.com/genplay/genplay/engine/resource"
)

// TriggerTarget is one group/version/resource that Kyverno's policy
// controller lists to find existing triggers (getGpolTriggers): one per
// resourceRules entry × apiGroups × apiVersions × resources, wildcards
// kept as written.
type TriggerTarget struct {
	Rule                     int // index in matchConstraints.resourceRules
	Group, Version, Resource string
}

// TriggerTargets lists the targets in Kyverno's order. Duplicates are kept
// (Kyverno lists twice and yields the trigger twice).
func (m *MatchResources) TriggerTargets() []TriggerTarget {
	if m == nil {
		return nil
	}
	var out []TriggerTarget
	for i, r := range m.ResourceRules {
		for _, g := range r.APIGroups {
			for _, v := range r.APIVersions {
				for _, res := range r.Resources {
					out = append(out, TriggerTarget{Rule: i, Group: g, Version: v, Resource: res})
				}
			}
		}
	}
	return out
}

// Kind resolves the target to a served kind as Kyverno's REST mapper does
// (KindFor): a version "*" is the group's preferred (first registered)
// version; any other wildcard, and a subresource, resolves to nothing and
// Kyverno skips the target.
func (t TriggerTarget) Kind(kinds []cluster.KindInfo) (cluster.KindInfo, bool) {
	if t.Group == "*" || t.Resource == "*" || slices.Contains([]byte(t.Resource), '/') {
		return cluster.KindInfo{}, false
	}
	for _, k := range kinds {
		if k.Group == t.Group && k.Resource == t.Resource && (t.Version == "*" || k.Version == t.Version) {
			return k, true
		}
	}
	return cluster.KindInfo{}, false
}

// NamespaceLabels returns the labels of a namespace, and whether it exists.
// A nil NamespaceLabels knows no namespace.
type NamespaceLabels func(name string) (map[string]string, bool)

// TriggerCandidate is getGpolTriggers' filter of a listed object (K:pkg/policy/gpol.go
// triggerMatches), cruder than Match: the objectSelector (Kyverno lists
// with it, Kubernetes semantics); excludeResourceRules by exact string
// equality of group, version, resource and resourceNames ("*" is not
// understood, so a wildcard exclude rule excludes nothing here);
// the target rule's resourceNames exactly; and the namespaceSelector with
// Kyverno's legacy selector semantics (wildcards in matchLabels), read from
// a Namespace's own labels or from its namespace (a cluster-scoped object
// has none: it is not a candidate). Operations and match conditions are not
// looked at: the engine re-checks every candidate with Match.
func (m *MatchResources) TriggerCandidate(t TriggerTarget, obj resource.Object, namespaces NamespaceLabels) bool {
	if m == nil || t.Rule < 0 || t.Rule >= len(m.ResourceRules) {
		return false
	}
	if !m.ObjectSelector.Empty() && !m.ObjectSelector.Matches(obj.Label) {
		return false
	}
	for _, r := range m.ExcludeResourceRules {
		if slices.Contains(r.APIGroups, t.Group) && slices.Contains(r.APIVersions, t.Version) &&
			slices.Contains(r.Resources, t.Resource) &&
			(len(r.ResourceNames) == 0 || slices.Contains(r.ResourceNames, obj.Name())) {
			return false
		}
	}
	if names := m.ResourceRules[t.Rule].ResourceNames; len(names) > 0 && !slices.Contains(names, obj.Name()) {
		return false
	}
	if m.NamespaceSelector != nil {
		var lbls map[string]string
		if obj.GVK().Group == "" && obj.Kind() == "Namespace" {
			lbls = obj.Labels()
		} else {
			if namespaces == nil {
				return false
			}
			l, ok := namespaces(obj.Namespace())
			if !ok {
				return false
			}
			lbls = l
		}
		if !match.Selector(m.NamespaceSelector, lbls) {
			return false
		}
	}
	return true
}
