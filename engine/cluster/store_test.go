package cluster

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func TestCreate(t *testing.T) {
	t.Run("stamps uid, resourceVersion, generation and creationTimestamp from counters and the clock", func(t *testing.T) {
		s := NewStore(nil)
		got := mustCreate(t, s, namespace("team-a"), configMap("team-a", "settings", nil))

		assert.Equal(t, map[string]any{
			"name": "settings", "namespace": "team-a",
			"uid":               "00000000-0000-4000-8000-000000000002",
			"resourceVersion":   "2",
			"generation":        float64(1),
			"creationTimestamp": "2024-01-01T00:00:01Z",
		}, got[1]["metadata"])
		assert.Equal(t, "2024-01-01T00:00:00Z", got[0].NestedString("metadata", "creationTimestamp"))
		assert.Equal(t, "2024-01-01T00:00:02Z", s.Clock().Now().Format("2006-01-02T15:04:05Z07:00"),
			"the clock ticks once per write")
	})

	t.Run("the store takes the input over and hands back the stored object, while Get copies", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"))
		in := configMap("team-a", "settings", nil)
		out, err := s.Create(in)
		require.NoError(t, err)
		view, err := s.View(out.Ref())
		require.NoError(t, err)
		assert.True(t, sameMap(in, out) && sameMap(out, view), "no copy on the way in or out")
		assert.NotEmpty(t, in.UID(), "the stored object is the input, stamped")

		got, err := s.Get(out.Ref())
		require.NoError(t, err)
		got["data"].(map[string]any)["key"] = "changed in Get's copy"
		assert.Equal(t, "value", out.NestedString("data", "key"))
	})

	t.Run("a cluster-scoped object silently loses its namespace", func(t *testing.T) {
		s := NewStore(nil)
		got := mustCreate(t, s, obj("rbac.authorization.k8s.io/v1", "ClusterRole", "team-a", "system:viewer", nil))
		assert.Equal(t, "", got[0].Namespace())
		_, err := s.Get(resource.Ref{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRole", Name: "system:viewer"})
		assert.NoError(t, err)
	})

	t.Run("generateName gets a deterministic suffix", func(t *testing.T) {
		run := func() []string {
			s := NewStore(nil)
			mustCreate(t, s, namespace("team-a"))
			var out []string
			for range 3 {
				o := configMap("team-a", "", nil)
				o.Metadata()["generateName"] = "settings-"
				got, err := s.Create(o)
				require.NoError(t, err)
				out = append(out, got.Name())
			}
			return out
		}
		first := run()
		assert.Equal(t, first, run())
		for _, n := range first {
			assert.Regexp(t, `^settings-[bcdfghjklmnpqrstvwxz2456789]{5}$`, n)
		}
		assert.Len(t, map[string]bool{first[0]: true, first[1]: true, first[2]: true}, 3)
	})

	t.Run("values that are not JSON-shaped are normalized", func(t *testing.T) {
		s := NewStore(nil)
		o := obj("v1", "Namespace", "", "team-a", nil)
		o["spec"] = map[string]any{"replicas": 3, "tags": []string{"a", "b"}}
		got := mustCreate(t, s, o)
		assert.Equal(t, map[string]any{"replicas": float64(3), "tags": []any{"a", "b"}}, got[0]["spec"])
	})

	t.Run("every version of a group and kind shares storage", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, obj("kyverno.io/v1", "ClusterPolicy", "", "add-networkpolicy", nil))

		got, err := s.Get(resource.Ref{APIVersion: "kyverno.io/v2beta1", Kind: "ClusterPolicy", Name: "add-networkpolicy"})
		require.NoError(t, err)
		assert.Equal(t, "kyverno.io/v2beta1", got.APIVersion(), "read through v2beta1, the object says v2beta1")

		_, err = s.Create(obj("kyverno.io/v2beta1", "ClusterPolicy", "", "add-networkpolicy", nil))
		assert.ErrorIs(t, err, ErrAlreadyExists)
		assert.EqualError(t, err, `clusterpolicies.kyverno.io "add-networkpolicy" already exists`)
	})
}

