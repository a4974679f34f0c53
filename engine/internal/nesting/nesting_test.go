package nesting

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDepthCountsBracketsOutsideLiterals(t *testing.T) {
	tests := []struct {
		name string
		expr string
		want int
	}{
		{name: "a plain path has no nesting", expr: "request.object.metadata.name", want: 0},
		{name: "a function call nests once", expr: "to_upper(name)", want: 1},
		{name: "filters and calls add up", expr: "items[?contains(name, 'a')].{n: name}", want: 2},
		{name: "brackets in raw strings do not count", expr: "split('((((', '[')", want: 1},
		{name: "brackets in JSON literals do not count", expr: "merge(a, `{\"x\": [[[1]]]}`)", want: 1},
		{name: "an escaped quote does not end the literal", expr: `'it\'s (' `, want: 0},
		{name: "unbalanced closers do not go negative", expr: ")))(", want: 1},
		{name: "10,000 parentheses are 10,000 deep", expr: strings.Repeat("(", 10000) + "a" + strings.Repeat(")", 10000), want: 10000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			depth, _ := Measure(tt.expr)
			assert.Equal(t, tt.want, depth)
		})
	}
}

func TestCheckRefusesOnlyTooDeepExpressions(t *testing.T) {
	assert.NoError(t, Check(strings.Repeat("(", Max)+"a"+strings.Repeat(")", Max)))
	err := Check(strings.Repeat("[", Max+1))
	assert.ErrorContains(t, err, "101 levels deep, more than the limit of 100")
	for _, long := range []string{
		strings.Repeat("!", MaxOperators+1) + "a",
		"a" + strings.Repeat(".a", MaxOperators+1),
		"a" + strings.Repeat("[*]", MaxOperators+1),
		"a" + strings.Repeat("[0]", MaxOperators+1),
	} {
		assert.ErrorContains(t, Check(long), "operators, more than the limit of 1000", long[:20])
	}
	assert.NoError(t, Check("`"+strings.Repeat("[1,", 5000)+"`"), "a JSON literal is not parsed by the JMESPath parser")
	assert.NoError(t, Check("items(request.object.metadata.labels, 'key', 'value')[?starts_with(key, 'app.')].{k: key, v: value} | length(@) > `0`"))
}

func TestValueDepthMeasuresWithoutRecursion(t *testing.T) {
	var deep any = "leaf"
	for range 100_000 {
		deep = []any{deep}
	}
	assert.Equal(t, MaxValueDepth+1, ValueDepth(deep, MaxValueDepth), "stops just past the limit")
	assert.Equal(t, 0, ValueDepth("x", MaxValueDepth))
	assert.Equal(t, 2, ValueDepth(map[string]any{"a": []any{1.0}, "b": "c"}, MaxValueDepth))
}
