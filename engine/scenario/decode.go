package scenario

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/source"
)

// decoder reads one YAML document of chainsaw types, collecting positioned
// diagnostics instead of stopping at the first problem.
type decoder struct {
	doc   *source.Document
	diags *source.Diagnostics
	// noTemplating turns chainsaw templating off by default (a
	// Configuration's templating.enabled: false).
	noTemplating bool
}

func (d decoder) pos(path []any) source.Pos { return d.doc.Pos(path...) }

func (d decoder) errorf(path []any, format string, args ...any) {
	*d.diags = append(*d.diags, source.Diagnostic{
		Pos:      d.pos(path),
		Severity: source.SeverityError,
		Message:  fmt.Sprintf(format, args...),
	})
}

// node is one YAML mapping at a path.
type node struct {
	d    decoder
	path []any
	m    map[string]any
}

func child(path []any, elems ...any) []any {
	return append(append(make([]any, 0, len(path)+len(elems)), path...), elems...)
}

// object returns the mapping at path, or reports that v is not one.
func (d decoder) object(path []any, v any, what string) (node, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		d.errorf(path, "%s must be an object, got %s", what, kindOf(v))
		return node{}, false
	}
	return node{d: d, path: path, m: m}, true
}

func (n node) at(key string) []any { return child(n.path, key) }

func (n node) has(key string) bool { _, ok := n.m[key]; return ok }

// only reports every key that is not allowed, in order.
func (n node) only(where string, allowed ...string) {
	// The lists are short and most mappings have no unknown field, so a scan
	// answers without building a set or sorting: this runs for every
	// mapping of a scenario.
	unknown := false
	for k := range n.m {
		if !slices.Contains(allowed, k) {
			unknown = true
			break
		}
	}
	if !unknown {
		return
	}
	for _, k := range sortedKeys(n.m) {
		if !slices.Contains(allowed, k) {
			n.d.errorf(n.at(k), "unknown field %s in %s (allowed: %s)", source.Excerpt(k), where, strings.Join(allowed, ", "))
		}
	}
}

func (n node) str(key string) string {
	v, ok := n.m[key]
	if !ok || v == nil {
		return ""
	}
	s, ok := v.(string)
	if !ok {
		n.d.errorf(n.at(key), "%s must be a string, got %s", key, kindOf(v))
	}
	return s
}

func (n node) boolean(key string) *bool {
	v, ok := n.m[key]
	if !ok || v == nil {
		return nil
	}
	b, ok := v.(bool)
	if !ok {
		n.d.errorf(n.at(key), "%s must be true or false, got %s", key, kindOf(v))
		return nil
	}
	return &b
}

func (n node) duration(key string) time.Duration {
	s := n.str(key)
	if s == "" {
		return 0
	}
	dur, err := time.ParseDuration(s)
	if err != nil {
		n.d.errorf(n.at(key), "%s: invalid duration %q (use for example 10s or 2m)", key, s)
	}
	return dur
}

func (n node) list(key string) []any {
	v, ok := n.m[key]
	if !ok || v == nil {
		return nil
	}
	l, ok := v.([]any)
	if !ok {
		n.d.errorf(n.at(key), "%s must be a list, got %s", key, kindOf(v))
	}
	return l
}

func (n node) strings(key string) []string {
	var out []string
	for i, v := range n.list(key) {
		switch s := v.(type) {
		case string:
			out = append(out, s)
		case float64, bool:
			out = append(out, fmt.Sprint(s))
		default:
			n.d.errorf(child(n.path, key, i), "%s must hold strings, got %s", key, kindOf(v))
		}
	}
	return out
}

func (n node) stringMap(key string) map[string]string {
	v, ok := n.m[key]
	if !ok || v == nil {
		return nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		n.d.errorf(n.at(key), "%s must be an object, got %s", key, kindOf(v))
		return nil
	}
	out := map[string]string{}
	for k, e := range m {
		s, ok := e.(string)
		if !ok {
			n.d.errorf(child(n.path, key, k), "%s.%s must be a string, got %s", key, k, kindOf(e))
		}
		out[k] = s
	}
	return out
}

func (n node) timeouts(key string) Timeouts {
	v, ok := n.m[key]
	if !ok || v == nil {
		return Timeouts{}
	}
	t, ok := n.d.object(n.at(key), v, key)
	if !ok {
		return Timeouts{}
	}
	t.only(key, timeoutsFields...)
	return Timeouts{
		Apply: t.duration("apply"), Assert: t.duration("assert"), Cleanup: t.duration("cleanup"),
		Delete: t.duration("delete"), Error: t.duration("error"), Exec: t.duration("exec"),
	}
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