func TestCreateErrors(t *testing.T) {
	tests := []struct {
		name    string
		obj     resource.Object
		want    error
		message string
	}{
		{"a duplicate core object is AlreadyExists", configMap("team-a", "existing", nil),
			ErrAlreadyExists, `configmaps "existing" already exists`},
		{"a duplicate grouped object names resource.group", obj("apps/v1", "Deployment", "team-a", "web", nil),
			ErrAlreadyExists, `deployments.apps "web" already exists`},
		{"an object in a missing namespace is NotFound on the namespace", configMap("team-b", "settings", nil),
			ErrNotFound, `namespaces "team-b" not found`},
		{"an object in a terminating namespace is Forbidden", configMap("leaving", "settings", nil),
			ErrForbidden, `configmaps "settings" is forbidden: unable to create new content in namespace leaving because it is being terminated`},
		{"a namespaced object without a namespace is Invalid", configMap("", "settings", nil),
			ErrInvalid, `ConfigMap "settings" is invalid: metadata.namespace: Required value: a namespaced ConfigMap needs a namespace`},
		{"an object without a name is Invalid", configMap("team-a", "", nil),
			ErrInvalid, `ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required`},
		{"an upper-case name is Invalid", configMap("team-a", "Settings", nil),
			ErrInvalid, `ConfigMap "Settings" is invalid: metadata.name: Invalid value: "Settings": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`},
		{"several problems are listed in brackets", configMap("team-a", "Settings", map[string]string{"bad key": "ok"}),
			ErrInvalid, `ConfigMap "Settings" is invalid: [metadata.name: Invalid value: "Settings": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), metadata.labels: Invalid value: "bad key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')]`},
		{"a resourceVersion on a new object is a BadRequest", func() resource.Object {
			o := configMap("team-a", "settings", nil)
			o.Metadata()["resourceVersion"] = "7"
			return o
		}(), ErrBadRequest, "resourceVersion should not be set on objects to be created"},
		{"an object without a kind is a BadRequest", resource.Object{"apiVersion": "v1", "metadata": map[string]any{"name": "x"}},
			ErrBadRequest, "Object 'Kind' is missing or not a string"},
		{"an object without an apiVersion is a BadRequest", resource.Object{"kind": "ConfigMap", "metadata": map[string]any{"name": "x"}},
			ErrBadRequest, "Object 'apiVersion' is missing or not a string"},
		{"metadata that is not an object is a BadRequest", resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": "x"},
			ErrBadRequest, "metadata must be an object"},
		{"a name that is not a string is a BadRequest", resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": 3.0}},
			ErrBadRequest, "metadata.name must be a string"},
		{"a nil object is a BadRequest", nil, ErrBadRequest, "object is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(nil)
			leaving := namespace("leaving")
			leaving["status"] = map[string]any{"phase": "Terminating"}
			mustCreate(t, s, namespace("team-a"), leaving,
				configMap("team-a", "existing", nil), obj("apps/v1", "Deployment", "team-a", "web", nil))
			before := s.Len()

			_, err := s.Create(tt.obj)
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			assert.EqualError(t, err, tt.message)
			var se *StatusError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.want.(*StatusError).Code, se.Code)
			assert.Equal(t, before, s.Len(), "a failed create stores nothing")
		})
	}
}

