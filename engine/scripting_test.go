package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/shell"
)

// TestABuildWithoutTheShellSaysSo: without Options.Scripts (the browser's
// core build) a script or command operation skips the test, saying this
// build has no shell (the loader sends such a scenario to the full build),
// with an error at the operation; with the shell it runs.
func TestABuildWithoutTheShellSaysSo(t *testing.T) {
	for _, op := range []string{
		"    - script:\n        content: kubectl get namespace team-a\n",
		"    - command:\n        entrypoint: kubectl\n        args: [get, namespace, team-a]\n",
	} {
		scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scripts
spec:
  steps:
  - try:
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
` + op
		res := Run("scripts.yaml", []byte(scenario), Options{})
		assert.Contains(t, res.Skipped, "scripts.yaml:10:7: the ")
		assert.Contains(t, res.Skipped, "this build of genplay has no shell")
		assert.False(t, res.Passed)
		require.NotEmpty(t, res.Diagnostics, "the page shows a diagnostic")
		last := res.Diagnostics[len(res.Diagnostics)-1]
		assert.Equal(t, "error", last.Severity)
		assert.Equal(t, 10, last.Line, "at the operation")
		assert.Contains(t, last.Message, "needs a shell")
		require.Len(t, res.Steps, 1, "the apply before it ran")

		res = Run("scripts.yaml", []byte(scenario), Options{Scripts: shell.New})
		assert.Empty(t, res.Skipped)
		assert.True(t, res.Passed, "%v", res.Diagnostics)
		assert.Len(t, res.Steps, 2, "the kubectl call is a step")
	}
}
