package scenario_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
)

func TestRender(t *testing.T) {
	bindings := map[string]any{"namespace": "team-a", "n": float64(3)}
	t.Run("string expressions are replaced and keys are kept", func(t *testing.T) {
		in := resource.Object{"metadata": map[string]any{"name": "cm", "namespace": "($namespace)", "labels": map[string]any{"(x)": "y"}},
			"data": []any{"($n)", `\(literal)\`, float64(1)}}
		out, err := scenario.Render(in, bindings)
		require.NoError(t, err)
		assert.Equal(t, resource.Object{"metadata": map[string]any{"name": "cm", "namespace": "team-a", "labels": map[string]any{"(x)": "y"}},
			"data": []any{float64(3), "(literal)", float64(1)}}, out)
		assert.Equal(t, "($namespace)", in.Namespace(), "the input is not modified")
	})
	t.Run("an unknown binding is an error with its path", func(t *testing.T) {
		_, err := scenario.Render(map[string]any{"metadata": map[string]any{"name": "($nope)"}}, bindings)
		require.EqualError(t, err, "metadata.name: variable $nope is not defined")
	})
}

func TestResolveBindings(t *testing.T) {
	t.Run("later bindings see earlier ones and the base", func(t *testing.T) {
		out, err := scenario.ResolveBindings(map[string]any{"namespace": "ns"}, []scenario.Binding{
			{Name: "a", Value: "($namespace)"},
			{Name: "b", Value: map[string]any{"x": "($a)"}},
		})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"namespace": "ns", "a": "ns", "b": map[string]any{"x": "ns"}}, out)
	})
	t.Run("an invalid name is an error", func(t *testing.T) {
		_, err := scenario.ResolveBindings(nil, []scenario.Binding{{Name: "a-b", Value: 1}})
		require.Error(t, err)
	})
}
