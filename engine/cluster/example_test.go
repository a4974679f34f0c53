package cluster_test

import (
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
)

func Example() {
	s := cluster.NewStore(cluster.NewClock())

	ns, _ := s.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace",
		"metadata": map[string]any{"name": "team-a"}})
	cm, _ := s.Create(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "team-a"}})
	fmt.Println(cm.UID(), cm.ResourceVersion(), cm.NestedString("metadata", "creationTimestamp"))

	_, err := s.Create(cm)
	fmt.Println(errors.Is(err, cluster.ErrBadRequest), err)
	delete(cm.Metadata(), "resourceVersion")
	_, err = s.Create(cm)
	fmt.Println(errors.Is(err, cluster.ErrAlreadyExists), err)

	deleted, _ := s.Delete(ns.Ref())
	for _, d := range deleted {
		fmt.Println(d.Object.Ref(), "deleted by", d.Actor)
	}
	_, err = s.Get(cm.Ref())
	fmt.Println(errors.Is(err, cluster.ErrNotFound), err)
	// Output:
	// 00000000-0000-4000-8000-000000000002 2 2024-01-01T00:00:01Z
	// true resourceVersion should not be set on objects to be created
	// true configmaps "settings" already exists
	// ConfigMap team-a/settings deleted by namespace-controller
	// Namespace team-a deleted by user
	// true configmaps "settings" not found
}
