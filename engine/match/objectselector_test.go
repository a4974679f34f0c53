package match

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

func TestObjectSelectorAgreesWithSelectorOnTheLabels(t *testing.T) {
	obj := resource.Object{"metadata": map[string]any{"labels": map[string]any{
		"app": "web", "tier": "front", "count": float64(3), "gone": nil,
	}}}
	selectors := map[string]*policy.LabelSelector{
		"nil":                      nil,
		"empty":                    {},
		"a matching label":         {MatchLabels: map[string]string{"app": "web"}},
		"a label of another value": {MatchLabels: map[string]string{"app": "db"}},
		"a number label":           {MatchLabels: map[string]string{"count": "3"}},
		"a nil label":              {MatchLabels: map[string]string{"gone": ""}},
		"a wildcard key":           {MatchLabels: map[string]string{"ti*": "front"}},
		"a wildcard value":         {MatchLabels: map[string]string{"app": "w?b"}},
		"a wildcard without match": {MatchLabels: map[string]string{"x*": "y"}},
		"In":                       {MatchExpressions: []policy.Requirement{{Key: "tier", Operator: "In", Values: []string{"front", "back"}}}},
		"NotIn":                    {MatchExpressions: []policy.Requirement{{Key: "tier", Operator: "NotIn", Values: []string{"front"}}}},
		"Exists":                   {MatchExpressions: []policy.Requirement{{Key: "count", Operator: "Exists"}}},
		"DoesNotExist of nil":      {MatchExpressions: []policy.Requirement{{Key: "gone", Operator: "DoesNotExist"}}},
		"an invalid key":           {MatchLabels: map[string]string{"-bad": "x"}},
	}
	for name, sel := range selectors {
		t.Run("the selector with "+name+" gives Selector's answer", func(t *testing.T) {
			assert.Equal(t, Selector(sel, obj.Labels()), ObjectSelector(sel, obj))
		})
	}
	t.Run("a matching selector selects the object", func(t *testing.T) {
		assert.True(t, ObjectSelector(selectors["a matching label"], obj))
		assert.False(t, ObjectSelector(selectors["a label of another value"], obj))
	})
}
