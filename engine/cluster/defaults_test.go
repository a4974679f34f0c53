package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestAPIServerDefaults(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("team-a"))

	t.Run("a Secret's stringData is merged into data, base64-encoded", func(t *testing.T) {
		sec, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "token", "namespace": "team-a"},
			"data":     map[string]any{"kept": "a2VwdA=="}, "stringData": map[string]any{"token": "abc"}})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"kept": "a2VwdA==", "token": "YWJj"}, sec["data"])
		assert.NotContains(t, sec, "stringData")
	})
	// Real Kyverno's recordings (testdata/oracle) hold Secrets, and their
	// clones, with type Opaque where the scenario wrote none.
	t.Run("a Secret without a type is Opaque; a type is kept", func(t *testing.T) {
		sec, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "plain", "namespace": "team-a"}})
		require.NoError(t, err)
		assert.Equal(t, "Opaque", sec["type"])
		sec, err = s.Create(resource.Object{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "pull", "namespace": "team-a"},
			"type": "kubernetes.io/dockerconfigjson", "data": map[string]any{".dockerconfigjson": "e30="}})
		require.NoError(t, err)
		assert.Equal(t, "kubernetes.io/dockerconfigjson", sec["type"])
	})
	// Real chainsaw found "00" stored as "0" (the cheat sheet's foreach
	// cases, exported, against real Kyverno v1.19.0).
	t.Run("a ResourceQuota's quantities are canonical", func(t *testing.T) {
		q, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "ResourceQuota", "metadata": map[string]any{"name": "q", "namespace": "team-a"},
			"spec": map[string]any{"hard": map[string]any{"pods": "00", "configmaps": "1000", "requests.memory": "2048Mi", "requests.cpu": "0.5",
				"limits.cpu": "2", "services": "x"}}})
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"pods": "0", "configmaps": "1k", "requests.memory": "2Gi", "requests.cpu": "500m", "limits.cpu": "2", "services": "x"},
			q["spec"].(map[string]any)["hard"])
	})
	t.Run("a Namespace is Active", func(t *testing.T) {
		ns, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, "Active", ns.NestedString("status", "phase"))
	})
	t.Run("RBAC User and Group subjects get their apiGroup", func(t *testing.T) {
		rb, err := s.Create(resource.Object{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "RoleBinding",
			"metadata": map[string]any{"name": "b", "namespace": "team-a"},
			"roleRef":  map[string]any{"apiGroup": "rbac.authorization.k8s.io", "kind": "Role", "name": "r"},
			"subjects": []any{map[string]any{"kind": "User", "name": "nancy"}, map[string]any{"kind": "ServiceAccount", "name": "sa", "namespace": "team-a"}}})
		require.NoError(t, err)
		subjects := rb["subjects"].([]any)
		assert.Equal(t, "rbac.authorization.k8s.io", subjects[0].(map[string]any)["apiGroup"])
		assert.NotContains(t, subjects[1].(map[string]any), "apiGroup")
	})
	t.Run("annotation keys are validated lowercased, as the API server does", func(t *testing.T) {
		_, err := s.Create(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "a", "namespace": "team-a", "annotations": map[string]any{"myProj/cluster.addon.sync.targetNamespace": "x"}}})
		assert.NoError(t, err)
		_, err = s.Create(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "b", "namespace": "team-a", "labels": map[string]any{"myProj/Key": "x"}}})
		assert.ErrorIs(t, err, ErrInvalid, "label keys are not lowercased")
	})
	t.Run("a CRD serves its kind with its scope and reports its accepted names", func(t *testing.T) {
		crd, err := s.Create(resource.Object{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
			"metadata": map[string]any{"name": "roles.iam.example.io"},
			"spec": map[string]any{"group": "iam.example.io", "scope": "Cluster",
				"names":    map[string]any{"kind": "Role", "plural": "roles", "listKind": "RoleList", "singular": "role"},
				"versions": []any{map[string]any{"name": "v1beta1", "served": true, "storage": true}}}})
		require.NoError(t, err)
		assert.Equal(t, "roles", crd.NestedString("status", "acceptedNames", "plural"))
		namespaced, known := s.Namespaced("iam.example.io/v1beta1", "Role")
		assert.True(t, known)
		assert.False(t, namespaced)
		info, _ := s.KindInfo("", "Role")
		assert.Equal(t, "rbac.authorization.k8s.io", info.Group, "a kind name alone still finds the built-in kind first")
	})
	t.Run("a CRD's status is the API server's: accepted names, established conditions, stored versions", func(t *testing.T) {
		crd := func(storage string, status any) resource.Object {
			versions := []any{}
			for _, v := range []string{"v1alpha1", "v1"} {
				versions = append(versions, map[string]any{"name": v, "served": true, "storage": v == storage})
			}
			return resource.Object{"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
				"metadata": map[string]any{"name": "widgets.example.io"},
				"spec": map[string]any{"group": "example.io", "scope": "Namespaced",
					"names": map[string]any{"kind": "Widget", "plural": "widgets"}, "versions": versions},
				// controller-gen writes this empty status into CRD files; the
				// API server drops what a write puts in a status subresource.
				"status": status}
		}
		emptyStatus := map[string]any{"acceptedNames": map[string]any{"kind": "", "plural": ""},
			"conditions": []any{}, "storedVersions": []any{}}
		created, err := s.Create(crd("v1alpha1", emptyStatus))
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"kind": "Widget", "listKind": "WidgetList", "plural": "widgets", "singular": "widget"},
			nested(created, "status", "acceptedNames"))
		assert.Equal(t, []any{"v1alpha1"}, nested(created, "status", "storedVersions"))
		conditions, _ := nested(created, "status", "conditions").([]any)
		require.Len(t, conditions, 2)
		for i, typ := range []string{"NamesAccepted", "Established"} {
			c := conditions[i].(map[string]any)
			assert.Equal(t, typ, c["type"])
			assert.Equal(t, "True", c["status"])
			assert.Equal(t, created.Metadata()["creationTimestamp"], c["lastTransitionTime"])
		}

		updated, err := s.Update(crd("v1", map[string]any{"storedVersions": []any{"v9"}}))
		require.NoError(t, err)
		assert.Equal(t, []any{"v1alpha1", "v1"}, nested(updated, "status", "storedVersions"),
			"a new storage version is added; the old one stays until a migration removes it")
		assert.Equal(t, conditions, nested(updated, "status", "conditions"), "the conditions keep their transition time")
	})
}

func nested(o resource.Object, path ...string) any {
	v, _ := o.Nested(path...)
	return v
}
