package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/internal/scalegen"
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

// TestTheAnswerGrowsWithWhatChanged runs the scale scenario of issue 27
// (internal/scalegen: a default-deny policy over N labelled Namespaces,
// then S deletes of a downstream, each recreated and asserted): the answer
// grows with the steps' changes, not with steps times the cluster, and a
// long run over a big cluster stays within the default limits.
func TestTheAnswerGrowsWithWhatChanged(t *testing.T) {
	size := func(n, s int) int {
		res := Run("scale.yaml", scalegen.Scenario(n, s), Options{})
		require.True(t, res.Passed, "%d namespaces, %d deletes: %v", n, s, res.Diagnostics)
		out, err := timeline.Marshal(res)
		require.NoError(t, err)
		return len(out)
	}
	short, long := size(50, 4), size(50, 40)
	t.Logf("50 namespaces: %d bytes with 4 deletes, %d with 40 (%.2fx)", short, long, float64(long)/float64(short))
	assert.LessOrEqual(t, float64(long), 1.5*float64(short), "40 deletes within 1.5x of 4")

	// The audit (TestMain) compares the whole store with the timeline
	// after every step: O(cluster) per step, 1,100 steps here. The run
	// above had it; this one is about the limits.
	defer func(on bool) { auditStores = on }(auditStores)
	auditStores = false
	res := Run("scale.yaml", scalegen.Scenario(500, 300), Options{})
	assert.True(t, res.Passed, "500 namespaces, 300 deletes, the default limits: %v", res.Diagnostics)
	final := res.Final()
	assert.Equal(t, 500+500+len(SystemNamespaces)+1, final.Len(), "the namespaces, their NetworkPolicies and the policy")
	out, err := timeline.Marshal(res)
	require.NoError(t, err)
	t.Logf("500 namespaces, 300 deletes: %d steps, %d bytes", len(res.Steps), len(out))
	assert.Less(t, len(out), DefaultLimits.TimelineBytes/4)
}

// BenchmarkScaleScenario is engine.Run and timeline.Marshal of the scale
// scenario the playground's speed is measured on (site/scale_test.go):
// 50 namespaces, 40 deletes.
func BenchmarkScaleScenario(b *testing.B) {
	text := scalegen.Scenario(50, 40)
	b.ReportAllocs()
	for b.Loop() {
		res := Run("scale.yaml", text, Options{})
		if _, err := timeline.Marshal(res); err != nil || !res.Passed {
			b.Fatal(err, res.Diagnostics)
		}
	}
}
