package cluster

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func auditedConfigMap() resource.Object {
	return resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "default"},
		"data":     map[string]any{"a": "1"}}
}

func TestAuditReportsAChangedStoredObject(t *testing.T) {
	for name, change := range map[string]func(s *Store, created resource.Object){
		"the result of Create": func(_ *Store, created resource.Object) {
			created["data"].(map[string]any)["a"] = "2"
		},
		"the object handed to Create": nil, // set below: it is the stored object
		"a view": func(s *Store, _ resource.Object) {
			v, err := s.View(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "settings"})
			require.NoError(t, err)
			v.Metadata()["labels"] = map[string]any{"x": "y"}
		},
		"a version replaced since": func(s *Store, created resource.Object) {
			next := created.DeepCopy()
			next["data"] = map[string]any{"a": "3"}
			_, err := s.Update(next)
			require.NoError(t, err)
			delete(created, "data")
		},
	} {
		t.Run(name, func(t *testing.T) {
			s := NewStore(nil) // not mustCreate: it checks the audit at the end
			_, err := s.Create(namespace("default"))
			require.NoError(t, err)
			s.EnableAudit()
			obj := auditedConfigMap()
			created, err := s.Create(obj)
			require.NoError(t, err)
			require.NoError(t, s.Audit())
			if change == nil {
				obj["data"] = map[string]any{}
			} else {
				change(s, created)
			}
			require.ErrorContains(t, s.Audit(), "ConfigMap")
		})
	}
}

func TestAuditIsQuietWhenTheRulesAreKept(t *testing.T) {
	s := NewStore(nil)
	require.NoError(t, s.Audit(), "auditing off")
	_, err := s.Create(namespace("default"))
	require.NoError(t, err)
	s.EnableAudit()
	created, err := s.Create(auditedConfigMap())
	require.NoError(t, err)
	got, err := s.Get(created.Ref())
	require.NoError(t, err)
	got["data"] = map[string]any{"a": "changed in a copy"} // Get's copy is the caller's
	next := created.DeepCopy()
	next["data"] = map[string]any{"a": "2"}
	_, err = s.Update(next)
	require.NoError(t, err)
	_, err = s.Delete(created.Ref())
	require.NoError(t, err)
	require.NoError(t, s.Audit())
}
