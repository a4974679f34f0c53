package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestView(t *testing.T) {
	s := storeWith(t, 2)
	ref := resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00001", Name: "settings"}

	t.Run("a view equals what Get returns", func(t *testing.T) {
		got, err := s.Get(ref)
		require.NoError(t, err)
		view, err := s.View(ref)
		require.NoError(t, err)
		assert.Equal(t, got, view)
	})
	t.Run("a view keeps its version after the object is updated", func(t *testing.T) {
		view, err := s.View(ref)
		require.NoError(t, err)
		rv := view.ResourceVersion()
		obj, err := s.Get(ref)
		require.NoError(t, err)
		obj["data"] = map[string]any{"changed": "yes"}
		updated, err := s.Update(obj)
		require.NoError(t, err)
		require.NotEqual(t, rv, updated.ResourceVersion())
		assert.Equal(t, rv, view.ResourceVersion(), "the store did not change the viewed object in place")
		again, err := s.View(ref)
		require.NoError(t, err)
		assert.Equal(t, updated.ResourceVersion(), again.ResourceVersion())
	})
	t.Run("a missing object is NotFound", func(t *testing.T) {
		_, err := s.View(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00001", Name: "nope"})
		require.ErrorIs(t, err, ErrNotFound)
	})
}
