package conditions

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/variables"
)

func cond(key any, op string, value any) map[string]any {
	return map[string]any{"key": key, "operator": op, "value": value}
}

func TestOperators(t *testing.T) {
	tests := []struct {
		name  string
		key   any
		op    string
		value any
		want  bool
	}{
		{"equal strings are equal", "prod", "Equals", "prod", true},
		{"the value may hold wildcards", "prod-eu", "Equals", "prod-*", true},
		{"the key's wildcards are literal", "prod-*", "Equals", "prod-eu", false},
		{"quantities compare by magnitude", "1Gi", "Equals", "1024Mi", true},
		{"durations compare by magnitude", "60m", "Equals", "1h", true},
		{"a number equals its string", float64(3), "Equals", "3", true},
		{"booleans need booleans", true, "Equals", "true", false},
		{"maps compare deeply", map[string]any{"a": "b"}, "Equals", map[string]any{"a": "b"}, true},
		{"the deprecated Equal still works", "x", "Equal", "x", true},
		{"operator names are case-insensitive", "x", "equals", "x", true},
		{"NotEquals negates", "prod", "NotEquals", "dev", true},
		{"NotEquals with a nil key is false", nil, "NotEquals", "dev", false},
		{"AnyIn finds one of a list", []any{"a", "b"}, "AnyIn", []any{"b", "c"}, true},
		{"AnyIn uses wildcards", "kube-system", "AnyIn", []any{"kube-*"}, true},
		{"AnyIn reads a JSON array string", "b", "AnyIn", `["a","b"]`, true},
		{"AnyIn reads a range", "5", "AnyIn", "1-10", true},
		{"AnyIn outside a range fails", "15", "AnyIn", "1-10", false},
		{"AllIn needs every key", []any{"a", "b"}, "AllIn", []any{"a"}, false},
		{"AllIn holds when every key is in", []any{"a", "b"}, "AllIn", []any{"b", "a", "c"}, true},
		{"AnyNotIn holds when one key is missing", []any{"a", "z"}, "AnyNotIn", []any{"a", "b"}, true},
		{"AllNotIn holds when no key is in", []any{"x", "y"}, "AllNotIn", []any{"a", "b"}, true},
		{"AllNotIn fails when one key is in", []any{"x", "a"}, "AllNotIn", []any{"a", "b"}, false},
		{"the deprecated In matches exactly", "a", "In", []any{"a", "b"}, true},
		{"the deprecated NotIn matches exactly", []any{"a", "c"}, "NotIn", []any{"a", "b"}, true},
		{"In with a non-string list is false", []any{float64(1)}, "In", []any{"1"}, false},
		{"GreaterThan compares numbers", float64(5), "GreaterThan", float64(3), true},
		{"GreaterThan compares numeric strings", "10", "GreaterThan", "9", true},
		{"LessThan compares quantities", "500Mi", "LessThan", "1Gi", true},
		{"GreaterThanOrEquals compares durations", "1h", "GreaterThanOrEquals", "60m", true},
		{"LessThan compares versions", "1.2.3", "LessThan", "1.10.0", true},
		{"LessThanOrEquals on words is false", "abc", "LessThanOrEquals", "abd", false},
		{"DurationGreaterThan reads numbers as seconds", "2m", "DurationGreaterThan", float64(100), true},
		{"DurationLessThan needs durations", "soon", "DurationLessThan", "1h", false},
	}
	e := variables.New(variables.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, _, err := Evaluate(e, map[string]any{}, map[string]any{"all": []any{cond(tt.key, tt.op, tt.value)}})
			require.NoError(t, err)
			assert.Equal(t, tt.want, ok)
		})
	}
}

func TestEvaluate(t *testing.T) {
	ctx := map[string]any{"request": map[string]any{
		"operation": "CREATE",
		"object":    map[string]any{"metadata": map[string]any{"name": "x", "labels": map[string]any{"env": "prod"}}},
	}}
	envKey := "{{request.object.metadata.labels.env}}"
	tests := []struct {
		name   string
		conds  any
		passed bool
		reason string
	}{
		{"no preconditions pass", nil, true, ""},
		{"a failing all condition is described with its values",
			map[string]any{"all": []any{cond(envKey, "Equals", "dev")}},
			false, `precondition failed: "{{request.object.metadata.labels.env}}" (prod) Equals "dev"`},
		{"a failing condition reports its message",
			map[string]any{"all": []any{map[string]any{"key": envKey, "operator": "Equals", "value": "dev", "message": "only dev"}}},
			false, "precondition failed: only dev"},
		{"any passes when one condition holds",
			map[string]any{"any": []any{cond(envKey, "Equals", "dev"), cond(envKey, "Equals", "prod")}},
			true, ""},
		{"any fails when none holds and lists them",
			map[string]any{"any": []any{cond(envKey, "Equals", "dev"), cond("{{request.operation}}", "Equals", "UPDATE")}},
			false, `no precondition of any held: "{{request.object.metadata.labels.env}}" (prod) Equals "dev"; "{{request.operation}}" (CREATE) Equals "UPDATE"`},
		{"any and all must both hold",
			map[string]any{"any": []any{cond(envKey, "Equals", "prod")}, "all": []any{cond("{{request.operation}}", "Equals", "DELETE")}},
			false, `precondition failed: "{{request.operation}}" (CREATE) Equals "DELETE"`},
		{"an empty any list fails, as in Kyverno",
			map[string]any{"any": []any{}},
			false, "precondition failed: the any list is empty"},
		{"a legacy list means all",
			[]any{cond(envKey, "Equals", "prod"), cond("{{request.operation}}", "AnyIn", []any{"CREATE", "UPDATE"})},
			true, ""},
		{"a default avoids a missing label",
			map[string]any{"all": []any{cond("{{request.object.metadata.labels.team || ''}}", "Equals", "")}},
			true, ""},
		{"messages of passing conditions make the reason",
			map[string]any{"all": []any{map[string]any{"key": envKey, "operator": "Equals", "value": "prod", "message": "is prod"}}},
			true, "is prod"},
	}
	e := variables.New(variables.Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			passed, reason, err := Evaluate(e, ctx, tt.conds)
			require.NoError(t, err)
			assert.Equal(t, tt.passed, passed)
			assert.Equal(t, tt.reason, reason)
		})
	}
}

func TestEvaluateErrors(t *testing.T) {
	e := variables.New(variables.Options{})
	ctx := map[string]any{"request": map[string]any{"object": map[string]any{}}}
	tests := []struct {
		name  string
		conds any
		want  string
	}{
		{"an unknown operator is an error", []any{cond("a", "Matches", "a")}, `failed to create handler for condition operator "Matches"`},
		{"a missing variable is an error", []any{cond("{{request.object.spec}}", "Equals", "a")}, `failed to substitute variables in condition key: failed to resolve request.object.spec at path : JMESPath query failed: Unknown key "spec" in path`},
		{"an unknown block is an error", map[string]any{"some": []any{}}, `unknown field "some"`},
		{"a condition must be an object", []any{"a"}, "want an object"},
		{"preconditions must be a list or an object", "a", "invalid preconditions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Evaluate(e, ctx, tt.conds)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}