func TestKinds(t *testing.T) {
	t.Run("built-in kinds know their scope and plural", func(t *testing.T) {
		s := NewStore(nil)
		tests := []struct {
			apiVersion, kind, resource string
			namespaced                 bool
		}{
			{"v1", "Namespace", "namespaces", false},
			{"v1", "ConfigMap", "configmaps", true},
			{"v1", "Endpoints", "endpoints", true},
			{"v1", "Node", "nodes", false},
			{"networking.k8s.io/v1", "NetworkPolicy", "networkpolicies", true},
			{"networking.k8s.io/v1", "IngressClass", "ingressclasses", false},
			{"storage.k8s.io/v1", "StorageClass", "storageclasses", false},
			{"kyverno.io/v1", "ClusterPolicy", "clusterpolicies", false},
			{"kyverno.io/v1", "Policy", "policies", true},
			{"kyverno.io/v2", "UpdateRequest", "updaterequests", true},
			{"admissionregistration.k8s.io/v1", "ValidatingWebhookConfiguration", "validatingwebhookconfigurations", false},
		}
		for _, tt := range tests {
			info, ok := s.KindInfo(tt.apiVersion, tt.kind)
			require.True(t, ok, tt.kind)
			assert.Equal(t, tt.resource, info.Resource, tt.kind)
			assert.Equal(t, tt.namespaced, info.Namespaced, tt.kind)
			assert.False(t, s.Inferred(tt.apiVersion, tt.kind), tt.kind)
		}
	})

	t.Run("a kind alone finds the first registered version", func(t *testing.T) {
		s := NewStore(nil)
		info, ok := s.KindInfo("", "Event")
		require.True(t, ok)
		assert.Equal(t, "v1", info.APIVersion())
		info, ok = s.KindInfo("", "ClusterPolicy")
		require.True(t, ok)
		assert.Equal(t, "kyverno.io/v1", info.APIVersion())
	})

	t.Run("an unknown kind is unknown", func(t *testing.T) {
		namespaced, known := NewStore(nil).Namespaced("example.com/v1", "Widget")
		assert.False(t, namespaced)
		assert.False(t, known)
	})

	t.Run("creating an unknown kind registers it with the scope the object suggests", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"),
			obj("example.com/v1", "Widget", "team-a", "w", nil),
			obj("example.com/v1", "Gadget", "", "g", nil))

		namespaced, known := s.Namespaced("example.com/v1", "Widget")
		assert.True(t, known)
		assert.True(t, namespaced)
		assert.True(t, s.Inferred("example.com/v1", "Widget"))
		namespaced, _ = s.Namespaced("example.com/v1", "Gadget")
		assert.False(t, namespaced)
		info, _ := s.KindInfo("example.com/v1", "Policy")
		assert.Empty(t, info.Kind)
		info, _ = s.KindInfo("example.com/v1", "Widget")
		assert.Equal(t, "widgets", info.Resource)
	})

	t.Run("an unknown version of a known kind takes the known scope", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, obj("kyverno.io/v9", "ClusterPolicy", "ignored", "p", nil))
		namespaced, _ := s.Namespaced("kyverno.io/v9", "ClusterPolicy")
		assert.False(t, namespaced)
		assert.True(t, s.Inferred("kyverno.io/v9", "ClusterPolicy"))
		_, err := s.Get(resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "p"})
		assert.NoError(t, err, "the new version shares storage with the known ones")
	})

	t.Run("registering a kind replaces an inferred guess", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, obj("example.com/v1", "Widget", "", "w", nil))
		s.RegisterKind(KindInfo{Group: "example.com", Version: "v1", Kind: "Widget", Resource: "widgetz"})
		assert.False(t, s.Inferred("example.com/v1", "Widget"))
		info, _ := s.KindInfo("example.com/v1", "Widget")
		assert.Equal(t, "widgetz", info.Resource)
		assert.Equal(t, info, s.Kinds()[len(s.Kinds())-1])
	})

	t.Run("plural names follow English rules", func(t *testing.T) {
		for kind, want := range map[string]string{
			"Widget": "widgets", "Policy": "policies", "Gateway": "gateways", "Ingress": "ingresses",
			"Box": "boxes", "Mesh": "meshes", "Patch": "patches", "": "",
		} {
			assert.Equal(t, want, plural(kind), kind)
		}
	})
}

