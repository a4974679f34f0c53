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

func TestSnapshotIsAllWithoutCopies(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("team-b"), namespace("team-a"),
		configMap("team-b", "z", nil), configMap("team-a", "settings", map[string]string{"app": "web"}))
	snap := s.Snapshot()
	all := s.All()
	require.Len(t, snap, len(all))
	for i := range all {
		assert.True(t, resource.Equal(all[i], snap[i]), "%s", all[i].Ref())
		view, err := s.View(snap[i].Ref())
		require.NoError(t, err)
		assert.True(t, sameMap(view, snap[i]), "%s is the stored object", snap[i].Ref())
	}

	ref := resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"}
	next, err := s.Get(ref)
	require.NoError(t, err)
	next["data"] = map[string]any{"key": "changed"}
	_, err = s.Update(next)
	require.NoError(t, err)
	for _, o := range snap {
		if o.Ref() == ref {
			assert.Equal(t, "value", o.NestedString("data", "key"), "a snapshot keeps the version it was taken with")
		}
	}
}
