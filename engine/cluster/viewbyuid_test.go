package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestViewByUID(t *testing.T) {
	s := storeWith(t, 2)
	ref := resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00001", Name: "settings"}
	obj, err := s.Get(ref)
	require.NoError(t, err)
	uid := obj.UID()

	t.Run("a view by uid equals what GetByUID returns", func(t *testing.T) {
		got, err := s.GetByUID(ref, uid)
		require.NoError(t, err)
		view, err := s.ViewByUID(ref, uid)
		require.NoError(t, err)
		assert.Equal(t, got, view)
	})
	t.Run("a uid of another kind is NotFound, as with GetByUID", func(t *testing.T) {
		other := resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "ns-00001"}
		_, err := s.ViewByUID(other, uid)
		require.ErrorIs(t, err, ErrNotFound)
		_, getErr := s.GetByUID(other, uid)
		assert.Equal(t, getErr, err)
	})
	t.Run("an unknown uid is NotFound", func(t *testing.T) {
		_, err := s.ViewByUID(ref, "no-such-uid")
		require.ErrorIs(t, err, ErrNotFound)
	})
}
