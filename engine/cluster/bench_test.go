package cluster

import (
	"fmt"
	"testing"

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
