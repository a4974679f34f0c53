package engine

import (
	"bytes"
	"encoding/json"
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
			checkRoundTrip(t, res, got)
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

// TestFormatV1IsDerivableFromTheV2Goldens decodes golden v2 timelines as an
// outside reader would (the JSON, not the engine's values) and converts
// them to format v1 (timeline.V1): the bytes must be the v1 timelines kept
// under testdata/v1. Those were, when format v2 came, the bytes the engine
// answered in v1 (29 golden timelines checked so, byte for byte); they are
// refreshed with the goldens (GENPLAY_UPDATE=1), so their diff shows what
// a change of behaviour does to a v1 reader. So v2 holds everything v1
// did: every step's cluster and every change's diff.
func TestFormatV1IsDerivableFromTheV2Goldens(t *testing.T) {
	fixtures := map[string]string{
		"netpol-sync.json":               filepath.Join("testdata", "scenarios", "netpol-sync.golden.json"),
		"clone-registry-secret.json":     filepath.Join("testdata", "golden", "examples", "clone-registry-secret.json"),
		"policy-data-sync-confined.json": filepath.Join("testdata", "golden", "chainsaw", "policy-data-sync-confined.json"),
	}
	for v1, v2 := range fixtures {
		t.Run(v1, func(t *testing.T) {
			data, err := os.ReadFile(v2)
			require.NoError(t, err)
			dec := json.NewDecoder(bytes.NewReader(data))
			var got []byte
			for dec.More() {
				var res timeline.Result
				require.NoError(t, dec.Decode(&res))
				require.Equal(t, timeline.FormatVersion, res.Format)
				out, err := timeline.MarshalV1(timeline.V1(&res))
				require.NoError(t, err)
				got = append(got, out...)
			}
			fixture := filepath.Join("testdata", "v1", v1)
			if os.Getenv("GENPLAY_UPDATE") != "" {
				require.NoError(t, os.WriteFile(fixture, got, 0o644))
			}
			want, err := os.ReadFile(fixture)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got))
			assert.Less(t, len(data), len(want)/2, "v2 is the smaller answer")
		})
	}
}

// checkRoundTrip checks that a result's JSON (out) reads back through
// timeline.Decode to the same timeline: the versions made from patches
// are the engine's, so V1 of both is the same bytes.
func checkRoundTrip(t *testing.T, res *timeline.Result, out []byte) {
	t.Helper()
	back, err := timeline.Decode(out)
	require.NoError(t, err)
	want, err := timeline.MarshalV1(timeline.V1(res))
	require.NoError(t, err)
	got, err := timeline.MarshalV1(timeline.V1(back))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "the JSON reads back to the same timeline")
}
