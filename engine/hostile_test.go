package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// TestHostileInputGivesAClearErrorWithinBounds runs every hostile input
// through the facade: no panic (no internal error), the documented answer,
// and bounded work, measured as bytes allocated and the timeline's size.
func TestHostileInputGivesAClearErrorWithinBounds(t *testing.T) {
	for _, in := range hostile.Inputs() {
		t.Run(in.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			res := Run("hostile.yaml", in.Data, Options{Scripts: shell.New})
			runtime.ReadMemStats(&after)
			require.NotNil(t, res)
			out, err := timeline.Marshal(res)
			require.NoError(t, err)
			for _, d := range res.Diagnostics {
				assert.NotContains(t, d.Message, "internal error", "no panic")
			}
			assert.LessOrEqual(t, len(res.Diagnostics), maxDiagnostics+1, "diagnostics are capped")
			if in.Anywhere {
				assert.Contains(t, string(out), in.Want)
			} else if in.Want != "" {
				errs := errorDiagnostics(res)
				require.NotEmpty(t, errs, "an error diagnostic")
				assert.Contains(t, errs[0], in.Want)
			}
			// The bound is generous on purpose: parsing allocates about 140
			// bytes per input byte in the worst case measured (a Test of
			// 100,000 one-line steps: 1 MB in, 139 MB allocated, most of it
			// garbage), see docs/hardening.md.
			alloc := after.TotalAlloc - before.TotalAlloc
			budget := uint64(64<<20 + 512*len(in.Data))
			assert.LessOrEqual(t, alloc, budget, "bytes allocated")
			assert.LessOrEqual(t, len(out), DefaultLimits.TimelineBytes+4<<20, "timeline size")
			t.Logf("input %d bytes, allocated %d bytes, timeline %d bytes, %d steps", len(in.Data), alloc, len(out), len(res.Steps))
		})
	}
}

// TestYAMLIsReadAsKubernetesReadsIt compares package source with
// sigs.k8s.io/yaml (YAML 1.1, the library kubectl and the API machinery
// use): the same JSON, or an error from both.
func TestYAMLIsReadAsKubernetesReadsIt(t *testing.T) {
	scalars := []string{"on", "off", "On", "ON", "no", "No", "NO", "y", "Y", "n", "N", "yes", "Yes", "true", "True", "FALSE",
		"~", "null", "Null", "0x1F", "0o17", "017", "0b101", "1_000", "+12", "-0", "00", "09", ".inf", "-.Inf", ".nan",
		"1e400", "1e3", "1.0", "0.", ".5", "+.5", "1e", "12:30", "190:20:30", "2024-01-01", "=", "<<", "'on'", `"no"`,
		"0x_1F", "1__0", "!!str on", "!!bool yes", "!!int 017", "!!float 1", "!!binary aGVsbG8=", "!!binary '%%%'"}
	for _, s := range scalars {
		t.Run(fmt.Sprintf("%s as a value and as a key", s), func(t *testing.T) {
			in := []byte("k: " + s + "\n" + s + ": v\n")
			docs, diags := source.Parse("x.yaml", in)
			want, kerr := sigsyaml.YAMLToJSON(in)
			if kerr != nil {
				assert.True(t, diags.HasErrors(), "Kubernetes rejects it (%v); so must genplay", kerr)
				return
			}
			require.False(t, diags.HasErrors(), "Kubernetes accepts it as %s; genplay says %v", want, diags)
			require.Len(t, docs, 1)
			got, err := json.Marshal(docs[0].Value)
			require.NoError(t, err)
			assert.JSONEq(t, string(want), string(got))
		})
	}
}