func TestUpdate(t *testing.T) {
	setup := func(t *testing.T) (*Store, resource.Object) {
		s := NewStore(nil)
		got := mustCreate(t, s, namespace("team-a"), obj("apps/v1", "Deployment", "team-a", "web", nil))
		d := got[1]
		d["spec"] = map[string]any{"replicas": 1.0}
		d, err := s.Update(d)
		require.NoError(t, err)
		return s, d.DeepCopy() // Update's result is read-only
	}

	t.Run("a spec change bumps resourceVersion and generation and keeps uid and creationTimestamp", func(t *testing.T) {
		s, d := setup(t)
		before := d.DeepCopy()
		d["spec"] = map[string]any{"replicas": 2.0}
		d.Metadata()["creationTimestamp"] = "1999-01-01T00:00:00Z"
		got, changed, err := s.UpdateChanged(d)
		require.NoError(t, err)
		assert.True(t, changed)
		assert.Equal(t, "4", got.ResourceVersion())
		assert.Equal(t, float64(3), got["metadata"].(map[string]any)["generation"])
		assert.Equal(t, before.UID(), got.UID())
		assert.Equal(t, before.NestedString("metadata", "creationTimestamp"), got.NestedString("metadata", "creationTimestamp"))
	})

	t.Run("a label or status change keeps the generation", func(t *testing.T) {
		s, d := setup(t)
		d.SetLabels(map[string]string{"app": "web"})
		d["status"] = map[string]any{"readyReplicas": 1.0}
		got, err := s.Update(d)
		require.NoError(t, err)
		assert.Equal(t, float64(2), got["metadata"].(map[string]any)["generation"])
		assert.Equal(t, "4", got.ResourceVersion())
	})

	t.Run("an update that changes nothing writes nothing", func(t *testing.T) {
		s, d := setup(t)
		now := s.Clock().Now()
		d.Metadata()["resourceVersion"] = ""
		d.Metadata()["generation"] = 42.0
		got, changed, err := s.UpdateChanged(d)
		require.NoError(t, err)
		assert.False(t, changed)
		assert.Equal(t, "3", got.ResourceVersion())
		assert.Equal(t, now, s.Clock().Now(), "the clock did not tick")
		again, err := s.Update(got)
		require.NoError(t, err)
		assert.Equal(t, got, again)
	})

	t.Run("a newer apiVersion of the same kind is stored as given", func(t *testing.T) {
		s := NewStore(nil)
		p := mustCreate(t, s, obj("kyverno.io/v1", "ClusterPolicy", "", "p", nil))[0]
		p["apiVersion"] = "kyverno.io/v2beta1"
		got, changed, err := s.UpdateChanged(p)
		require.NoError(t, err)
		assert.True(t, changed)
		assert.Equal(t, "kyverno.io/v2beta1", got.APIVersion())
	})

	tests := []struct {
		name    string
		edit    func(d resource.Object) resource.Object
		want    error
		message string
	}{
		{"a stale resourceVersion is a Conflict",
			func(d resource.Object) resource.Object { d.Metadata()["resourceVersion"] = "2"; return d },
			ErrConflict, `Operation cannot be fulfilled on deployments.apps "web": the object has been modified; please apply your changes to the latest version and try again`},
		{"another uid is a Conflict",
			func(d resource.Object) resource.Object { d.Metadata()["uid"] = "other"; return d },
			ErrConflict, `Operation cannot be fulfilled on deployments.apps "web": Precondition failed: UID in precondition: other, UID in object meta: 00000000-0000-4000-8000-000000000002`},
		{"a missing object is NotFound",
			func(d resource.Object) resource.Object { d.Metadata()["name"] = "api"; return d },
			ErrNotFound, `deployments.apps "api" not found`},
		{"an object in another namespace is NotFound",
			func(d resource.Object) resource.Object { d.Metadata()["namespace"] = "team-b"; return d },
			ErrNotFound, `deployments.apps "web" not found`},
		{"an unknown kind is NotFound",
			func(d resource.Object) resource.Object {
				d["apiVersion"] = "example.com/v1"
				d["kind"] = "Widget"
				return d
			},
			ErrNotFound, `widgets.example.com "web" not found`},
		{"an invalid label value is Invalid",
			func(d resource.Object) resource.Object { d.SetLabels(map[string]string{"app": "-web"}); return d },
			ErrInvalid, `Deployment "web" is invalid: metadata.labels: Invalid value: "-web": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`},
		{"a missing name is Invalid",
			func(d resource.Object) resource.Object { delete(d.Metadata(), "name"); return d },
			ErrInvalid, `Deployment "" is invalid: metadata.name: Required value: name or generateName is required`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, d := setup(t)
			_, err := s.Update(tt.edit(d))
			assert.ErrorIs(t, err, tt.want)
			assert.EqualError(t, err, tt.message)
			got, err := s.Get(resource.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "team-a", Name: "web"})
			require.NoError(t, err)
			assert.Equal(t, "3", got.ResourceVersion(), "a failed update writes nothing")
		})
	}

	t.Run("an empty resourceVersion updates unconditionally", func(t *testing.T) {
		s, d := setup(t)
		delete(d.Metadata(), "resourceVersion")
		d["spec"] = map[string]any{"replicas": 5.0}
		_, err := s.Update(d)
		assert.NoError(t, err)
	})
}

