package cluster

import (
	"fmt"
	"testing"

	"github.com/genplay/genplay/engine/resource"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// storeWith returns a store with n namespaces, each holding one ConfigMap
// labelled team=<namespace>, and one ConfigMap labelled app=target in the
// first namespace only.
func storeWith(tb testing.TB, n int) *Store {
	s := NewStore(nil)
	for i := range n {
		ns := fmt.Sprintf("ns-%05d", i)
		mustCreate(tb, s, namespace(ns), configMap(ns, "settings", map[string]string{"team": ns, "app": "other"}))
	}
	mustCreate(tb, s, configMap("ns-00000", "target", map[string]string{"app": "target"}))
	return s
}

func TestIndexedListsDoNotScan(t *testing.T) {
	s := storeWith(t, 200)
	require.Equal(t, 401, s.Len())
	got := s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "target"}})
	assert.Equal(t, []string{"ConfigMap ns-00000/target"}, names(got))

	allocs := func(n int) float64 {
		s := storeWith(t, n)
		return testing.AllocsPerRun(20, func() {
			s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "target"}})
			s.List(Query{Kind: "ConfigMap", Namespace: "ns-00007"})
		})
	}
	assert.Equal(t, allocs(10), allocs(1000), "list allocations must not grow with the store")

}

// BenchmarkListByLabel shows that a label query costs the same with 100 or
// 10,000 namespaces: go test -bench ListBy ./engine/cluster/
func BenchmarkListByLabel(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		s := storeWith(b, n)
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			q := Query{Kind: "ConfigMap", Labels: map[string]string{"app": "target"}}
			for b.Loop() {
				if len(s.List(q)) != 1 {
					b.Fatal("want one object")
				}
			}
		})
	}
}

// BenchmarkListByNamespace shows the same for a query by kind and namespace.
func BenchmarkListByNamespace(b *testing.B) {
	for _, n := range []int{100, 10_000} {
		s := storeWith(b, n)
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			q := Query{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns-00042"}
			for b.Loop() {
				if len(s.List(q)) != 1 {
					b.Fatal("want one object")
				}
			}
		})
	}
}

// kyvernoLabels are the labels Kyverno puts on a downstream generated for
// the Namespace ns (trigger-uid unique to it, the rest shared).
func kyvernoLabels(ns string) map[string]string {
	return map[string]string{
		"app.kubernetes.io/managed-by":         "kyverno",
		"generate.kyverno.io/policy-name":      "default-deny",
		"generate.kyverno.io/rule-name":        "default-deny",
		"generate.kyverno.io/trigger-group":    "",
		"generate.kyverno.io/trigger-kind":     "Namespace",
		"generate.kyverno.io/trigger-name":     ns,
		"generate.kyverno.io/trigger-uid":      "uid-" + ns,
		"generate.kyverno.io/trigger-version":  "v1",
		"generate.kyverno.io/policy-namespace": "",
	}
}

// BenchmarkRecreateDownstream deletes and recreates one of 100 generated
// NetworkPolicies, each in its own namespace with Kyverno's labels: the
// store's share of a self-heal event, mostly index upkeep.
func BenchmarkRecreateDownstream(b *testing.B) {
	const n = 100
	s := NewStore(nil)
	var netpols []resource.Object
	for i := range n {
		ns := fmt.Sprintf("ns-%03d", i)
		np := obj("networking.k8s.io/v1", "NetworkPolicy", ns, "default-deny", kyvernoLabels(ns))
		mustCreate(b, s, namespace(ns), np)
		netpols = append(netpols, np)
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		np := netpols[i%n]
		if _, err := s.Delete(np.Ref()); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Create(np); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkIndexUpkeep is BenchmarkRecreateDownstream's index work alone:
// unindexing one of the 100 NetworkPolicies and indexing it again.
func BenchmarkIndexUpkeep(b *testing.B) {
	const n = 100
	s := NewStore(nil)
	var keys []objKey
	for i := range n {
		ns := fmt.Sprintf("ns-%03d", i)
		np := mustCreate(b, s, namespace(ns),
			obj("networking.k8s.io/v1", "NetworkPolicy", ns, "default-deny", kyvernoLabels(ns)))[1]
		keys = append(keys, objKey{gk: groupKind{"networking.k8s.io", "NetworkPolicy"}, namespace: ns, name: np.Name()})
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		e := s.objects[keys[i%n]]
		s.remove(e)
		s.insert(e.key, e.obj)
		i++
	}
}
