package oracle

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const recordings = "../../testdata/oracle"

// versionDirs are the folders of recordings, one per Kyverno version; the
// test skips, saying so, when none has been recorded yet.
func versionDirs(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(recordings)
	if os.IsNotExist(err) {
		entries = nil
	} else {
		require.NoError(t, err)
	}
	var out []string
	for _, e := range entries {
		if files, _ := filepath.Glob(filepath.Join(recordings, e.Name(), "*.json")); e.IsDir() && len(files) > 0 {
			out = append(out, e.Name())
		}
	}
	if len(out) == 0 {
		t.Skipf("no recordings under %s: make oracle-record VERSION=v1.19.0 writes them (docs/oracle.md)", recordings)
	}
	return out
}

// TestGenplayAgreesWithRealKyverno runs genplay on every scenario recorded
// against real Kyverno and compares, step by step. A difference is a
// defect (the test fails) unless a known difference, named in
// engine/doc.go, explains it. The counts are printed per version.
func TestGenplayAgreesWithRealKyverno(t *testing.T) {
	for _, version := range versionDirs(t) {
		recs, err := Load(filepath.Join(recordings, version))
		require.NoError(t, err)
		t.Run(version, func(t *testing.T) {
			counts := map[string]int{}
			known := map[string]int{}
			flaky := 0
			for _, rec := range recs {
				if rec.Flaky != "" {
					flaky++
					continue
				}
				res := Compare(rec, Options{Version: version})
				counts[res.Verdict]++
				if os.Getenv("GENPLAY_ORACLE_VERBOSE") != "" {
					for _, d := range res.Diffs {
						t.Logf("%s: %s", rec.Name, d)
					}
				}
				for _, d := range res.Diffs {
					if d.Known != "" {
						known[d.Known]++
					}
				}
				if res.Verdict == Defect {
					var lines []string
					for _, d := range res.Diffs {
						lines = append(lines, "  "+d.String())
					}
					t.Errorf("%s/%s (%s): genplay differs from real Kyverno %s:\n%s", version, rec.Name, rec.Source, rec.Evidence.Kyverno, strings.Join(lines, "\n"))
				}
			}
			t.Logf("%s: %d recordings: %d agree, %d agree but for known differences, %d defects, %d skipped by genplay, %d flaky (not compared)",
				version, len(recs), counts[Agree], counts[Known], counts[Defect], counts[Skipped], flaky)
			names := make([]string, 0, len(known))
			for k := range known {
				names = append(names, k)
			}
			sort.Strings(names)
			for _, k := range names {
				t.Logf("  known difference %q: %d times", k, known[k])
			}
		})
	}
}

// Every recording says real Kyverno made it: the versions the live
// components reported match the folder's, and every object carries the UID
// and resourceVersion the API server assigned.
func TestRecordingsCarryTheirEvidence(t *testing.T) {
	for _, version := range versionDirs(t) {
		recs, err := Load(filepath.Join(recordings, version))
		require.NoError(t, err)
		for _, rec := range recs {
			assert.Equal(t, version, rec.Evidence.Kyverno, rec.Name)
			assert.Equal(t, version, rec.Evidence.Background, rec.Name)
			assert.NotEmpty(t, rec.Evidence.Kubernetes, rec.Name)
			assert.GreaterOrEqual(t, len(rec.Runs), 2, "%s: each scenario runs more than once", rec.Name)
			for ri, run := range rec.Runs {
				for _, st := range run.Steps {
					for _, o := range st.Objects {
						assert.NotEmpty(t, o.UID, "%s run %d step %d %s", rec.Name, ri, st.Index, o.Key)
						assert.NotEmpty(t, o.ResourceVersion, "%s run %d step %d %s", rec.Name, ri, st.Index, o.Key)
					}
				}
			}
			if b, err := os.ReadFile(filepath.Join("../..", rec.Source)); err == nil && SHA256(b) != rec.SourceSHA256 {
				t.Logf("%s: %s changed since it was recorded: make oracle-record refreshes it", rec.Name, rec.Source)
			}
		}
	}
}

// Each known difference is named in engine/doc.go, the one place genplay's
// differences from Kyverno are written down.
func TestKnownDifferencesAreNamedInTheEngineDoc(t *testing.T) {
	doc, err := os.ReadFile("../../engine/doc.go")
	require.NoError(t, err)
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", " ")), " ")
	for _, k := range KnownDifferences {
		assert.Contains(t, text, k.Name, fmt.Sprintf("engine/doc.go names the known difference %q", k.Name))
	}
}