func TestGet(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("team-a"), configMap("team-a", "settings", nil),
		obj("storage.k8s.io/v1", "StorageClass", "", "fast", nil))

	tests := []struct {
		name    string
		ref     resource.Ref
		want    string
		message string
	}{
		{"finds a namespaced object", resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"}, "ConfigMap team-a/settings", ""},
		{"finds by kind alone", resource.Ref{Kind: "ConfigMap", Namespace: "team-a", Name: "settings"}, "ConfigMap team-a/settings", ""},
		{"ignores a namespace for a cluster-scoped kind", resource.Ref{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass", Namespace: "team-a", Name: "fast"}, "StorageClass fast", ""},
		{"misses in another namespace", resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-b", Name: "settings"}, "", `configmaps "settings" not found`},
		{"misses a namespaced object without a namespace", resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Name: "settings"}, "", `configmaps "settings" not found`},
		{"misses an unknown kind", resource.Ref{APIVersion: "example.com/v1", Kind: "Widget", Name: "w"}, "", `widgets.example.com "w" not found`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := s.Get(tt.ref)
			if tt.message != "" {
				assert.ErrorIs(t, err, ErrNotFound)
				assert.EqualError(t, err, tt.message)
				assert.Nil(t, got)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got.Ref().String())
		})
	}
}

func TestList(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("team-b"), namespace("team-a"),
		configMap("team-b", "zeta", map[string]string{"app": "web", "tier": "front"}),
		configMap("team-a", "beta", map[string]string{"app": "web", "tier": "back"}),
		configMap("team-a", "alpha", map[string]string{"app": "web", "tier": "front"}),
		configMap("team-a", "gamma", map[string]string{"app": "db"}),
		obj("v1", "Secret", "team-a", "token", map[string]string{"app": "web"}),
		obj("apps/v1", "Deployment", "team-a", "web", map[string]string{"app": "web"}),
		obj("storage.k8s.io/v1", "StorageClass", "", "fast", map[string]string{"app": "web"}),
	)

	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"one kind in all namespaces, sorted by namespace then name", Query{APIVersion: "v1", Kind: "ConfigMap"},
			[]string{"ConfigMap team-a/alpha", "ConfigMap team-a/beta", "ConfigMap team-a/gamma", "ConfigMap team-b/zeta"}},
		{"one kind in one namespace", Query{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-b"},
			[]string{"ConfigMap team-b/zeta"}},
		{"labels are ANDed", Query{Kind: "ConfigMap", Labels: map[string]string{"app": "web", "tier": "front"}},
			[]string{"ConfigMap team-a/alpha", "ConfigMap team-b/zeta"}},
		{"labels within one namespace", Query{Kind: "ConfigMap", Namespace: "team-a", Labels: map[string]string{"app": "web"}},
			[]string{"ConfigMap team-a/alpha", "ConfigMap team-a/beta"}},
		{"an absent label value matches nothing", Query{Kind: "ConfigMap", Labels: map[string]string{"app": "cache"}}, nil},
		{"the selector filters further", Query{Kind: "ConfigMap", Selector: func(l map[string]string) bool { return l["tier"] != "front" }},
			[]string{"ConfigMap team-a/beta", "ConfigMap team-a/gamma"}},
		{"an unknown kind lists nothing", Query{APIVersion: "example.com/v1", Kind: "Widget"}, nil},
		{"a cluster-scoped kind ignores the namespace", Query{APIVersion: "storage.k8s.io/v1", Kind: "StorageClass", Namespace: "team-a"},
			[]string{"StorageClass fast"}},
		{"cluster-scoped kinds list by label", Query{Kind: "StorageClass", Labels: map[string]string{"app": "web"}},
			[]string{"StorageClass fast"}},
		{"no kind lists every kind in the namespace by group, kind and name", Query{Namespace: "team-a", Labels: map[string]string{"app": "web"}},
			[]string{"ConfigMap team-a/alpha", "ConfigMap team-a/beta", "Secret team-a/token", "Deployment team-a/web"}},
		{"namespaces list as a kind", Query{Kind: "Namespace"}, []string{"Namespace team-a", "Namespace team-b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.List(tt.q)
			if tt.want == nil {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, tt.want, names(got))
		})
	}

	t.Run("results are copies", func(t *testing.T) {
		got := s.List(Query{Kind: "ConfigMap", Namespace: "team-b"})
		got[0].SetLabels(nil)
		got[0]["data"].(map[string]any)["key"] = "x"
		again := s.List(Query{Kind: "ConfigMap", Namespace: "team-b"})
		assert.Equal(t, "web", again[0].Labels()["app"])
		assert.Equal(t, "value", again[0].NestedString("data", "key"))
	})

	t.Run("the selector gets a copy of the labels", func(t *testing.T) {
		s.List(Query{Kind: "ConfigMap", Selector: func(l map[string]string) bool { l["app"] = "mangled"; return true }})
		assert.Len(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "web"}}), 3)
	})

	t.Run("All sorts every object by group, kind, namespace and name", func(t *testing.T) {
		assert.Equal(t, []string{
			"ConfigMap team-a/alpha", "ConfigMap team-a/beta", "ConfigMap team-a/gamma", "ConfigMap team-b/zeta",
			"Namespace team-a", "Namespace team-b", "Secret team-a/token",
			"Deployment team-a/web", "StorageClass fast",
		}, names(s.All()))
		assert.Equal(t, 9, s.Len())
	})
}

