package engine

import (
	_ "embed"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// The engine's benchmarks (issue 6): `make bench`, or
//
//	go test -run '^$' -bench . -benchmem ./engine/
//	PATH="$(go env GOROOT)/lib/wasm:$PATH" GOOS=js GOARCH=wasm go test -run '^$' -bench . ./engine/
//
// Each benchmark builds a cluster of N namespaces labelled for a generate
// policy, then times one event and the reconcile it causes, recorded in the
// timeline as engine.Run records it (a step costs what it changed:
// BenchmarkStepSnapshot measures a step that changes nothing).

var benchSizes = []int{100, 1000, 10_000}

// benchNetpolPolicy generates a NetworkPolicy in every namespace labelled
// netpol=on; rev goes into the generated data.
func benchNetpolPolicy(rev int, generateExisting bool) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: default-deny
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              netpol: "on"
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      generateExisting: %t
      data:
        spec:
          podSelector:
            matchLabels:
              rev: "%d"
          policyTypes: [Ingress, Egress]
`, generateExisting, rev)
}

// benchClonePolicy copies default/settings into every labelled namespace.
const benchClonePolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: copy-settings
spec:
  rules:
  - name: copy-settings
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              netpol: "on"
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: settings
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      clone:
        namespace: default
        name: settings
`

func benchObject(tb testing.TB, text string) (resource.Object, *source.Document) {
	tb.Helper()
	docs, diags := source.Parse("bench.yaml", []byte(text))
	require.False(tb, diags.HasErrors(), "%v", diags)
	require.Len(tb, docs, 1)
	obj, ok := docs[0].Object()
	require.True(tb, ok)
	return obj, docs[0]
}

func benchConfigMap(rev int) resource.Object {
	return resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "default"},
		"data":     map[string]any{"rev": fmt.Sprint(rev)}}
}

func benchNamespace(i int) resource.Object {
	return resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{
		"name": fmt.Sprintf("team-%05d", i), "labels": map[string]any{"netpol": "on"}}}
}

// benchSession returns a session that takes no snapshots and whose limits
// let one step process every UpdateRequest a policy change over n
// namespaces causes, and a benchmark run as many steps as it likes.
func benchSession(tb testing.TB, n int) *Session {
	tb.Helper()
	s := NewSession(Options{Limits: Limits{Objects: 4*n + 100, Requests: math.MaxInt, Work: math.MaxInt64, TimelineBytes: math.MaxInt}})
	// Every write ticks the logical clock a second, so a long benchmark
	// would cross BACKGROUND_SCAN_INTERVAL every ~1,000 steps and pay an
	// O(N) re-sync of every downstream inside an unrelated iteration.
	// BenchmarkBackgroundScan measures the scan on its own.
	s.nextScan = s.nextScan.Add(1 << 62)
	return s
}

// step runs one timeline step and fails on an operation error.
func (s *Session) benchStep(tb testing.TB, what string, op func() error) {
	s.begin("bench", "bench", what)
	err := op()
	s.end()
	if err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
	// A benchmark that reached a limit would go on measuring a run that
	// stopped doing its work (the CEL ones did at 10,000 namespaces).
	if err := s.overLimit(); err != nil {
		tb.Fatalf("%s: %v", what, err)
	}
	s.steps = s.steps[:0] // a long benchmark must not keep every step
}

func (s *Session) benchPut(tb testing.TB, obj resource.Object, doc *source.Document) {
	s.benchStep(tb, "put "+obj.Ref().String(), func() error {
		_, _, err := s.Put(ModeApply, obj, doc)
		return err
	})
}

func (s *Session) benchPutYAML(tb testing.TB, text string) {
	obj, doc := benchObject(tb, text)
	s.benchPut(tb, obj, doc)
}

// benchNamespaces creates namespaces team-00000 … in steps of 500.
func (s *Session) benchNamespaces(tb testing.TB, n int) {
	for start := 0; start < n; start += 500 {
		s.benchStep(tb, "namespaces", func() error {
			for i := start; i < min(start+500, n); i++ {
				if _, _, err := s.Put(ModeCreate, benchNamespace(i), nil); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

func (s *Session) benchCount(kind string) int {
	n := 0
	for _, o := range s.store.All() {
		if o.Kind() == kind && o.Namespace() != "default" {
			n++
		}
	}
	return n
}

func netpolRef(i int) resource.Ref {
	return resource.Ref{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy", Namespace: fmt.Sprintf("team-%05d", i), Name: "default-deny"}
}

// BenchmarkSelfHeal deletes one synchronized downstream per iteration; the
// reconcile recreates it. Its cost must not grow with the cluster.
func BenchmarkSelfHeal(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchPutYAML(b, benchNetpolPolicy(0, false))
			s.benchNamespaces(b, n)
			require.Equal(b, n, s.benchCount("NetworkPolicy"))
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ref := netpolRef(i % n)
				s.benchStep(b, "delete", func() error { return s.Remove(ref) })
				i++
			}
			b.StopTimer()
			_, err := s.store.Get(netpolRef(0))
			require.NoError(b, err, "the downstream must come back")
			require.Equal(b, n, s.benchCount("NetworkPolicy"))
		})
	}
}

// BenchmarkPolicyUpdate changes the policy's data per iteration; the
// reconcile propagates it to all N downstreams.
func BenchmarkPolicyUpdate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchPutYAML(b, benchNetpolPolicy(0, false))
			s.benchNamespaces(b, n)
			b.ReportAllocs()
			rev := 0
			for b.Loop() {
				rev++
				b.StopTimer()
				obj, doc := benchObject(b, benchNetpolPolicy(rev, false))
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

// BenchmarkGenerateExisting creates a generateExisting policy over N
// existing namespaces per iteration (and, untimed, deletes it again).
func BenchmarkGenerateExisting(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchNamespaces(b, n)
			ref := resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "default-deny"}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				obj, doc := benchObject(b, benchNetpolPolicy(0, true))
				b.StartTimer()
				s.benchPut(b, obj, doc)
				b.StopTimer()
				require.Equal(b, n, s.benchCount("NetworkPolicy"))
				s.benchStep(b, "delete policy", func() error { return s.Remove(ref) })
				b.StartTimer()
			}
		})
	}
}

