package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSelfHealCostDoesNotGrowWithTheCluster guards against scans where an
// index serves: recreating one deleted downstream must allocate the same in
// a cluster of 50 namespaces as in one of 500 (BenchmarkSelfHeal shows the
// time).
func TestSelfHealCostDoesNotGrowWithTheCluster(t *testing.T) {
	allocs := func(n int) float64 {
		s := benchSession(t, n)
		s.benchPutYAML(t, benchNetpolPolicy(0, false))
		s.benchNamespaces(t, n)
		i := 0
		got := testing.AllocsPerRun(50, func() {
			ref := netpolRef(i % n)
			s.benchStep(t, "delete", func() error { return s.Remove(ref) })
			i++
		})
		_, err := s.store.Get(netpolRef(0))
		require.NoError(t, err, "the downstream must come back")
		return got
	}
	small, large := allocs(50), allocs(500)
	assert.InEpsilon(t, small, large, 0.05, "allocations per self-heal: %v with 50 namespaces, %v with 500", small, large)
}
