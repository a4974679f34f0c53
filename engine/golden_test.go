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

// TestGoldenTimelines pins the timeline of every scenario under
// testdata/scenarios, byte for byte. Refresh with GENPLAY_UPDATE=1 after a
// deliberate change, and read the diff.
func TestGoldenTimelines(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			name := filepath.ToSlash(filepath.Join("scenarios", filepath.Base(file)))
			res := Run(name, data, Options{})
			assert.True(t, res.Passed, "the scenario's own assertions must hold")
			got, err := timeline.Marshal(res)
			require.NoError(t, err)
			again, err := timeline.Marshal(Run(name, data, Options{}))
			require.NoError(t, err)
			require.Equal(t, string(got), string(again), "two runs of the same scenario must give the same bytes")
			golden := strings.TrimSuffix(file, ".yaml") + ".golden.json"
			if os.Getenv("GENPLAY_UPDATE") != "" {
				require.NoError(t, os.WriteFile(golden, got, 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "no golden file: run GENPLAY_UPDATE=1 go test ./engine/")
			assert.Equal(t, string(want), string(got))
		})
	}
}
