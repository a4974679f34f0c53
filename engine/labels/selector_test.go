package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSelectorMatchesAsKubernetes(t *testing.T) {
	labels := map[string]string{"app": "web", "env": "prod"}
	tests := []struct {
		name string
		sel  *Selector
		want bool
	}{
		{"a nil selector selects everything", nil, true},
		{"an empty selector selects everything", &Selector{}, true},
		{"matchLabels must all hold", &Selector{MatchLabels: map[string]string{"app": "web", "env": "dev"}}, false},
		{"matchLabels that hold", &Selector{MatchLabels: map[string]string{"app": "web"}}, true},
		{"no wildcards: * is an invalid value and selects nothing", &Selector{MatchLabels: map[string]string{"app": "w*"}}, false},
		{"In needs the value listed", &Selector{MatchExpressions: []Requirement{{Key: "env", Operator: "In", Values: []string{"prod"}}}}, true},
		{"NotIn holds for an absent label", &Selector{MatchExpressions: []Requirement{{Key: "tier", Operator: "NotIn", Values: []string{"db"}}}}, true},
		{"NotIn rejects a listed value", &Selector{MatchExpressions: []Requirement{{Key: "env", Operator: "NotIn", Values: []string{"prod"}}}}, false},
		{"Exists needs the key", &Selector{MatchExpressions: []Requirement{{Key: "tier", Operator: "Exists"}}}, false},
		{"DoesNotExist rejects a present key", &Selector{MatchExpressions: []Requirement{{Key: "app", Operator: "DoesNotExist"}}}, false},
		{"matchLabels and expressions are ANDed", &Selector{MatchLabels: map[string]string{"app": "web"}, MatchExpressions: []Requirement{{Key: "env", Operator: "Exists"}}}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.sel.MatchesMap(labels))
		})
	}
}

func TestSelectorValidateSaysWhy(t *testing.T) {
	tests := []struct {
		sel  *Selector
		want string
	}{
		{&Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "In"}}}, `values: Invalid value: []: for 'in', 'notin' operators, values set can't be empty`},
		{&Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "Exists", Values: []string{"x"}}}}, `values: Invalid value: ["x"]: values set must be empty for exists and does not exist`},
		{&Selector{MatchExpressions: []Requirement{{Key: "a", Operator: "Has"}}}, `"Has" is not a valid label selector operator`},
		{&Selector{MatchLabels: map[string]string{"-a": "x"}}, `key: Invalid value: "-a": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters`},
		{&Selector{MatchLabels: map[string]string{"Bad_/a": "x"}}, `key: Invalid value: "Bad_/a": prefix part must be a lowercase RFC 1123 subdomain`},
		{&Selector{MatchLabels: map[string]string{"a": "w*"}}, `values[0]: Invalid value: "w*": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character, at most 63 characters`},
	}
	for _, tc := range tests {
		assert.EqualError(t, tc.sel.Validate(), tc.want)
		assert.False(t, tc.sel.MatchesMap(map[string]string{"a": "x"}), "an invalid selector selects nothing")
	}
	assert.NoError(t, (&Selector{MatchLabels: map[string]string{"example.com/a": ""}}).Validate())
	var none *Selector
	assert.NoError(t, none.Validate())
}

func TestParseReadsTheJSONShape(t *testing.T) {
	assert.Nil(t, Parse(nil))
	assert.Nil(t, Parse("x"))
	s := Parse(map[string]any{
		"matchLabels":      map[string]any{"a": "b", "n": 1.0, "gone": nil},
		"matchExpressions": []any{map[string]any{"key": "k", "operator": "In", "values": []any{"v", 2.0}}, "junk"},
	})
	assert.Equal(t, &Selector{
		MatchLabels:      map[string]string{"a": "b", "n": "1"},
		MatchExpressions: []Requirement{{Key: "k", Operator: "In", Values: []string{"v"}}, {}},
	}, s)
}

func TestStringIsKubectlsSyntax(t *testing.T) {
	s := &Selector{MatchLabels: map[string]string{"b": "2", "a": "1"}, MatchExpressions: []Requirement{
		{Key: "t", Operator: "In", Values: []string{"y", "x"}}, {Key: "u", Operator: "NotIn", Values: []string{"z"}},
		{Key: "e", Operator: "Exists"}, {Key: "g", Operator: "DoesNotExist"},
	}}
	assert.Equal(t, "a=1,b=2,t in (x,y),u notin (z),e,!g", s.String())
	var none *Selector
	assert.Equal(t, "", none.String())
	assert.True(t, none.Empty())
}
