package assert_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/resource"
)

func TestMatch(t *testing.T) {
	cm := map[string]any{
		"apiVersion": "v1",
		"kind":       "ConfigMap",
		"metadata":   map[string]any{"name": "cm", "namespace": "ns-1", "labels": map[string]any{"foo": "baz", "app.kubernetes.io/name": "x"}},
		"data":       map[string]any{"a": "1"},
		"items":      []any{map[string]any{"type": "Ready", "status": "True"}, map[string]any{"type": "Synced", "status": "False"}},
		"replicas":   float64(2),
	}
	tests := []struct {
		name     string
		expected any
		bindings map[string]any
		failures []string
	}{
		{name: "a partial map matches", expected: map[string]any{"metadata": map[string]any{"name": "cm"}}},
		{name: "a differing value fails with its path", expected: map[string]any{"metadata": map[string]any{"labels": map[string]any{"foo": "bar"}}},
			failures: []string{`metadata.labels.foo: expected "bar", got "baz"`}},
		{name: "a missing key fails", expected: map[string]any{"data": map[string]any{"b": "2"}},
			failures: []string{`data.b: not found, expected "2"`}},
		{name: "keys with dots are quoted in paths", expected: map[string]any{"metadata": map[string]any{"labels": map[string]any{"app.kubernetes.io/name": "y"}}},
			failures: []string{`metadata.labels["app.kubernetes.io/name"]: expected "y", got "x"`}},
		{name: "numbers compare numerically", expected: map[string]any{"replicas": 2}},
		{name: "a number does not equal a string", expected: map[string]any{"replicas": "2"},
			failures: []string{`replicas: expected "2", got 2`}},
		{name: "arrays of the same length match element-wise", expected: map[string]any{"items": []any{map[string]any{"type": "Ready"}, map[string]any{}}}},
		{name: "arrays of different lengths fail", expected: map[string]any{"items": []any{map[string]any{"type": "Ready"}}},
			failures: []string{"items: expected 1 items, got 2"}},
		{name: "a projection key is evaluated on the actual node", expected: map[string]any{"(length(items))": 2}},
		{name: "a failing projection reports its result", expected: map[string]any{"(length(items))": 3},
			failures: []string{"(length(items)): expected 3, got 2"}},
		{name: "a filter projection narrows an array", expected: map[string]any{"(items[?type == 'Synced'])": []any{map[string]any{"status": "False"}}}},
		{name: "a quoted key in a projection works", expected: map[string]any{"(metadata.labels.\"app.kubernetes.io/name\")": "x"}},
		{name: "a value expression reads bindings", expected: map[string]any{"metadata": map[string]any{"namespace": "($namespace)"}},
			bindings: map[string]any{"namespace": "ns-1"}},
		{name: "a value expression that differs fails", expected: map[string]any{"metadata": map[string]any{"namespace": "($namespace)"}},
			bindings: map[string]any{"namespace": "ns-2"},
			failures: []string{`metadata.namespace: expected "ns-2" (from ($namespace)), got "ns-1"`}},
		{name: "an unknown binding is a failure", expected: map[string]any{"metadata": map[string]any{"name": "($nope)"}},
			failures: []string{"metadata.name: variable $nope is not defined"}},
		{name: "foreach asserts every element", expected: map[string]any{"~.items": map[string]any{"type": "Ready"}},
			failures: []string{`items[1].type: expected "Ready", got "Synced"`}},
		{name: "foreach binds the index", expected: map[string]any{"~i.items": map[string]any{"($i < `2`)": true}}},
		{name: "a projection can be bound for the assertions below it", expected: map[string]any{"(metadata.name) -> n": "($n)"}},
		{name: "an escaped value is literal", expected: map[string]any{"metadata": map[string]any{"name": `\(cm)\`}},
			failures: []string{`metadata.name: expected "(cm)", got "cm"`}},
		{name: "an empty map requires a value", expected: map[string]any{"spec": map[string]any{}},
			failures: []string{`spec: not found, expected {}`}},
		{name: "a map against a scalar fails", expected: map[string]any{"data": map[string]any{"a": map[string]any{"x": 1}}},
			failures: []string{`data.a: expected an object, got the string "1"`}},
		{name: "chainsaw functions are available", expected: map[string]any{"(trim_space(' x '))": "x"}},
		{name: "cel expressions are reported", expected: map[string]any{"(cel;object.kind)": "ConfigMap"},
			failures: []string{"(cel;object.kind): cel expressions are not supported (only JMESPath): object.kind"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.failures, assert.Match(tt.expected, cm, tt.bindings))
		})
	}
}

func TestMatchAgainstBindingsOnly(t *testing.T) {
	t.Run("an error check passes when $error is set", func(t *testing.T) {
		require.Empty(t, assert.Match(map[string]any{"($error != null)": true}, nil, map[string]any{"error": "denied"}))
	})
	t.Run("an error check fails when $error is null", func(t *testing.T) {
		require.Equal(t, []string{"($error != null): expected true, got false"},
			assert.Match(map[string]any{"($error != null)": true}, nil, map[string]any{"error": nil}))
	})
	t.Run("stderr is trimmed with trim_space", func(t *testing.T) {
		require.Empty(t, assert.Match(map[string]any{"(trim_space($stderr))": "No resources found in kyverno namespace."}, nil,
			map[string]any{"stderr": "No resources found in kyverno namespace.\n"}))
	})
	t.Run("bindings holding backticks are quoted safely", func(t *testing.T) {
		require.Empty(t, assert.Match(map[string]any{"($x)": "a`b"}, nil, map[string]any{"x": "a`b"}))
	})
	t.Run("a resource.Object is matched like a map", func(t *testing.T) {
		require.Empty(t, assert.Match(resource.Object{"kind": "ConfigMap"}, resource.Object{"kind": "ConfigMap", "data": nil}, nil))
	})
}

func TestParseExpression(t *testing.T) {
	tests := []struct {
		in   string
		want assert.Expression
	}{
		{"foo", assert.Expression{Statement: "foo"}},
		{"(foo.bar)", assert.Expression{Engine: "jp", Statement: "foo.bar"}},
		{"(cel;foo)", assert.Expression{Engine: "cel", Statement: "foo"}},
		{`\(foo)\`, assert.Expression{Statement: "(foo)"}},
		{"~.(items)", assert.Expression{Foreach: true, Engine: "jp", Statement: "items"}},
		{"~idx.containers", assert.Expression{Foreach: true, ForeachName: "idx", Statement: "containers"}},
		{"(spec) -> s", assert.Expression{Binding: "s", Engine: "jp", Statement: "spec"}},
	}
	for _, tt := range tests {
		t.Run("parses "+tt.in, func(t *testing.T) {
			require.Equal(t, tt.want, assert.ParseExpression(tt.in))
		})
	}
}
