package engine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
)

// The timeline says why nothing happened where a user expects a reaction
// (the scenarios are pinned by TestGoldenTimelines; this names the events).
func TestNoOpsSayWhy(t *testing.T) {
	for _, tt := range []struct{ file, action, reason string }{
		{"nosync-data-edit-not-propagated.yaml", timeline.ActionKept, "not propagated: synchronize is false"},
		{"foreach-element-left.yaml", timeline.ActionKept, "its element left the foreach list"},
		{"scan-without-generate-existing.yaml", timeline.ActionSkipped, "generateExisting is false"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			res := runScenarioFile(t, tt.file)
			last := res.Steps[len(res.Steps)-1]
			var found bool
			for _, e := range last.Events {
				found = found || (e.Action == tt.action && strings.Contains(e.Reason, tt.reason))
			}
			assert.True(t, found, "the last step explains itself with %q: %+v", tt.reason, last.Events)
		})
	}
}

// An object the API server refuses is an input error at the offending field.
func TestInvalidObjectPointsAtTheField(t *testing.T) {
	res := Run("bad.yaml", []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: bad
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: Bad_Name
`), Options{})
	assert.True(t, res.Invalid, "a refused object is the input's fault")
	require.Len(t, res.Diagnostics, 1)
	assert.Equal(t, 13, res.Diagnostics[0].Line, "at metadata.name: %+v", res.Diagnostics[0])
	assert.Contains(t, res.Diagnostics[0].Message, `metadata.name: Invalid value: "Bad_Name"`)
}

// A failed assertion is a failed run, not invalid input.
func TestFailedAssertIsNotInvalid(t *testing.T) {
	res := Run("assert.yaml", []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: missing
spec:
  steps:
  - try:
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: nowhere
            namespace: default
`), Options{})
	assert.False(t, res.Passed)
	assert.False(t, res.Invalid, "the run ran: %+v", res.Diagnostics)
	require.Len(t, res.Steps, 1)
}

func runScenarioFile(t *testing.T, name string) *timeline.Result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "scenarios", name))
	require.NoError(t, err)
	return Run(name, data, Options{})
}
