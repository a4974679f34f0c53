package match

import (
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/internal/wildcard"
	"github.com/genplay/genplay/engine/policy"
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
	if sel == nil {
		return false
	}
	matchLabels := expandWildcards(sel.MatchLabels, labels)
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
		if have, ok := labels[k]; !ok || have != v {
			return false
		}
	}
	for _, r := range sel.MatchExpressions {
		have, ok := labels[r.Key]
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

func expandWildcards(pattern, labels map[string]string) map[string]string {
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

var (
	labelName    = regexp.MustCompile(`^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`)
	dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
)

// validKey is a qualified name: an optional DNS subdomain prefix and a name.
func validKey(k string) bool {
	name := k
	if i := strings.LastIndex(k, "/"); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if prefix == "" || len(prefix) > 253 || !dnsSubdomain.MatchString(prefix) {
			return false
		}
	}
	return name != "" && len(name) <= 63 && labelName.MatchString(name)
}

// validValue is an empty string or a label name.
func validValue(v string) bool {
	return v == "" || len(v) <= 63 && labelName.MatchString(v)
}
