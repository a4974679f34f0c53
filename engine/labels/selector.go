package labels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/internal/k8sname"
)

// Selector is a metav1.LabelSelector.
type Selector struct {
	MatchLabels      map[string]string
	MatchExpressions []Requirement
}

// Requirement is one matchExpressions entry.
type Requirement struct {
	Key      string
	Operator string // In, NotIn, Exists, DoesNotExist
	Values   []string
}

// Parse reads a selector from its JSON shape; nil when v is not an object.
// Entries of the wrong type are left out (schema validation reports them).
func Parse(v any) *Selector {
	m, ok := v.(map[string]any)
	if !ok {
		return nil
	}
	s := &Selector{}
	if ml, ok := m["matchLabels"].(map[string]any); ok {
		s.MatchLabels = make(map[string]string, len(ml))
		for k, v := range ml {
			switch t := v.(type) {
			case string:
				s.MatchLabels[k] = t
			case nil:
			default:
				s.MatchLabels[k] = fmt.Sprint(t)
			}
		}
	}
	exprs, _ := m["matchExpressions"].([]any)
	for _, e := range exprs {
		em, _ := e.(map[string]any)
		r := Requirement{}
		r.Key, _ = em["key"].(string)
		r.Operator, _ = em["operator"].(string)
		vals, _ := em["values"].([]any)
		for _, v := range vals {
			if s, ok := v.(string); ok {
				r.Values = append(r.Values, s)
			}
		}
		s.MatchExpressions = append(s.MatchExpressions, r)
	}
	return s
}

// Empty reports whether the selector has no term: it selects everything.
func (s *Selector) Empty() bool {
	return s == nil || len(s.MatchLabels) == 0 && len(s.MatchExpressions) == 0
}

// Validate returns the first reason the selector is invalid, in the words
// of apimachinery's LabelSelectorAsSelector, or nil.
func (s *Selector) Validate() error {
	if s == nil || s.valid() {
		return nil
	}
	for _, k := range sortedKeys(s.MatchLabels) {
		if err := validKey(k); err != nil {
			return err
		}
		if err := validValue(s.MatchLabels[k]); err != nil {
			return err
		}
	}
	for _, r := range s.MatchExpressions {
		if err := validKey(r.Key); err != nil {
			return err
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return fmt.Errorf("values: Invalid value: %s: for 'in', 'notin' operators, values set can't be empty", quoteList(r.Values))
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				return fmt.Errorf("values: Invalid value: %s: values set must be empty for exists and does not exist", quoteList(r.Values))
			}
		default:
			return fmt.Errorf("%q is not a valid label selector operator", r.Operator)
		}
		for _, v := range r.Values {
			if err := validValue(v); err != nil {
				return err
			}
		}
	}
	return nil
}

// valid is Validate() == nil without building an error or sorting.
func (s *Selector) valid() bool {
	for k, v := range s.MatchLabels {
		if validKey(k) != nil || validValue(v) != nil {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
		if validKey(r.Key) != nil {
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
			if validValue(v) != nil {
				return false
			}
		}
	}
	return true
}

// Matches reports whether the selector selects the labels that get returns
// one at a time. A nil or empty selector selects everything; an invalid one
// nothing.
func (s *Selector) Matches(get func(key string) (string, bool)) bool {
	if s == nil {
		return true
	}
	if !s.valid() {
		return false
	}
	return s.MatchesValid(get)
}

// MatchesMap is Matches over a map of labels.
func (s *Selector) MatchesMap(labels map[string]string) bool {
	return s.Matches(func(k string) (string, bool) { v, ok := labels[k]; return v, ok })
}

// MatchesValid is Matches for a selector already known to be valid.
func (s *Selector) MatchesValid(get func(key string) (string, bool)) bool {
	if s == nil {
		return true
	}
	for k, v := range s.MatchLabels {
		if have, ok := get(k); !ok || have != v {
			return false
		}
	}
	for _, r := range s.MatchExpressions {
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
		default:
			return false
		}
	}
	return true
}

// String renders the selector as kubectl's -l syntax does:
// "app=web,tier in (back,front),!gone".
func (s *Selector) String() string {
	if s == nil {
		return ""
	}
	var parts []string
	for _, k := range sortedKeys(s.MatchLabels) {
		parts = append(parts, k+"="+s.MatchLabels[k])
	}
	for _, r := range s.MatchExpressions {
		vals := slices.Clone(r.Values)
		slices.Sort(vals)
		switch r.Operator {
		case "In":
			parts = append(parts, r.Key+" in ("+strings.Join(vals, ",")+")")
		case "NotIn":
			parts = append(parts, r.Key+" notin ("+strings.Join(vals, ",")+")")
		case "Exists":
			parts = append(parts, r.Key)
		case "DoesNotExist":
			parts = append(parts, "!"+r.Key)
		default:
			parts = append(parts, r.Key+" "+r.Operator+" ("+strings.Join(vals, ",")+")")
		}
	}
	return strings.Join(parts, ",")
}

// validKey is a qualified name: an optional DNS subdomain prefix and a name.
func validKey(k string) error {
	name := k
	if i := strings.LastIndex(k, "/"); i >= 0 {
		prefix := k[:i]
		name = k[i+1:]
		if prefix == "" || len(prefix) > 253 || !k8sname.IsDNS1123Subdomain(prefix) {
			return fmt.Errorf("key: Invalid value: %q: prefix part must be a lowercase RFC 1123 subdomain", k)
		}
	}
	if name == "" || len(name) > 63 || !k8sname.IsQualifiedName(name) {
		return fmt.Errorf("key: Invalid value: %q: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters", k)
	}
	return nil
}

// validValue is an empty string or a label name.
func validValue(v string) error {
	if v == "" || len(v) <= 63 && k8sname.IsQualifiedName(v) {
		return nil
	}
	return fmt.Errorf("values[0]: Invalid value: %q: a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters", v)
}

func quoteList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = fmt.Sprintf("%q", v)
	}
	return "[" + strings.Join(q, " ") + "]"
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
