package resource

import (
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEqualAgreesWithReflectDeepEqual(t *testing.T) {
	shared := map[string]any{"nan": math.NaN()}
	sharedList := []any{math.NaN()}
	values := map[string]any{
		"nil":                nil,
		"string":             "a",
		"other string":       "b",
		"number":             float64(1),
		"other number":       float64(2),
		"int":                1,
		"true":               true,
		"false":              false,
		"NaN":                math.NaN(),
		"empty map":          map[string]any{},
		"nil map":            map[string]any(nil),
		"empty Object":       Object{},
		"map":                map[string]any{"a": "x", "b": []any{float64(1), nil}},
		"same map again":     map[string]any{"a": "x", "b": []any{float64(1), nil}},
		"map, other value":   map[string]any{"a": "x", "b": []any{float64(1), false}},
		"map, other key":     map[string]any{"a": "x", "c": []any{float64(1), nil}},
		"map with nil value": map[string]any{"a": nil},
		"map with other key": map[string]any{"b": nil},
		"nested Object":      map[string]any{"a": Object{"k": "v"}},
		"nested map":         map[string]any{"a": map[string]any{"k": "v"}},
		"empty list":         []any{},
		"nil list":           []any(nil),
		"list":               []any{"x", map[string]any{"y": float64(1)}},
		"longer list":        []any{"x", map[string]any{"y": float64(1)}, nil},
		"string map":         map[string]string{"a": "x"},
		"same string map":    map[string]string{"a": "x"},
		"map with NaN":       shared,
		"list with NaN":      sharedList,
		"map holding ints":   map[string]any{"a": 1},
		"map holding floats": map[string]any{"a": float64(1)},
	}
	for an, a := range values {
		for bn, b := range values {
			t.Run(an+" against "+bn+" gives DeepEqual's answer", func(t *testing.T) {
				assert.Equal(t, reflect.DeepEqual(a, b), equalValue(a, b))
			})
		}
	}
	t.Run("the same map or list is equal to itself, as with DeepEqual, even holding NaN", func(t *testing.T) {
		assert.True(t, Equal(shared, shared))
		assert.True(t, Equal(sharedList, sharedList))
	})
	t.Run("an Object at the top compares as its map", func(t *testing.T) {
		assert.True(t, Equal(Object{"a": "x"}, map[string]any{"a": "x"}))
		assert.False(t, Equal(Object{"a": "x"}, map[string]any{"a": "y"}))
	})
}
