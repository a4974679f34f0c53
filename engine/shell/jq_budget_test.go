//go:build !(js && wasm)

package shell_test

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/timeline"
)

// TestRunawayJQIsBoundedByTheWorkBudget runs jq programs that never end or
// grow without bound: each stops with the work budget's message (or the
// output cap), at the same step on every machine.
func TestRunawayJQIsBoundedByTheWorkBudget(t *testing.T) {
	for _, c := range []struct{ name, program, want string }{
		{"range(1e12)", `[range(1e12)] | length`, "the work budget of"},
		{"infinite recursion", `def f: f; f`, "the work budget of"},
		{"growing recursion", `def f: [f]; f`, "the work budget of"},
		{"repeat", `[repeat(1)] | length`, "the work budget of"},
		{"limit(1e8; ...)", `[limit(1e8; repeat("xxxxxxxx"))] | length`, "the work budget of"},
		{"an endless stream of output", `repeat("` + strings.Repeat("y", 1000) + `")`, "the output is larger than 1048576 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			res := runScript(t, `    - script:
        content: |
          kubectl get ns default -o json | jq '`+c.program+`'`)
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			out, err := timeline.Marshal(res)
			assert.NoError(t, err)
			assert.Contains(t, string(out), c.want)
			assert.False(t, res.Passed)
			alloc := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, alloc, uint64(1<<30), "bytes allocated")
			t.Logf("| jq %s | %s | %.2f s | %d MB allocated |", c.name, outcomeOf(res), elapsed.Seconds(), alloc>>20)
		})
	}
}

// outcomeOf names how a run ended, for the hardening table.
func outcomeOf(res *timeline.Result) string {
	if res.Passed {
		return "passed"
	}
	for _, d := range res.Diagnostics {
		if d.Severity == "error" {
			return "stopped: " + d.Message
		}
	}
	return "failed"
}
