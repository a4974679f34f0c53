package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestGetByUID(t *testing.T) {
	s := storeWith(t, 3)
	cm, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00001", Name: "settings"})
	require.NoError(t, err)
	ns, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "ns-00002"})
	require.NoError(t, err)

	tests := []struct {
		name string
		ref  resource.Ref
		uid  string
		want string // "" for NotFound
	}{
		{"a namespaced object is found in its namespace", resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00001"}, cm.UID(), "ConfigMap ns-00001/settings"},
		{"a namespaced object is found without a namespace", resource.Ref{APIVersion: "v1", Kind: "ConfigMap"}, cm.UID(), "ConfigMap ns-00001/settings"},
		{"a namespaced object is not found in another namespace", resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00002"}, cm.UID(), ""},
		{"an object is not found as another kind", resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "ns-00001"}, cm.UID(), ""},
		{"a cluster-scoped object is found, a namespace ignored", resource.Ref{APIVersion: "v1", Kind: "Namespace", Namespace: "x"}, ns.UID(), "Namespace ns-00002"},
		{"an unknown uid is not found", resource.Ref{APIVersion: "v1", Kind: "Namespace"}, "nope", ""},
		{"an empty uid is not found", resource.Ref{APIVersion: "v1", Kind: "Namespace"}, "", ""},
		{"an unknown kind is not found", resource.Ref{APIVersion: "example.com/v1", Kind: "Widget"}, ns.UID(), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.GetByUID(tt.ref, tt.uid)
			if tt.want == "" {
				require.ErrorIs(t, err, ErrNotFound)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, []string{tt.want}, names([]resource.Object{got}))
			got.Metadata()["name"] = "changed"
			again, err := s.GetByUID(tt.ref, tt.uid)
			require.NoError(t, err)
			assert.NotEqual(t, "changed", again.Name(), "the result is a copy")
		})
	}

	t.Run("a deleted object is no longer found", func(t *testing.T) {
		_, err := s.Delete(cm.Ref())
		require.NoError(t, err)
		_, err = s.GetByUID(resource.Ref{APIVersion: "v1", Kind: "ConfigMap"}, cm.UID())
		assert.ErrorIs(t, err, ErrNotFound)
	})
}

func TestKeepUIDsKeepsAnObjectsOwnUIDAsKyvernosCLIDoes(t *testing.T) {
	s := NewStore(nil)
	cm := func(name, uid string) resource.Object {
		return resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": "default", "uid": uid}}
	}
	_, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "default"}})
	require.NoError(t, err)
	got, err := s.Create(cm("a", "user-uid"))
	require.NoError(t, err)
	assert.NotEqual(t, "user-uid", got.UID(), "an API server assigns its own uid")
	s.KeepUIDs()
	got, err = s.Create(cm("b", "user-uid"))
	require.NoError(t, err)
	assert.Equal(t, "user-uid", got.UID())
	got, err = s.Create(cm("c", "user-uid"))
	require.NoError(t, err)
	assert.NotEqual(t, "user-uid", got.UID(), "a uid in use is not given twice")
}
