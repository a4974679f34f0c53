package schema

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

type collect []string

func (c *collect) Errorf(p Path, format string, args ...any) {
	*c = append(*c, p.String()+" | "+fmt.Sprintf(format, args...))
}

func TestCheckWordsProblemsAsTheAPIServer(t *testing.T) {
	s := Object(map[string]*Schema{
		"name":  Str().WithMinLength(2),
		"mode":  Str("a", "b"),
		"count": Int(),
		"on":    Bool(),
		"tags":  StringMap(),
		"items": ArrayOf(Object(map[string]*Schema{"name": Str(), "x": Any()}, "name")).WithMinItems(1).KeyedBy("name"),
		"any":   Any(),
		"free":  Free(),
	}, "name").WithRules(Rule{Message: "on needs mode", Holds: func(m map[string]any) bool { _, on := m["on"]; _, mode := m["mode"]; return !on || mode }})

	tests := []struct {
		name string
		in   map[string]any
		want []string
	}{
		{"a valid object", map[string]any{"name": "ab", "mode": "a", "count": 3.0, "items": []any{map[string]any{"name": "x"}}, "any": []any{1.0}, "free": map[string]any{"z": 1.0}}, nil},
		{"nulls are pruned", map[string]any{"name": "ab", "count": nil}, nil},
		{"an unknown field", map[string]any{"name": "ab", "nope": 1.0}, []string{`nope | strict decoding error: unknown field "nope"`}},
		{"a missing required field", map[string]any{}, []string{` | name: Required value`}},
		{"too short", map[string]any{"name": "a"}, []string{`name | name: Invalid value: "a": name in body should be at least 2 chars long`}},
		{"not in the enum", map[string]any{"name": "ab", "mode": "c"}, []string{`mode | mode: Unsupported value: "c": supported values: "a", "b"`}},
		{"a fraction for an integer", map[string]any{"name": "ab", "count": 1.5}, []string{`count | count: Invalid value: "number": count in body must be of type integer: "number"`}},
		{"a string for a boolean", map[string]any{"name": "ab", "on": "yes", "mode": "a"}, []string{`on | on: Invalid value: "string": on in body must be of type boolean: "string"`}},
		{"a number in a string map", map[string]any{"name": "ab", "tags": map[string]any{"a": 1.0}}, []string{`tags.a | tags.a: Invalid value: "integer": tags.a in body must be of type string: "integer"`}},
		{"too few items", map[string]any{"name": "ab", "items": []any{}}, []string{`items | items: Invalid value: 0: items in body should have at least 1 items`}},
		{"a duplicate list-map key", map[string]any{"name": "ab", "items": []any{map[string]any{"name": "x"}, map[string]any{"name": "x"}}},
			[]string{`items[1] | items[1]: Duplicate value: map[string]interface {}{"name":"x"}`}},
		{"a broken rule", map[string]any{"name": "ab", "on": true}, []string{` | : Invalid value: "object": on needs mode`}},
		{"a list for an object", map[string]any{"name": "ab", "free": []any{}}, []string{`free | free: Invalid value: "array": free in body must be of type object: "array"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got collect
			s.Check(&got, tc.in, nil)
			assert.Equal(t, tc.want, []string(got))
		})
	}
}

func TestPathRendersKubernetesFieldPaths(t *testing.T) {
	p := Path{"spec"}.Key("generate").Index(0).Key("template", "value")
	assert.Equal(t, "spec.generate[0].template.value", p.String())
	base := Path{"spec"}
	_ = base.Key("a")
	assert.Equal(t, "spec", base.String(), "Key does not change its receiver")
}