// TestRunawayWorkIsBounded runs the inputs that cause a lot of work from
// little input: each ends with what it must say, within a bounded number
// of bytes allocated and a bounded answer. It logs the table row of
// docs/hardening.md (time and peak heap are measurements, not assertions).
// The run-wide budgets are a tenth of the defaults, so that the test stays
// fast under js/wasm too; GENPLAY_RUNAWAY_DEFAULTS=1 runs it with the
// defaults, as the table in docs/hardening.md was measured.
func TestRunawayWorkIsBounded(t *testing.T) {
	limits := Limits{Work: DefaultLimits.Work / 10, Requests: DefaultLimits.Requests / 10}
	if os.Getenv("GENPLAY_RUNAWAY_DEFAULTS") != "" {
		limits = Limits{}
	}
	// The answers' hashes: the same bytes natively and under js/wasm
	// (make test runs the engine's tests both ways), so the budget stops
	// every run at the same place everywhere.
	golden := filepath.Join("testdata", "runaway.sha256")
	want := map[string]string{}
	if data, err := os.ReadFile(golden); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if sum, name, ok := strings.Cut(line, "  "); ok {
				want[name] = sum
			}
		}
	}
	got := map[string]string{}
	update := os.Getenv("GENPLAY_UPDATE") != "" && limits == (Limits{Work: DefaultLimits.Work / 10, Requests: DefaultLimits.Requests / 10})
	defer func() {
		if !update {
			return
		}
		var b strings.Builder
		for _, in := range hostile.Runaway() {
			fmt.Fprintf(&b, "%s  %s\n", got[in.Name], in.Name)
		}
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}()
	for _, in := range hostile.Runaway() {
		t.Run(in.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			peak := watchPeakHeap()
			start := time.Now()
			res := Run("runaway.yaml", in.Data, Options{Scripts: shell.New, Limits: limits})
			elapsed := time.Since(start)
			high := peak()
			runtime.ReadMemStats(&after)
			out, err := timeline.Marshal(res)
			require.NoError(t, err)
			for _, d := range res.Diagnostics {
				assert.NotContains(t, d.Message, "internal error", "no panic")
			}
			assert.Contains(t, string(out), in.Want)
			assert.LessOrEqual(t, len(out), DefaultLimits.TimelineBytes+1<<20, "the answer stays within the timeline limit")
			sum := sha256.Sum256(out)
			got[in.Name] = hex.EncodeToString(sum[:])
			if !update && limits != (Limits{}) {
				assert.Equal(t, want[in.Name], got[in.Name], "the answer's bytes (GENPLAY_UPDATE=1 refreshes %s)", golden)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			assert.LessOrEqual(t, alloc, uint64(1<<30), "bytes allocated")
			t.Logf("| %s | %d B in | %s | %.2f s | peak heap %d MB, %d MB allocated, answer %d KB |",
				in.Name, len(in.Data), runOutcome(res), elapsed.Seconds(), high>>20, alloc>>20, len(out)>>10)
		})
	}
}

// runOutcome is a short description of how a run ended, for the log.
func runOutcome(res *timeline.Result) string {
	if errs := errorDiagnostics(res); len(errs) > 0 {
		msg := errs[len(errs)-1]
		if len(msg) > 160 {
			msg = msg[:160] + "…"
		}
		return msg
	}
	if res.Passed {
		return fmt.Sprintf("passed, %d steps", len(res.Steps))
	}
	return fmt.Sprintf("failed, %d steps", len(res.Steps))
}

// watchPeakHeap samples the heap until the returned function is called,
// which returns the highest HeapAlloc seen.
func watchPeakHeap() func() uint64 {
	done := make(chan uint64)
	stop := make(chan struct{})
	go func() {
		var peak uint64
		var m runtime.MemStats
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-stop:
				done <- peak
				return
			case <-tick.C:
			}
		}
	}()
	return func() uint64 { close(stop); return <-done }
}

// TestOneCallOrOneWriteCannotDoTheDamage runs the second round's table
// (hostile.Bounded: CEL calls priced before they run, objects built from
// many references to one value): each ends with what was exceeded, within
// a bounded allocation, the same bytes twice, and (by hash) the same bytes
// natively and as js/wasm. The work budget is the default: each stops at
// one call or one write, not by running the budget down.
func TestOneCallOrOneWriteCannotDoTheDamage(t *testing.T) {
	golden := filepath.Join("testdata", "bounded.sha256")
	want := map[string]string{}
	if data, err := os.ReadFile(golden); err == nil {
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if sum, name, ok := strings.Cut(line, "  "); ok {
				want[name] = sum
			}
		}
	}
	got := map[string]string{}
	update := os.Getenv("GENPLAY_UPDATE") != ""
	defer func() {
		if !update {
			return
		}
		var b strings.Builder
		for _, in := range hostile.Bounded() {
			fmt.Fprintf(&b, "%s  %s\n", got[in.Name], in.Name)
		}
		require.NoError(t, os.WriteFile(golden, []byte(b.String()), 0o644))
	}()
	for _, in := range hostile.Bounded() {
		t.Run(in.Name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			peak := watchPeakHeap()
			start := time.Now()
			res := Run("bounded.yaml", in.Data, Options{Scripts: shell.New, Families: celFamilies})
			elapsed := time.Since(start)
			high := peak()
			runtime.ReadMemStats(&after)
			out, err := timeline.Marshal(res)
			require.NoError(t, err)
			assert.False(t, IsInternalError(res), "no panic")
			assert.Contains(t, string(out), in.Want)
			again, err := timeline.Marshal(Run("bounded.yaml", in.Data, Options{Scripts: shell.New, Families: celFamilies}))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(out, again), "the same input gives the same bytes")
			sum := sha256.Sum256(out)
			got[in.Name] = hex.EncodeToString(sum[:])
			if !update {
				assert.Equal(t, want[in.Name], got[in.Name], "the answer's bytes (GENPLAY_UPDATE=1 refreshes %s)", golden)
			}
			alloc := after.TotalAlloc - before.TotalAlloc
			assert.LessOrEqual(t, alloc, uint64(256<<20), "bytes allocated")
			t.Logf("| %s | %d B in | %s | %.2f s | peak heap %d MB, %d MB allocated, answer %d KB |",
				in.Name, len(in.Data), runOutcome(res), elapsed.Seconds(), high>>20, alloc>>20, len(out)>>10)
		})
	}
}
