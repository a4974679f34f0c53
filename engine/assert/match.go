package assert

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// Match checks the assertion tree expected against actual and returns what
// did not hold, one line per failure, each starting with the path of the
// failing node ("metadata.labels.foo: expected \"bar\", got \"baz\""). It
// returns nil when actual satisfies expected. Expressions that fail to
// evaluate are failures too, reported at their path.
func Match(expected, actual any, bindings map[string]any) []string {
	m := matcher{}
	m.node("", plain(expected), plain(actual), bindings)
	return m.failures
}

type matcher struct {
	failures []string
}

func (m *matcher) fail(path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	m.failures = append(m.failures, msg)
}

func (m *matcher) node(path string, expected, actual any, bindings map[string]any) {
	switch e := expected.(type) {
	case map[string]any:
		m.object(path, e, actual, bindings)
	case []any:
		m.array(path, e, actual, bindings)
	default:
		m.scalar(path, expected, actual, bindings)
	}
}

func (m *matcher) object(path string, expected map[string]any, actual any, bindings map[string]any) {
	if len(expected) == 0 {
		if actual == nil {
			m.fail(path, "expected a value, got null")
		}
		return
	}
	keys := make([]string, 0, len(expected))
	for k := range expected {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	actualMap, isMap := actual.(map[string]any)
	for _, key := range keys {
		want := expected[key]
		expr := ParseExpression(key)
		shown := key
		if expr.Foreach || expr.Binding != "" {
			shown = expr.Statement
			if expr.IsProjection() {
				shown = "(" + expr.Statement + ")"
			}
		}
		child := joinKey(path, shown)
		var projected any
		if expr.IsProjection() {
			v, err := expr.Evaluate(actual, bindings)
			if err != nil {
				m.fail(child, "%v", err)
				continue
			}
			projected = v
		} else {
			if actual != nil && !isMap {
				m.fail(path, "expected an object, got %s", describe(actual))
				return
			}
			v, ok := actualMap[expr.Statement]
			if !ok {
				m.fail(child, "not found, expected %s", format(want))
				continue
			}
			projected = v
		}
		scope := bindings
		if expr.Binding != "" {
			scope = with(bindings, expr.Binding, projected)
		}
		if !expr.Foreach {
			m.node(child, want, projected, scope)
			continue
		}
		switch p := projected.(type) {
		case []any:
			for i, item := range p {
				s := scope
				if expr.ForeachName != "" {
					s = with(scope, expr.ForeachName, float64(i))
				}
				m.node(child+"["+strconv.Itoa(i)+"]", want, item, s)
			}
		case map[string]any:
			for _, k := range sortedKeys(p) {
				s := scope
				if expr.ForeachName != "" {
					s = with(scope, expr.ForeachName, k)
				}
				m.node(joinKey(child, k), want, p[k], s)
			}
		default:
			m.fail(child, "foreach needs an array or an object, got %s", describe(projected))
		}
	}
}

func (m *matcher) array(path string, expected []any, actual any, bindings map[string]any) {
	items, ok := actual.([]any)
	if !ok {
		m.fail(path, "expected an array of %d items, got %s", len(expected), describe(actual))
		return
	}
	if len(items) != len(expected) {
		m.fail(path, "expected %d items, got %d", len(expected), len(items))
		return
	}
	for i := range expected {
		m.node(path+"["+strconv.Itoa(i)+"]", expected[i], items[i], bindings)
	}
}

func (m *matcher) scalar(path string, expected, actual any, bindings map[string]any) {
	if s, ok := expected.(string); ok {
		expr := ParseExpression(s)
		if expr.Foreach || expr.Binding != "" {
			// kyverno-json rejects these in values; read the value literally
			// rather than guess.
			expr = ParseTemplate(s)
		}
		if expr.IsProjection() {
			v, err := expr.Evaluate(actual, bindings)
			if err != nil {
				m.fail(path, "%v", err)
				return
			}
			if !valueMatch(v, actual) {
				m.fail(path, "expected %s (from %s), got %s", format(v), s, format(actual))
			}
			return
		}
		expected = expr.Statement
	}
	if !valueMatch(expected, actual) {
		m.fail(path, "expected %s, got %s", format(expected), format(actual))
	}
}

// valueMatch compares without expressions: maps partially, arrays by
// length and element, scalars by value with numbers compared numerically.
func valueMatch(expected, actual any) bool {
	switch e := expected.(type) {
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range e {
			av, ok := a[k]
			if !ok || !valueMatch(v, av) {
				return false
			}
		}
		return true
	case []any:
		a, ok := actual.([]any)
		if !ok || len(a) != len(e) {
			return false
		}
		for i := range e {
			if !valueMatch(e[i], a[i]) {
				return false
			}
		}
		return true
	case nil:
		return actual == nil
	}
	if en, ok := number(expected); ok {
		an, ok := number(actual)
		return ok && en == an
	}
	return expected == actual
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// plain turns a resource.Object into the map it is, so type switches and
// JMESPath see an ordinary JSON object.
func plain(v any) any {
	if o, ok := v.(resource.Object); ok {
		return map[string]any(o)
	}
	return v
}

func with(bindings map[string]any, name string, value any) map[string]any {
	out := make(map[string]any, len(bindings)+1)
	for k, v := range bindings {
		out[k] = v
	}
	out[name] = value
	return out
}

var plainKey = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func joinKey(path, key string) string {
	if !plainKey.MatchString(key) && !strings.HasPrefix(key, "(") && !strings.HasPrefix(key, "~") {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// format renders a value for a failure message: strings quoted, numbers
// without exponent, objects and arrays as compact JSON, cut at 120 bytes.
func format(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return strconv.Quote(t)
	case float64:
		if t == math.Trunc(t) && math.Abs(t) < 1e15 {
			return strconv.FormatInt(int64(t), 10)
		}
		return strconv.FormatFloat(t, 'g', -1, 64)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	s := string(data)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// describe names the type of a value and shows it when short.
func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "the string " + format(v)
	case bool:
		return "the boolean " + format(v)
	}
	if _, ok := number(v); ok {
		return "the number " + format(v)
	}
	return format(v)
}