func TestIndexesFollowWrites(t *testing.T) {
	s := NewStore(nil)
	cm := mustCreate(t, s, namespace("team-a"), configMap("team-a", "settings", map[string]string{"app": "web"}))[1]

	cm.SetLabels(map[string]string{"app": "db"})
	_, err := s.Update(cm)
	require.NoError(t, err)
	assert.Empty(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "web"}}), "the old label is unindexed")
	assert.Len(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "db"}}), 1)

	_, err = s.Delete(cm.Ref())
	require.NoError(t, err)
	assert.Empty(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "db"}}))
	assert.Empty(t, s.List(Query{Kind: "ConfigMap"}))
	assert.Empty(t, s.List(Query{Namespace: "team-a"}))
	assert.Empty(t, s.byType[s.kindID(groupKind{kind: "ConfigMap"})], "empty index maps are dropped")
	_, err = s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-a"})
	require.NoError(t, err)
	assert.Empty(t, s.byLabel, "the Namespace's kubernetes.io/metadata.name label is unindexed too")
	assert.Empty(t, s.byNS)
}

func TestDelete(t *testing.T) {
	t.Run("deletes the requested object as the user", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"), configMap("team-a", "settings", nil))
		ds, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"})
		require.NoError(t, err)
		assert.Equal(t, []string{"ConfigMap team-a/settings by user"}, deletions(ds))
		assert.Equal(t, "value", ds[0].Object.NestedString("data", "key"), "the deletion carries the object as it was")
		assert.NotEmpty(t, ds[0].Object.UID())
		_, err = s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"})
		assert.ErrorIs(t, err, ErrNotFound)
	})

	t.Run("a missing object is NotFound", func(t *testing.T) {
		_, err := NewStore(nil).Delete(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "team-a", Name: "settings"})
		assert.ErrorIs(t, err, ErrNotFound)
		assert.EqualError(t, err, `configmaps "settings" not found`)
	})

	t.Run("deleting a namespace deletes its contents first", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"), namespace("team-b"),
			configMap("team-a", "settings", nil), obj("v1", "Secret", "team-a", "token", nil),
			obj("networking.k8s.io/v1", "NetworkPolicy", "team-a", "deny-all", nil),
			configMap("team-b", "settings", nil))
		ds, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, []string{
			"ConfigMap team-a/settings by namespace-controller",
			"Secret team-a/token by namespace-controller",
			"NetworkPolicy team-a/deny-all by namespace-controller",
			"Namespace team-a by user",
		}, deletions(ds))
		assert.Equal(t, []string{"ConfigMap team-b/settings", "Namespace team-b"}, names(s.All()))

		_, err = s.Create(configMap("team-a", "settings", nil))
		assert.EqualError(t, err, `namespaces "team-a" not found`, "nothing can be created in a deleted namespace")
	})

	t.Run("the garbage collector follows owner references recursively", func(t *testing.T) {
		s := NewStore(nil)
		ns := mustCreate(t, s, namespace("team-a"))[0]
		d := mustCreate(t, s, obj("apps/v1", "Deployment", "team-a", "web", nil))[0]
		rs := mustCreate(t, s, owned(obj("apps/v1", "ReplicaSet", "team-a", "web-1", nil), d))[0]
		mustCreate(t, s,
			owned(obj("v1", "Pod", "team-a", "web-1-b", nil), rs),
			owned(obj("v1", "Pod", "team-a", "web-1-a", nil), rs),
			owned(configMap("team-a", "owned-by-namespace", nil), ns))

		ds, err := s.Delete(d.Ref())
		require.NoError(t, err)
		assert.Equal(t, []string{
			"Pod team-a/web-1-a by garbage-collector",
			"Pod team-a/web-1-b by garbage-collector",
			"ReplicaSet team-a/web-1 by garbage-collector",
			"Deployment team-a/web by user",
		}, deletions(ds))
		assert.Equal(t, []string{"ConfigMap team-a/owned-by-namespace", "Namespace team-a"}, names(s.All()))
	})

	t.Run("a dependent with another live owner survives", func(t *testing.T) {
		s := NewStore(nil)
		owners := mustCreate(t, s, obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "a", nil),
			obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "b", nil))
		mustCreate(t, s, owned(obj("rbac.authorization.k8s.io/v1", "ClusterRoleBinding", "", "shared", nil), owners...))

		ds, err := s.Delete(owners[0].Ref())
		require.NoError(t, err)
		assert.Equal(t, []string{"ClusterRole a by user"}, deletions(ds))

		ds, err = s.Delete(owners[1].Ref())
		require.NoError(t, err)
		assert.Equal(t, []string{"ClusterRoleBinding shared by garbage-collector", "ClusterRole b by user"}, deletions(ds))
	})

	t.Run("a cluster-scoped owner collects namespaced dependents in every namespace", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"), namespace("team-b"))
		owner := mustCreate(t, s, obj("kyverno.io/v1", "ClusterPolicy", "", "generate", nil))[0]
		mustCreate(t, s, owned(configMap("team-b", "generated", nil), owner), owned(configMap("team-a", "generated", nil), owner))
		ds, err := s.Delete(resource.Ref{Kind: "ClusterPolicy", Name: "generate"})
		require.NoError(t, err)
		assert.Equal(t, []string{
			"ConfigMap team-a/generated by garbage-collector",
			"ConfigMap team-b/generated by garbage-collector",
			"ClusterPolicy generate by user",
		}, deletions(ds))
	})

	t.Run("two owners deleted with their namespace take their shared dependent with them", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"))
		owners := mustCreate(t, s, obj("v1", "Secret", "team-a", "a", nil), obj("v1", "ServiceAccount", "team-a", "b", nil))
		mustCreate(t, s, owned(configMap("team-a", "shared", nil), owners...))
		ds, err := s.Delete(resource.Ref{Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, []string{
			"ConfigMap team-a/shared by namespace-controller",
			"Secret team-a/a by namespace-controller",
			"ServiceAccount team-a/b by namespace-controller",
			"Namespace team-a by user",
		}, deletions(ds))
		assert.Zero(t, s.Len())
	})

	t.Run("an owner deleted as namespace content collects its dependents first", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"))
		owner := mustCreate(t, s, obj("v1", "Secret", "team-a", "owner", nil))[0]
		mustCreate(t, s, owned(obj("v1", "Secret", "team-a", "dependent", nil), owner))
		ds, err := s.Delete(resource.Ref{Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, []string{
			"Secret team-a/dependent by namespace-controller",
			"Secret team-a/owner by namespace-controller",
			"Namespace team-a by user",
		}, deletions(ds))

		s = NewStore(nil)
		mustCreate(t, s, namespace("team-a"))
		owner = mustCreate(t, s, obj("v1", "Secret", "team-a", "a-owner", nil))[0]
		mustCreate(t, s, owned(obj("v1", "Secret", "team-a", "b-dependent", nil), owner))
		ds, err = s.Delete(resource.Ref{Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, []string{
			"Secret team-a/b-dependent by garbage-collector",
			"Secret team-a/a-owner by namespace-controller",
			"Namespace team-a by user",
		}, deletions(ds))
	})

	t.Run("an ownership cycle ends", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"))
		a := mustCreate(t, s, configMap("team-a", "a", nil))[0]
		b := mustCreate(t, s, owned(configMap("team-a", "b", nil), a))[0]
		a = owned(a, b)
		_, err := s.Update(a)
		require.NoError(t, err)
		ds, err := s.Delete(b.Ref())
		require.NoError(t, err)
		assert.Equal(t, []string{"ConfigMap team-a/a by garbage-collector", "ConfigMap team-a/b by user"}, deletions(ds))
	})

	t.Run("a deletion is one write", func(t *testing.T) {
		s := NewStore(nil)
		mustCreate(t, s, namespace("team-a"), configMap("team-a", "a", nil), configMap("team-a", "b", nil))
		before := s.Clock().Now()
		_, err := s.Delete(resource.Ref{Kind: "Namespace", Name: "team-a"})
		require.NoError(t, err)
		assert.Equal(t, before.Add(1e9), s.Clock().Now())
	})
}

