package scaffold

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

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/internal/testenv"
)

// galleryPolicies takes the policies out of the gallery's scenarios, each
// rendered as a bare policy would be pasted.
func galleryPolicies(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../site/examples/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		tests, diags := scenario.Parse(f, data)
		require.False(t, diags.HasErrors(), "%v", diags)
		for _, st := range tests[0].Steps {
			for _, op := range st.Try {
				if op.Type != scenario.OpApply && op.Type != scenario.OpCreate {
					continue
				}
				for _, r := range op.Resources {
					if !policy.IsPolicy(r.Object) && !gpol.IsPolicyKind(r.Object) {
						continue
					}
					y, err := source.Marshal(map[string]any(r.Object))
					require.NoError(t, err)
					out[filepath.Base(f)+": "+r.Object.Kind()+" "+r.Object.Name()] = string(y)
				}
			}
		}
	}
	return out
}

// outcome wraps a policy file and runs the scenario: "" when it passes
// and Kyverno generated something, else why not.
func outcome(file string, text []byte) (string, *Result) {
	res, err := Wrap(file, text, Options{})
	if err != nil {
		return "not wrapped: " + firstLine(err.Error()), nil
	}
	if res.Triggers == 0 {
		why := "no trigger"
		for _, n := range res.Notes {
			if n.Warning {
				why = "no trigger: " + n.Message
				break
			}
		}
		return why, res
	}
	run := runScenario(res.Scenario)
	if len(generated(run)) == 0 {
		for _, s := range run.Steps {
			for _, e := range s.Events {
				if e.Actor == "kyverno" && (e.Action == "skipped" || e.Action == "failed" || e.Action == "rejected") {
					return "nothing generated: " + e.Reason, res
				}
			}
		}
		if len(run.Diagnostics) > 0 {
			return "nothing generated: " + firstLine(run.Diagnostics[0].Message), res
		}
		return "nothing generated", res
	}
	if !run.Passed {
		for _, s := range run.Steps {
			if s.Check != nil && !s.Check.Passed {
				return "generated, but an assert failed: " + s.Summary + ": " + strings.Join(s.Check.Failures, "; "), res
			}
			if s.Error != "" {
				return "generated, but an operation failed: " + s.Summary + ": " + firstLine(s.Error), res
			}
		}
		return "generated, but the run failed", res
	}
	return "", res
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

func TestEveryGalleryPolicyWrapsIntoAScenarioThatGenerates(t *testing.T) {
	policies := galleryPolicies(t)
	require.GreaterOrEqual(t, len(policies), 10)
	names := make([]string, 0, len(policies))
	for n := range policies {
		names = append(names, n)
	}
	sort.Strings(names)
	// The gallery's foreach policies read their list from the trigger's
	// data, which a derived trigger does not have: the wrap says so at the
	// list, and the run says why nothing was generated.
	gaps := map[string]string{
		"foreach.yaml: ClusterPolicy isolate-listed-namespaces":        "request.object.data.namespaces",
		"foreach-cel.yaml: GeneratingPolicy isolate-listed-namespaces": "no such key: namespaces",
	}
	generating := 0
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			why, res := outcome("policy.yaml", []byte(policies[n]))
			if gap, ok := gaps[n]; ok {
				assert.Contains(t, why, gap)
				require.NotNil(t, res)
				assert.True(t, slices.ContainsFunc(res.Notes, func(n Note) bool { return strings.Contains(n.Message, "reads the trigger") }),
					"a note says the list reads the trigger: %v", res.Notes)
				return
			}
			if why != "" && res != nil {
				t.Log(res.Scenario)
			}
			if assert.Empty(t, why) {
				generating++
			}
		})
	}
	t.Logf("the gallery: %d of %d policies wrap into a scenario that generates", generating, len(names))
}

// conformanceRoot is Kyverno's chainsaw suites, read at test time (never
// copied into the repository).
func conformanceRoot(t *testing.T) string {
	t.Helper()
	return testenv.Conformance(t)
}

// TestConformancePoliciesWrap wraps every policy.yaml of Kyverno's generate
// and generating-policies suites, runs it and reports how many generate
// and why the others do not. The floors are today's counts: fewer is a
// regression.
func TestConformancePoliciesWrap(t *testing.T) {
	root := conformanceRoot(t)
	for _, suite := range []struct {
		dir   string
		floor int
	}{{"generate", 81}, {"generating-policies", 40}} {
		t.Run(suite.dir, func(t *testing.T) {
			var files []string
			err := filepath.WalkDir(filepath.Join(root, suite.dir), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && d.Name() == "policy.yaml" {
					files = append(files, p)
				}
				return err
			})
			require.NoError(t, err)
			require.NotEmpty(t, files)
			sort.Strings(files)
			generating := 0
			reasons := map[string][]string{}
			for _, f := range files {
				data, err := os.ReadFile(f)
				require.NoError(t, err)
				rel, _ := filepath.Rel(root, f)
				why, _ := outcome(rel, data)
				require.NotContains(t, why, "internal error", rel)
				if why == "" {
					generating++
					continue
				}
				reasons[why] = append(reasons[why], filepath.Dir(rel))
			}
			var report strings.Builder
			fmt.Fprintf(&report, "%s: %d of %d policy.yaml wrap into a scenario that generates\n", suite.dir, generating, len(files))
			var keys []string
			for k := range reasons {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&report, "  %d: %s\n", len(reasons[k]), k)
				for _, d := range reasons[k] {
					fmt.Fprintf(&report, "      %s\n", d)
				}
			}
			t.Log(report.String())
			assert.GreaterOrEqual(t, generating, suite.floor)
		})
	}
}
