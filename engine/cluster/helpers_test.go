package cluster

import (
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// obj builds an object; labels may be nil.
func obj(apiVersion, kind, namespace, name string, labels map[string]string) resource.Object {
	md := map[string]any{"name": name}
	if namespace != "" {
		md["namespace"] = namespace
	}
	o := resource.Object{"apiVersion": apiVersion, "kind": kind, "metadata": md}
	if len(labels) > 0 {
		o.SetLabels(labels)
	}
	return o
}

func configMap(namespace, name string, labels map[string]string) resource.Object {
	o := obj("v1", "ConfigMap", namespace, name, labels)
	o["data"] = map[string]any{"key": "value"}
	return o
}

func namespace(name string) resource.Object { return obj("v1", "Namespace", "", name, nil) }

// owned returns o with an ownerReference to each owner.
func owned(o resource.Object, owners ...resource.Object) resource.Object {
	var refs []any
	for _, ow := range owners {
		refs = append(refs, map[string]any{
			"apiVersion": ow.APIVersion(), "kind": ow.Kind(), "name": ow.Name(), "uid": ow.UID(),
		})
	}
	o.Metadata()["ownerReferences"] = refs
	return o
}

// mustCreate creates every object and returns copies of them as stored,
// which the test may change (Create's own result is read-only). The store
// audits the ownership rules from then on, once when the test ends (see
// checkAudit), however often the test calls mustCreate.
func mustCreate(t testing.TB, s *Store, objs ...resource.Object) []resource.Object {
	t.Helper()
	if _, registered := audited.LoadOrStore(s, true); !registered {
		s.EnableAudit()
		t.Cleanup(func() {
			audited.Delete(s)
			checkAudit(t, s)
		})
	}
	out := make([]resource.Object, len(objs))
	for i, o := range objs {
		got, err := s.Create(o)
		require.NoError(t, err, "create %s", o.Ref())
		out[i] = got.DeepCopy()
	}
	return out
}

// audited holds the stores whose audit a test's cleanup will check.
var audited sync.Map // *Store -> true

// checkAudit fails the test when the store it used holds an object changed
// after it was stored.
func checkAudit(t testing.TB, s *Store) {
	t.Helper()
	require.NoError(t, s.Audit(), "the store's ownership audit")
}

func names(objs []resource.Object) []string {
	out := make([]string, len(objs))
	for i, o := range objs {
		if o.Namespace() != "" {
			out[i] = o.Kind() + " " + o.Namespace() + "/" + o.Name()
		} else {
			out[i] = o.Kind() + " " + o.Name()
		}
	}
	return out
}

func deletions(ds []Deletion) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Object.Ref().String() + " by " + d.Actor
	}
	return out
}

// sameMap reports whether a and b are the same map, not equal copies.
func sameMap(a, b resource.Object) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
