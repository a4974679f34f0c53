package cluster

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func widgetCRD(scope string) resource.Object {
	return resource.Object{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets.example.com"},
		"spec": map[string]any{"group": "example.com", "scope": scope,
			"names":    map[string]any{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{"name": "v1", "served": true, "storage": true}}}}
}

func TestTheSystemNamespacesCannotBeDeleted(t *testing.T) {
	s := NewStore(NewClock())
	for _, ns := range []string{"default", "kube-system", "kube-public", "kube-node-lease"} {
		_, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		require.NoError(t, err)
	}
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		_, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: ns})
		require.ErrorIs(t, err, ErrForbidden)
		assert.Equal(t, `namespaces "`+ns+`" is forbidden: this namespace may not be deleted`, err.Error())
	}
	_, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "kube-node-lease"})
	assert.NoError(t, err, "only the three immortal namespaces are protected")
}

func TestDeletingACRDDeletesItsCustomResources(t *testing.T) {
	s := NewStore(NewClock())
	_, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "a"}})
	require.NoError(t, err)
	_, err = s.Create(widgetCRD("Namespaced"))
	require.NoError(t, err)
	for _, n := range []string{"w2", "w1"} {
		_, err = s.Create(resource.Object{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": map[string]any{"name": n, "namespace": "a"}})
		require.NoError(t, err)
	}
	gone, err := s.Delete(resource.Ref{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "widgets.example.com"})
	require.NoError(t, err)
	require.Len(t, gone, 3)
	assert.Equal(t, "w1", gone[0].Object.Name())
	assert.Equal(t, ActorCRDFinalizer, gone[0].Actor)
	assert.Equal(t, "w2", gone[1].Object.Name())
	assert.Equal(t, ActorUser, gone[2].Actor)
	assert.Empty(t, s.List(Query{APIVersion: "example.com/v1", Kind: "Widget"}))
}

func TestACRDCannotChangeItsScope(t *testing.T) {
	s := NewStore(NewClock())
	_, err := s.Create(widgetCRD("Namespaced"))
	require.NoError(t, err)
	_, err = s.Update(widgetCRD("Cluster"))
	require.ErrorIs(t, err, ErrInvalid)
	assert.Equal(t, `CustomResourceDefinition.apiextensions.k8s.io "widgets.example.com" is invalid: spec.scope: Invalid value: "Cluster": field is immutable`, err.Error())
	ns, known := s.Namespaced("example.com/v1", "Widget")
	assert.True(t, known)
	assert.True(t, ns, "the kind keeps its scope, so no object is stored under two keys")
}

func TestObjectsTooLargeForTheAPIServerOrEtcdAreRefused(t *testing.T) {
	s := NewStore(NewClock())
	_, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "a"}})
	require.NoError(t, err)
	policy := func(name string, spec map[string]any) resource.Object {
		return resource.Object{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
			"metadata": map[string]any{"name": name, "namespace": "a"}, "spec": spec}
	}
	mib := strings.Repeat("x", 1<<20)
	// A thousand references to one string: 1 GB as JSON, 1 MiB in memory.
	fanout := map[string]any{}
	for i := 0; i < 1000; i++ {
		fanout[fmt.Sprintf("k%d", i)] = mib
	}
	_, err = s.Create(policy("huge", fanout))
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Equal(t, "Request entity too large: limit is 3145728", err.Error())

	_, err = s.Create(policy("big", map[string]any{"a": mib, "b": mib[:600_000]}))
	require.Error(t, err)
	assert.Equal(t, "etcdserver: request is too large", err.Error(), "under the request limit, over etcd's")

	_, err = s.Create(policy("fits", map[string]any{"a": mib}))
	require.NoError(t, err)
	_, err = s.Update(policy("fits", map[string]any{"a": mib, "b": mib}))
	require.Error(t, err)
	assert.Equal(t, "etcdserver: request is too large", err.Error(), "an update too")

	_, err = s.Create(resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "a"},
		"data": map[string]any{"a": mib, "b": mib[:600_000]}})
	require.ErrorIs(t, err, ErrInvalid, "validation answers before etcd does")
}
