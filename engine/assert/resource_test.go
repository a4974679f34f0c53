package assert_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/resource"
)

func configMap(ns, name string, data map[string]any) resource.Object {
	return resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": ns, "labels": map[string]any{"app": name}}, "data": data}
}

func lister(objs ...resource.Object) assert.Lister {
	return func(apiVersion, kind, namespace string) []resource.Object {
		var out []resource.Object
		for _, o := range objs {
			if o.APIVersion() == apiVersion && o.Kind() == kind && (namespace == "" || o.Namespace() == namespace) {
				out = append(out, o)
			}
		}
		return out
	}
}

func TestResource(t *testing.T) {
	store := lister(
		configMap("team-a", "one", map[string]any{"k": "1"}),
		configMap("team-a", "two", map[string]any{"k": "2", "extra": "x"}),
		configMap("team-b", "one", map[string]any{"k": "3"}),
	)
	tests := []struct {
		name     string
		expected resource.Object
		bindings map[string]any
		ok       bool
		failures []string
	}{
		{name: "a named object that matches passes",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "two", "namespace": "team-a"}, "data": map[string]any{"k": "2"}},
			ok:       true},
		{name: "a named object that differs explains the difference",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "one", "namespace": "team-a"}, "data": map[string]any{"k": "2"}},
			failures: []string{`ConfigMap team-a/one: data.k: expected "2", got "1"`}},
		{name: "a missing named object is not found",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "foo", "namespace": "team-a"}},
			failures: []string{`configmaps "foo" not found in namespace team-a`}},
		{name: "without a name any candidate may match",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": "team-a"}, "data": map[string]any{"extra": "x"}},
			ok:       true},
		{name: "labels are part of the match, not a filter",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": "team-b", "labels": map[string]any{"app": "two"}}},
			failures: []string{`ConfigMap team-b/one: metadata.labels.app: expected "two", got "one"`}},
		{name: "several candidates report the closest",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": "team-a"}, "data": map[string]any{"k": "9", "extra": "x"}},
			failures: []string{"none of 2 ConfigMap objects in namespace team-a match; the closest is ConfigMap team-a/two:",
				`ConfigMap team-a/two: data.k: expected "9", got "2"`}},
		{name: "no candidate in the namespace is reported",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"namespace": "team-c"}},
			failures: []string{"no ConfigMap found in namespace team-c"}},
		{name: "the name may come from a binding",
			expected: resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "($name)", "namespace": "($namespace)"}},
			bindings: map[string]any{"name": "one", "namespace": "team-b"}, ok: true},
		{name: "an expected value without kind asserts on bindings",
			expected: resource.Object{"($error)": nil}, bindings: map[string]any{"error": nil}, ok: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok, failures := assert.Resource(tt.expected, store, tt.bindings)
			require.Equal(t, tt.ok, ok)
			require.Equal(t, tt.failures, failures)
		})
	}
}

func TestAbsent(t *testing.T) {
	store := lister(configMap("team-a", "one", map[string]any{"k": "1"}))
	t.Run("passes when nothing exists", func(t *testing.T) {
		ok, failures := assert.Absent(resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x", "namespace": "team-a"}}, store, nil)
		require.True(t, ok)
		require.Empty(t, failures)
	})
	t.Run("passes when the object exists but does not match", func(t *testing.T) {
		ok, _ := assert.Absent(resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "one", "namespace": "team-a"}, "data": map[string]any{"k": "2"}}, store, nil)
		require.True(t, ok)
	})
	t.Run("fails when the object matches", func(t *testing.T) {
		ok, failures := assert.Absent(resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "one", "namespace": "team-a"}}, store, nil)
		require.False(t, ok)
		require.Equal(t, []string{"ConfigMap team-a/one matches, but it must not"}, failures)
	})
}

func TestPlural(t *testing.T) {
	for kind, want := range map[string]string{"ConfigMap": "configmaps", "NetworkPolicy": "networkpolicies", "Ingress": "ingresses", "Gateway": "gateways"} {
		t.Run(kind+" becomes "+want, func(t *testing.T) { require.Equal(t, want, assert.Plural(kind)) })
	}
}