func TestDeterminism(t *testing.T) {
	run := func() ([]resource.Object, []Deletion) {
		s := NewStore(nil)
		for i := range 20 {
			ns := fmt.Sprintf("ns-%02d", (i*7)%20)
			mustCreate(t, s, namespace(ns))
			owner := mustCreate(t, s, configMap(ns, "owner", map[string]string{"i": fmt.Sprint(i)}))[0]
			dep := owned(configMap(ns, "", nil), owner)
			dep.Metadata()["generateName"] = "dep-"
			mustCreate(t, s, dep)
		}
		var all []Deletion
		for i := range 10 {
			ds, err := s.Delete(resource.Ref{Kind: "Namespace", Name: fmt.Sprintf("ns-%02d", i*2)})
			require.NoError(t, err)
			all = append(all, ds...)
		}
		return s.All(), all
	}
	objs1, dels1 := run()
	objs2, dels2 := run()
	assert.Equal(t, objs1, objs2)
	assert.Equal(t, dels1, dels2)
	assert.Len(t, objs1, 30)
	assert.Len(t, dels1, 30)
}

func TestStatusErrors(t *testing.T) {
	s := NewStore(nil)
	_, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "x", Name: "y"})
	wrapped := fmt.Errorf("apply ConfigMap x/y: %w", err)

	tests := []struct {
		name     string
		sentinel error
		want     bool
	}{
		{"a NotFound error is ErrNotFound even when wrapped", ErrNotFound, true},
		{"a NotFound error is not ErrAlreadyExists", ErrAlreadyExists, false},
		{"a NotFound error is not ErrConflict", ErrConflict, false},
		{"a NotFound error is not ErrInvalid", ErrInvalid, false},
		{"a NotFound error is not a plain error with the same text", errors.New(`configmaps "y" not found`), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, errors.Is(wrapped, tt.sentinel))
		})
	}

	t.Run("field errors render like the API server's", func(t *testing.T) {
		assert.Equal(t, `metadata.name: Invalid value: "X": bad`,
			FieldError{Type: "Invalid value", Field: "metadata.name", Value: `"X"`, Detail: "bad"}.Error())
		assert.Equal(t, "metadata.name: Required value",
			FieldError{Type: "Required value", Field: "metadata.name"}.Error())
	})
}

func TestNamespacesCarryTheirNameLabel(t *testing.T) {
	s := NewStore(nil)
	ns := mustCreate(t, s, namespace("team-a"))[0]
	assert.Equal(t, "team-a", ns.Labels()["kubernetes.io/metadata.name"], "set on create")
	ns.SetLabels(map[string]string{"env": "prod"})
	updated, err := s.Update(ns)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"env": "prod", "kubernetes.io/metadata.name": "team-a"}, updated.Labels(), "kept on update")
}
