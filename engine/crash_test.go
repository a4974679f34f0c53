package engine

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
)

// TestAPanicBelowTheFacadeBecomesAnInternalError injects panics into a run
// (through the beforeOperation hook) and checks Run and RunTest answer an
// internal-error diagnostic instead of crashing, and leave the input as it was.
func TestAPanicBelowTheFacadeBecomesAnInternalError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "scenarios", "netpol-sync.yaml"))
	require.NoError(t, err)
	panics := []struct {
		name  string
		after int // operations that run before the panic
		boom  func()
	}{
		{name: "a panic with a string before the first operation", boom: func() { panic("boom") }},
		{name: "a nil map write after two operations", after: 2, boom: func() {
			var m map[string]int
			//lint:ignore SA5000 the panic is what the test runs
			m["x"] = 1
		}},
		{name: "an index out of range after three operations", after: 3, boom: func() {
			var s []int
			_ = s[len(os.Args)+5]
		}},
		{name: "a panic with an error value", after: 1, boom: func() { panic(os.ErrClosed) }},
	}
	for _, p := range panics {
		t.Run(p.name, func(t *testing.T) {
			n := 0
			beforeOperation = func() {
				if n == p.after {
					p.boom()
				}
				n++
			}
			t.Cleanup(func() { beforeOperation = nil })
			input := bytes.Clone(data)

			res := Run("netpol-sync.yaml", input, Options{})
			require.NotNil(t, res)
			assert.True(t, IsInternalError(res))
			require.Len(t, res.Diagnostics, 1)
			assert.Contains(t, res.Diagnostics[0].Message, "internal error in genplay (not a problem with your input")
			assert.Equal(t, "netpol-sync.yaml", res.Diagnostics[0].File)
			assert.Equal(t, data, input, "the input is not touched")

			tests, diags := scenario.Parse("netpol-sync.yaml", input)
			require.False(t, diags.HasErrors())
			n = 0
			res = RunTest(tests[0], Options{})
			assert.True(t, IsInternalError(res), "RunTest recovers too")
		})
	}
	beforeOperation = nil
	res := Run("netpol-sync.yaml", data, Options{})
	assert.False(t, IsInternalError(res), "without the hook the same input runs")
	assert.True(t, res.Passed)
}
