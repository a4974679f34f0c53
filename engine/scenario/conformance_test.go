package scenario_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/internal/testenv"
)

// conformance returns Kyverno's chainsaw tests folder (testenv's rule when
// it is missing).
func conformance(t *testing.T) (root string) {
	t.Helper()
	return testenv.Conformance(t)
}

// brokenTest names ../sync-new-label-secrets.yaml, which Kyverno's suite
// does not hold (the test lives in a dot-directory next to a CLI test).
const brokenTest = "generating-policies/clone/nosync/clone-multiple-targets/.chainsaw-test/chainsaw-test.yaml"

func TestConformanceTestsLoad(t *testing.T) {
	dir := conformance(t)
	fsys := os.DirFS(dir)
	files, err := discover(fsys, ".")
	require.NoError(t, err)
	// 130 in generate/ (ClusterPolicy) and 65 in generating-policies/ (CEL).
	require.Len(t, files, 195, "every conformance test is discovered")

	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			tests, diags := scenario.Load(fsys, f)
			if f == brokenTest {
				require.NotEmpty(t, diags, "%s names a file the suite does not hold", f)
				return
			}
			require.Empty(t, diags)
			require.Len(t, tests, 1)
			for _, s := range tests[0].Steps {
				assert.Nil(t, s.Use, "step %q has its template resolved", s.Name)
				for _, op := range s.Try {
					if op.File != "" {
						assert.NotEmpty(t, op.Resources, "step %q %s %s reads resources", s.Name, op.Type, op.File)
					}
				}
			}
		})
	}
}

func TestKyvernosOwnChainsawConfigurationsAreRead(t *testing.T) {
	dir := conformance(t)
	versions := filepath.Join(filepath.Dir(dir), "versions")
	configs, err := filepath.Glob(filepath.Join(versions, "*", "*", ".chainsaw.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, configs, "Kyverno ships a .chainsaw.yaml in each suite under %s", versions)
	for _, p := range configs {
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		c, diags := scenario.ParseConfiguration(p, data)
		require.False(t, diags.HasErrors(), "%s: %s", p, diags.Error())
		assert.True(t, c.FailFast && c.FullName, "%s: failFast and fullName change a run", p)
		assert.Contains(t, strings.Join(c.Ignored, "\n"), "spec.namespace.fastDelete: ignored", p)
	}
}

// discover returns every chainsaw test file under root, sorted.
func discover(fsys fs.FS, root string) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && slices.Contains(scenario.TestFileNames, d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("discover chainsaw tests under %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}