// BenchmarkPolicyDelete deletes a synchronized policy per iteration; the
// reconcile deletes its N downstreams. Recreating it is not timed.
func BenchmarkPolicyDelete(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchNamespaces(b, n)
			ref := resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "default-deny"}
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				s.benchPutYAML(b, benchNetpolPolicy(0, true))
				b.StartTimer()
				s.benchStep(b, "delete policy", func() error { return s.Remove(ref) })
				b.StopTimer()
				require.Zero(b, s.benchCount("NetworkPolicy"))
				b.StartTimer()
			}
		})
	}
}

// BenchmarkCloneSourceUpdate changes a clone source per iteration; the
// reconcile copies it into all N namespaces.
func BenchmarkCloneSourceUpdate(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchPut(b, benchConfigMap(0), nil)
			s.benchPutYAML(b, benchClonePolicy)
			s.benchNamespaces(b, n)
			b.ReportAllocs()
			rev := 0
			for b.Loop() {
				rev++
				s.benchPut(b, benchConfigMap(rev), nil)
			}
			b.StopTimer()
			cm, err := s.store.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: fmt.Sprintf("team-%05d", n-1), Name: "settings"})
			require.NoError(b, err)
			require.Equal(b, fmt.Sprint(rev), cm.NestedString("data", "rev"))
		})
	}
}

// BenchmarkParsePolicy reads a typical policy from YAML, parses it into the
// policy model and runs Kyverno's policy validation.
func BenchmarkParsePolicy(b *testing.B) {
	text := []byte(benchNetpolPolicy(1, true))
	store := NewSession(Options{}).store
	b.ReportAllocs()
	for b.Loop() {
		docs, diags := source.Parse("policy.yaml", text)
		if diags.HasErrors() || len(docs) != 1 {
			b.Fatal(diags)
		}
		p, diags := policy.Parse(docs[0], nil)
		d, _ := policy.ValidateAt(p, store, upstream.Latest)
		diags = append(diags, d...)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
	}
}

// BenchmarkRunSeed runs the seed example end to end, snapshots, diffs and
// assertions included, as `genplay run` and the playground do.
// seedScenario is embedded rather than read, so the benchmarks also run in
// a browser (internal/chromiumexec), which has no file system.
//
//go:embed testdata/scenarios/netpol-sync.yaml
var seedScenario []byte

func BenchmarkRunSeed(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if res := Run("netpol-sync.yaml", seedScenario, Options{}); !res.Passed {
			b.Fatal("the seed example failed")
		}
	}
}

// BenchmarkBackgroundScan is Kyverno's periodic reconcile (every
// BACKGROUND_SCAN_INTERVAL): every synchronized downstream is re-rendered
// and compared; nothing has drifted, so nothing is written.
func BenchmarkBackgroundScan(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchPutYAML(b, benchNetpolPolicy(0, false))
			s.benchNamespaces(b, n)
			b.ReportAllocs()
			for b.Loop() {
				s.nextScan = s.clock.Now()
				s.benchStep(b, "background scan", func() error { return nil })
			}
			b.StopTimer()
			require.True(b, s.nextScan.After(s.clock.Now()), "the scan ran")
		})
	}
}

// BenchmarkStepSnapshot is the cost of recording a step that changes
// nothing: before timeline format v2 every step held a snapshot of the
// whole cluster, O(N); now it holds what changed.
func BenchmarkStepSnapshot(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprintf("namespaces=%d", n), func(b *testing.B) {
			s := benchSession(b, n)
			s.benchPutYAML(b, benchNetpolPolicy(0, false))
			s.benchNamespaces(b, n)
			b.ReportAllocs()
			for b.Loop() {
				s.benchStep(b, "nothing", func() error { return nil })
			}
		})
	}
}
