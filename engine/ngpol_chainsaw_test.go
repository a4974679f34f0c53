package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
)

// TestNamespacedGeneratingPolicyChainsawTests runs the chainsaw tests of
// testdata/chainsaw/ngpol (confinement to the policy's namespace,
// cross-namespace generation denied, clone within the namespace) with the
// CEL family, as genplay test does, and requires each to pass.
func TestNamespacedGeneratingPolicyChainsawTests(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "chainsaw", "ngpol", "*", "chainsaw-test.yaml"))
	require.NoError(t, err)
	require.Len(t, files, 3)
	for _, file := range files {
		dir := filepath.Dir(file)
		t.Run(filepath.Base(dir), func(t *testing.T) {
			fsys := os.DirFS(dir)
			tests, diags := scenario.Load(fsys, "chainsaw-test.yaml")
			require.False(t, diags.HasErrors(), "%v", diags)
			require.NotEmpty(t, tests)
			for _, test := range tests {
				opts := gpolOptions
				opts.Files = fsys
				res := RunTest(test, opts)
				assert.True(t, res.Passed && res.Skipped == "", "%s did not pass:\n%s", file, describeRun(res))
			}
		})
	}
}
