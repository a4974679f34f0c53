package engine

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/site/examples"
)

// TestExamplesAndChainsawTestsReplayByteForByte runs every gallery example
// and every chainsaw test under testdata/chainsaw twice and compares the
// bytes, then compares them with a golden file under testdata/golden. The
// engine's tests also run as js/wasm under Node, against the same golden
// files: native and wasm give the same bytes. Refresh with GENPLAY_UPDATE=1.
func TestExamplesAndChainsawTestsReplayByteForByte(t *testing.T) {
	list, err := examples.All()
	require.NoError(t, err)
	require.NotEmpty(t, list)
	for _, e := range list {
		t.Run("example "+e.File, func(t *testing.T) {
			run := func() []byte {
				res := Run(e.File, e.Text, Options{Scripts: shell.New, Families: celFamilies})
				out, err := timeline.Marshal(res)
				require.NoError(t, err)
				checkRoundTrip(t, res, out)
				return out
			}
			checkGolden(t, filepath.Join("testdata", "golden", "examples", strings.TrimSuffix(e.File, ".yaml")+".json"), run(), run())
		})
	}
	dirs, err := filepath.Glob(filepath.Join("testdata", "chainsaw", "*", "*", "chainsaw-test.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, dirs)
	for _, file := range dirs {
		dir := filepath.Dir(file)
		name := filepath.Base(filepath.Dir(dir)) + "-" + filepath.Base(dir)
		t.Run("chainsaw test "+name, func(t *testing.T) {
			fsys := os.DirFS(dir)
			run := func() []byte {
				tests, diags := scenario.Load(fsys, "chainsaw-test.yaml")
				require.False(t, diags.HasErrors(), "%v", diags)
				var all []byte
				for _, test := range tests {
					// As genplay test runs it: the CLI's families, exceptions
					// on and Kyverno's e2e permissions.
					out, err := timeline.Marshal(RunTest(test, Options{Scripts: shell.New, Files: fsys, Families: celFamilies, PolicyExceptions: true, Permissions: PermissionsKyvernoE2E}))
					require.NoError(t, err)
					all = append(all, out...)
				}
				return all
			}
			checkGolden(t, filepath.Join("testdata", "golden", "chainsaw", name+".json"), run(), run())
		})
	}
}

func checkGolden(t *testing.T, golden string, got, again []byte) {
	t.Helper()
	require.Equal(t, string(got), string(again), "two runs give the same bytes")
	if os.Getenv("GENPLAY_UPDATE") != "" {
		require.NoError(t, os.MkdirAll(path.Dir(filepath.ToSlash(golden)), 0o755))
		require.NoError(t, os.WriteFile(golden, got, 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "no golden file: run GENPLAY_UPDATE=1 go test -run ReplayByteForByte ./engine/")
	assert.Equal(t, string(want), string(got))
}
