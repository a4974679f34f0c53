package engine

import (
	"io/fs"
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/internal/testenv"
)

// TestKyvernoConformanceTestsKeepTheStoresOwnershipRules replays Kyverno's
// chainsaw generate tests (../shared, as cmd/genplay's conformance test
// does) with the store audit on (TestMain): the widest set of scenarios
// the project has, checked for a stored object changed in place. Outcomes
// are cmd/genplay's business; this test only needs the runs to happen.
func TestKyvernoConformanceTestsKeepTheStoresOwnershipRules(t *testing.T) {
	require.True(t, auditStores, "TestMain turns the audit on")
	dir := testenv.Conformance(t)
	// Rooted at the suite: tests reach shared step templates with ../ paths.
	fsys := os.DirFS(dir)
	runs := 0
	err := fs.WalkDir(fsys, "generate", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != "chainsaw-test.yaml" {
			return err
		}
		tests, diags := scenario.Load(fsys, path)
		require.False(t, diags.HasErrors(), "%s: %v", path, diags)
		for _, test := range tests {
			RunTest(test, Options{Scripts: shell.New, Files: fsys, Permissions: PermissionsKyvernoE2E})
			runs++
			require.NoError(t, auditFailure(), "after %s", path)
		}
		return nil
	})
	require.NoError(t, err)
	require.GreaterOrEqual(t, runs, 130, "Kyverno's generate suite holds 130 tests")
}
