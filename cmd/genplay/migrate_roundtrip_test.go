package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/migrate/check"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/suite"
	"github.com/genplay/genplay/engine/timeline"
)

// The round trip: every scenario of site/examples, the cheat sheet's
// ClusterPolicy cases (engine/testdata/cases/cheatsheet/clusterpolicy) and
// Kyverno's ClusterPolicy conformance suite is converted; each converted
// GeneratingPolicy must pass genplay's validation (Kyverno's rules), and the
// scenario run on the converted policies must give the same downstreams
// after the first generation (objects compared without metadata churn and
// without the generate.kyverno.io/* labels). The outcome of every scenario
// is kept in testdata/migrate-roundtrip.yaml, so that a change fails the
// test; GENPLAY_UPDATE=1 rewrites it.

const roundTripFile = "testdata/migrate-roundtrip.yaml"

// roundTrip is one scenario's outcome.
type roundTrip struct {
	key string
	// conversion: full | partial | none | rejected (Kyverno rejects the
	// policy as written: nothing to migrate) | no-policy.
	conversion string
	valid      bool   // every converted GeneratingPolicy passes validation
	firstGen   string // same | differs | no-generation
	reasons    []string
	invalid    []string
	// differs says, for a first generation that differs, which object and
	// what each run's timeline says about it.
	differs []string
}

func (r roundTrip) line() string {
	s := fmt.Sprintf("%s: {conversion: %s", r.key, r.conversion)
	if r.conversion == migrate.Full || r.conversion == migrate.Partial {
		s += fmt.Sprintf(", valid: %t, first-generation: %s", r.valid, r.firstGen)
	}
	s += "}"
	for _, reason := range r.reasons {
		s += "\n    # " + reason
	}
	for _, reason := range r.invalid {
		s += "\n    # invalid: " + reason
	}
	for _, d := range r.differs {
		s += "\n    # differs: " + d
	}
	return s
}

