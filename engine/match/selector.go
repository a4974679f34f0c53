package match

import (
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/internal/wildcard"
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// Selector reports whether a label selector selects labels, with metav1
// semantics: matchLabels and matchExpressions are ANDed, an empty selector
// selects everything and an invalid one nothing. Before evaluation,
// matchLabels entries holding * or ? are expanded against labels as Kyverno's
// ReplaceInSelector does: the first label (in key order) whose key and value
// match the patterns replaces the entry; without one, the wildcard
// characters become "0". A nil selector selects nothing (Kyverno's
// CheckSelector).
func Selector(sel *policy.LabelSelector, labels map[string]string) bool {
	get := func(k string) (string, bool) { v, ok := labels[k]; return v, ok }
	return selects(sel, get, func() map[string]string { return labels })
}

// ObjectSelector is Selector(sel, obj.Labels()) that copies the object's
// labels only when a wildcard entry needs all of them.
func ObjectSelector(sel *policy.LabelSelector, obj resource.Object) bool {
	return selects(sel, obj.Label, obj.Labels)
}

// selects is Selector over labels given by get (one label) and all (every
// label, called only to expand wildcards).
func selects(sel *policy.LabelSelector, get func(string) (string, bool), all func() map[string]string) bool {
	if sel == nil {
		return false
	}
	expanded := labels.Selector{MatchLabels: expandWildcards(sel.MatchLabels, all), MatchExpressions: sel.MatchExpressions}
	return expanded.Matches(get)
}

// expandWildcards returns pattern with its wildcard entries expanded
// against labels. Without a wildcard it returns pattern itself (callers only
// read the result): the common case costs no map, no sort.
func expandWildcards(pattern map[string]string, all func() map[string]string) map[string]string {
	wild := false
	for k, v := range pattern {
		if wildcard.Contains(k) || wildcard.Contains(v) {
			wild = true
			break
		}
	}
	if !wild {
		return pattern
	}
	labels := all()
	out := make(map[string]string, len(pattern))
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for k, v := range pattern {
		if !wildcard.Contains(k) && !wildcard.Contains(v) {
			out[k] = v
			continue
		}
		found := false
		for _, lk := range keys {
			if wildcard.Match(k, lk) && wildcard.Match(v, labels[lk]) {
				out[lk] = labels[lk]
				found = true
				break
			}
		}
		if !found {
			out[zero(k)] = zero(v)
		}
	}
	return out
}

func zero(s string) string { return strings.NewReplacer("*", "0", "?", "0").Replace(s) }
