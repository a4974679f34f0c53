package match

import (
	"slices"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/internal/k8sname"
	"github.com/genplay/genplay/engine/internal/wildcard"
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
	matchLabels := expandWildcards(sel.MatchLabels, all)
	for k, v := range matchLabels {
		if !validKey(k) || !validValue(v) {
			return false
		}
	}
	for _, r := range sel.MatchExpressions {
		if !validKey(r.Key) {
			return false
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return false
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				return false
			}
		default:
			return false
		}
		for _, v := range r.Values {
			if !validValue(v) {
				return false
			}
		}
	}
	for k, v := range matchLabels {
		if have, ok := get(k); !ok || have != v {
			return false
		}
	}
	for _, r := range sel.MatchExpressions {
		have, ok := get(r.Key)
		switch r.Operator {
		case "In":
			if !ok || !slices.Contains(r.Values, have) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(r.Values, have) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
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

// validKey is a qualified name: an optional DNS subdomain prefix and a name.
func validKey(k string) bool {
	name := k
	if i := strings.LastIndex(k, "/"); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if prefix == "" || len(prefix) > 253 || !k8sname.IsDNS1123Subdomain(prefix) {
			return false
		}
	}
	return name != "" && len(name) <= 63 && k8sname.IsQualifiedName(name)
}

// validValue is an empty string or a label name.
func validValue(v string) bool {
	return v == "" || len(v) <= 63 && k8sname.IsQualifiedName(v)
}
