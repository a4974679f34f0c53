package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// The CEL family's benchmarks, like the ClusterPolicy ones (bench_test.go):
//
//	go test -run '^$' -bench CEL -benchmem ./engine/
//
// Self-heal is a revert: Kyverno 1.19 recreates a deleted downstream only
// once (kyverno#17265), so a benchmark that deletes the same downstream
// again would measure nothing; a modified downstream is reverted every time.

var celBenchSizes = []int{100, 10_000}

// celRevert edits one tracked downstream; the watcher reverts it.
func (s *Session) celRevert(tb testing.TB, i int) {
	ref := netpolRef(i)
	live, err := s.store.Get(ref)
	require.NoError(tb, err)
	live.SetLabels(map[string]string{"edited": fmt.Sprint(i)})
	s.benchStep(tb, "edit", func() error { _, _, err := s.Put(ModeUpdate, live, nil); return err })
}

func BenchmarkCELSelfHeal(b *testing.B) {
	for _, n := range celBenchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := celSession(b, n, false)
			s.celPut(b, gpolNetpol(0, true, false, "CREATE, UPDATE"))
			s.benchNamespaces(b, n)
			require.Equal(b, n, s.benchCount("NetworkPolicy"))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				s.celRevert(b, i%n)
				i++
			}
			b.StopTimer()
			np, err := s.store.Get(netpolRef(0))
			require.NoError(b, err)
			_, edited := np.Label("edited")
			require.False(b, edited, "the edit was reverted")
		})
	}
}

// BenchmarkCELPolicyUpdate changes the policy's data per iteration: 1.19.0
// deletes all N tracked downstreams and regenerates them.
func BenchmarkCELPolicyUpdate(b *testing.B) {
	for _, n := range celBenchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := celSession(b, n, false)
			s.celPut(b, gpolNetpol(0, true, false, "CREATE, UPDATE"))
			s.benchNamespaces(b, n)
			b.ReportAllocs()
			rev := 0
			for b.Loop() {
				rev++
				b.StopTimer()
				obj, doc := benchObject(b, gpolNetpol(rev, true, false, "CREATE, UPDATE"))
				b.StartTimer()
				s.benchPut(b, obj, doc)
			}
			b.StopTimer()
			np, err := s.store.Get(netpolRef(n - 1))
			require.NoError(b, err)
			require.Equal(b, fmt.Sprint(rev), np.NestedString("spec", "podSelector", "matchLabels", "rev"))
		})
	}
}

// BenchmarkCELGenerateExisting creates a generateExisting policy over N
// existing namespaces per iteration (and, untimed, deletes it and what it
// generated again).
func BenchmarkCELGenerateExisting(b *testing.B) {
	for _, n := range celBenchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := celSession(b, n, false)
			s.benchNamespaces(b, n)
			ref := resource.Ref{APIVersion: "policies.kyverno.io/v1", Kind: "GeneratingPolicy", Name: "default-deny"}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				obj, doc := benchObject(b, gpolNetpol(0, true, true, "CREATE, UPDATE"))
				b.StartTimer()
				s.benchPut(b, obj, doc)
				b.StopTimer()
				require.Equal(b, n, s.benchCount("NetworkPolicy"))
				s.benchStep(b, "delete policy", func() error { return s.Remove(ref) })
				require.Zero(b, s.benchCount("NetworkPolicy"), "sync and no orphaning: the policy's deletion deletes them")
				b.StartTimer()
			}
		})
	}
}

// TestCELSelfHealCostDoesNotGrowWithTheCluster: a revert allocates the same
// with 50 and with 500 namespaces.
func TestCELSelfHealCostDoesNotGrowWithTheCluster(t *testing.T) {
	allocs := func(n int) float64 {
		s := celSession(t, n, false)
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, n)
		i := 0
		got := testing.AllocsPerRun(50, func() {
			s.celRevert(t, i%n)
			i++
		})
		np, err := s.store.Get(netpolRef(0))
		require.NoError(t, err)
		_, edited := np.Label("edited")
		require.False(t, edited, "the edit was reverted")
		return got
	}
	small, large := allocs(50), allocs(500)
	assert.InEpsilon(t, small, large, 0.05, "allocations per self-heal: %v with 50 namespaces, %v with 500", small, large)
}