func TestMigrateRoundTrip(t *testing.T) {
	var results []roundTrip
	// site/examples
	examples, err := filepath.Glob(filepath.Join("..", "..", "site", "examples", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, examples)
	for _, f := range examples {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		tests, diags := scenario.Parse(f, data)
		require.False(t, diags.HasErrors(), "%s: %v", f, diags)
		require.Len(t, tests, 1)
		results = append(results, runRoundTrip(t, "examples/"+filepath.Base(f), tests[0], engine.Options{Families: families}))
	}
	// the cheat sheet's ClusterPolicy cases (engine/testdata/cases); the
	// clone rows copy Secrets, so the background controller's permissions
	// are not checked.
	for _, f := range cheatSheetFiles(t) {
		tests, diags := scenario.Parse(f, []byte(cheatSheetCase(t, strings.TrimSuffix(f, ".yaml"))))
		require.False(t, diags.HasErrors(), "%s: %v", f, diags)
		results = append(results, runRoundTrip(t, "cheatsheet/clusterpolicy/"+strings.TrimSuffix(f, ".yaml"), tests[0], engine.Options{Families: families, Permissions: engine.PermissionsUnchecked}))
	}
	// Kyverno's ClusterPolicy suite
	dir := filepath.Join(conformanceDir(t), "generate")
	cwd, err := os.Getwd()
	require.NoError(t, err)
	fsys, _ := rootFS(cwd)
	r, err := root(cwd, dir)
	require.NoError(t, err)
	found, err := suite.Find(fsys, []suite.Root{r}, nil)
	require.NoError(t, err)
	for _, f := range found {
		if f.CLI {
			continue
		}
		test, fsys, diags := loadScenario(f.Display)
		if test == nil {
			t.Errorf("%s does not load: %v", f.Display, diags)
			continue
		}
		results = append(results, runRoundTrip(t, "conformance/"+suiteKey(dir, f.Display), test,
			engine.Options{Files: fsys, Families: families, Scripts: scripts, Permissions: engine.PermissionsKyvernoE2E, PolicyExceptions: true}))
	}

	counts := map[string]int{}
	reasons := map[string]int{}
	for _, r := range results {
		counts[r.conversion]++
		if r.conversion == migrate.Full || r.conversion == migrate.Partial {
			if r.valid {
				counts["valid"]++
			}
			counts["first-generation "+r.firstGen]++
		}
		for _, reason := range r.reasons {
			reasons[reason]++
		}
		// What converts fully must be accepted by Kyverno's rules.
		if r.conversion == migrate.Full || r.conversion == migrate.Partial {
			assert.True(t, r.valid, "%s: the converted policy is rejected: %v", r.key, r.invalid)
		}
	}
	var b strings.Builder
	b.WriteString("# The migration round trip (TestMigrateRoundTrip, cmd/genplay): site/examples, the cheat sheet's\n")
	b.WriteString("# policies and Kyverno's ClusterPolicy conformance suite (../shared/conformance/chainsaw/generate),\n")
	b.WriteString("# converted by genplay migrate, validated (gpol.Parse, gpol.Validate, compiler.Compile) and run on the\n")
	b.WriteString("# same scenario; first-generation compares the downstreams after the first step that generates one.\n")
	b.WriteString("# Refresh with GENPLAY_UPDATE=1 go test ./cmd/genplay -run MigrateRoundTrip, and read the diff.\n")
	b.WriteString("counts:\n")
	for _, k := range sortedMapKeys(counts) {
		fmt.Fprintf(&b, "  %s: %d\n", k, counts[k])
	}
	b.WriteString("reasons: # why a conversion is partial or none, by how many scenarios\n")
	for _, k := range sortedMapKeys(reasons) {
		fmt.Fprintf(&b, "  - %q: %d\n", k, reasons[k])
	}
	b.WriteString("scenarios:\n")
	sort.Slice(results, func(i, j int) bool { return results[i].key < results[j].key })
	for _, r := range results {
		b.WriteString("  " + r.line() + "\n")
	}
	got := b.String()
	if os.Getenv("GENPLAY_UPDATE") != "" {
		require.NoError(t, os.WriteFile(roundTripFile, []byte(got), 0o644))
		t.Logf("wrote %s", roundTripFile)
	} else {
		want, err := os.ReadFile(roundTripFile)
		require.NoError(t, err, "GENPLAY_UPDATE=1 writes %s", roundTripFile)
		assert.Equal(t, string(want), got, "the round trip changed; GENPLAY_UPDATE=1 rewrites %s (read the diff)", roundTripFile)
	}
	t.Logf("%d scenarios: %d full, %d partial, %d none, %d rejected as written, %d without a policy; first generation: %d same, %d differs",
		len(results), counts[migrate.Full], counts[migrate.Partial], counts[migrate.None], counts["rejected"], counts["no-policy"],
		counts["first-generation same"], counts["first-generation differs"])
}

func sortedMapKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func runRoundTrip(t *testing.T, key string, test *scenario.Test, opts engine.Options) roundTrip {
	t.Helper()
	out := roundTrip{key: key}
	c := migrate.Compare(test, opts)
	conv := c.Conversion
	if len(conv.Policies) == 0 {
		out.conversion = "no-policy"
		return out
	}
	if rejectedAsWritten(c.Legacy) {
		out.conversion = "rejected"
		return out
	}
	out.conversion = conv.Status()
	seen := map[string]bool{}
	for _, f := range conv.Findings {
		if f.Kind != migrate.Unconverted {
			continue
		}
		reason := genericReason(f.Message)
		if !seen[reason] {
			seen[reason] = true
			out.reasons = append(out.reasons, reason)
		}
	}
	sort.Strings(out.reasons)
	out.valid = true
	for _, p := range conv.Policies {
		for _, r := range p.Rules {
			if r.YAML == "" {
				continue
			}
			if errs := check.Policies(key, r.YAML); len(errs) > 0 {
				out.valid = false
				out.invalid = append(out.invalid, errs...)
			}
		}
	}
	out.firstGen = "no-generation"
	if i := firstGeneration(c); i >= 0 {
		out.firstGen = "same"
		for _, d := range c.Steps[i].Diffs {
			if isDownstream(d.Legacy) || isDownstream(d.CEL) {
				out.firstGen = "differs"
				why := fmt.Sprintf("%s: ClusterPolicy run %s, GeneratingPolicy run %s", d.Ref, presence(d.Legacy), presence(d.CEL))
				if len(d.CELReasons) > 0 {
					why += "; GeneratingPolicy run: " + source.FirstLine(d.CELReasons[0])
				} else if len(d.LegacyReasons) > 0 {
					why += "; ClusterPolicy run: " + source.FirstLine(d.LegacyReasons[0])
				}
				out.differs = append(out.differs, why)
			}
		}
	}
	return out
}

// rejectedAsWritten reports whether Kyverno rejects a policy of the
// scenario as written (the validation tests): there is nothing to migrate.
func rejectedAsWritten(res *timeline.Result) bool {
	for _, s := range res.Steps {
		f := strings.Fields(s.Summary)
		if len(f) >= 2 && (f[1] == "ClusterPolicy" || f[1] == "Policy") && s.Error != "" {
			return true
		}
	}
	return false
}

// isDownstream: the normalized YAML of an object Kyverno generated keeps
// app.kubernetes.io/managed-by: kyverno (the generate.kyverno.io labels are
// removed by the comparison).
func isDownstream(y string) bool { return strings.Contains(y, "app.kubernetes.io/managed-by: kyverno") }

// genericReason cuts a finding's message to its reason, without the
// expression it quotes, so that reasons count across scenarios.
func genericReason(msg string) string {
	if i := strings.Index(msg, ": "); i >= 0 && strings.Contains(msg[:i], "{{") {
		msg = msg[:strings.Index(msg, " {{")] + msg[i:]
	}
	return msg
}

// firstGeneration returns the first step after which c's run as written
// holds a downstream (an object labelled generate.kyverno.io/policy-name),
// or -1.
func firstGeneration(c *migrate.Comparison) int {
	at := make(map[int]int, len(c.Steps)) // the last run step of each compared step
	for i, s := range c.Steps {
		at[s.Legacy[len(s.Legacy)-1].Index] = i
	}
	for st, cluster := range c.Legacy.Clusters() {
		i, ok := at[st.Index]
		if !ok {
			continue
		}
		for _, o := range cluster.Objects() {
			if _, ok := o.Labels()["generate.kyverno.io/policy-name"]; ok && migrate.Compared(o) {
				return i
			}
		}
	}
	return -1
}
