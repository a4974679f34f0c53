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

	"go.yaml.in/yaml/v3"

	"github.com/genplay/genplay/internal/testenv"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/suite"
)

// The expected outcome of every test of Kyverno's conformance suites lives
// in testdata: conformance-expected.yaml for generate/ (ClusterPolicy and
// Policy generate rules) and conformance-expected-gpol.yaml for
// generating-policies/ (GeneratingPolicy) of v1.19.0, and the same names
// with -VERSION for the suites of the other releases, each run against the
// release it comes from; the tests themselves stay in ../shared (Kyverno's
// data, not ours). One mechanism checks them all: GENPLAY_UPDATE=1
// rewrites a list from a run, keeping the hand-written reasons of expected
// failures.

// conformanceSuite is one of Kyverno's suites with its expected outcomes.
type conformanceSuite struct {
	kyverno  string // the release the suite is of, which genplay simulates for it
	dir      string // under the release's conformance root
	expected string // the list in testdata
	tests    int    // how many tests the suite holds
	passed   int    // how many genplay passes (the list says which)
	title    string // for the list's header
}

var conformanceSuites = []conformanceSuite{
	{kyverno: "v1.19.0", dir: "generate", expected: "testdata/conformance-expected.yaml", tests: 130, passed: 124,
		title: "Kyverno v1.19.0's generate conformance suite (ClusterPolicy and Policy)"},
	{kyverno: "v1.19.0", dir: "generating-policies", expected: "testdata/conformance-expected-gpol.yaml", tests: 65, passed: 61,
		title: "Kyverno v1.19.0's generating-policies conformance suite (GeneratingPolicy)"},
	{kyverno: "v1.18.2", dir: "generate", expected: "testdata/conformance-expected-v1.18.2.yaml", tests: 128, passed: 124,
		title: "Kyverno v1.18.2's generate conformance suite (ClusterPolicy and Policy)"},
	{kyverno: "v1.18.2", dir: "generating-policies", expected: "testdata/conformance-expected-gpol-v1.18.2.yaml", tests: 55, passed: 52,
		title: "Kyverno v1.18.2's generating-policies conformance suite (GeneratingPolicy)"},
	{kyverno: "v1.19.1", dir: "generate", expected: "testdata/conformance-expected-v1.19.1.yaml", tests: 130, passed: 124,
		title: "Kyverno v1.19.1's generate conformance suite (ClusterPolicy and Policy)"},
	{kyverno: "v1.19.1", dir: "generating-policies", expected: "testdata/conformance-expected-gpol-v1.19.1.yaml", tests: 66, passed: 62,
		title: "Kyverno v1.19.1's generating-policies conformance suite (GeneratingPolicy)"},
}

// conformanceRoot is the folder of a release's suites: v1.19.0's are
// testenv.Conformance's, the others' ../shared/conformance/versions/V, as
// Kyverno ships them (with their .chainsaw.yaml).
func conformanceRoot(t *testing.T, kyverno string) string {
	if kyverno == "v1.19.0" {
		return conformanceDir(t)
	}
	return testenv.Shared(t, "conformance", "versions", kyverno)
}

// suiteLocation is how a list names its suite's folder.
func suiteLocation(cs conformanceSuite) string {
	if cs.kyverno == "v1.19.0" {
		return "../shared/conformance/chainsaw/" + cs.dir
	}
	return "../shared/conformance/versions/" + cs.kyverno + "/" + cs.dir
}

// skippedByKyverno is the reason of a test whose spec.skip Kyverno's own
// run honours: not one of the tests Kyverno runs.
const skippedByKyverno = "the test sets spec.skip: true"

// Expected statuses: a run's pass and skip, and two kinds of failure.
const (
	// expectXFail: the test contradicts Kyverno's code (SEMANTICS.md ⚠);
	// genplay follows the code, so the test fails.
	expectXFail = "xfail"
	// expectFail: genplay is wrong here (a known bug, with its reason).
	expectFail = "fail"
)

type expectation struct {
	Status string `yaml:"status"`
	Reason string `yaml:"reason,omitempty"`
}

type expectations struct {
	// Suite is the folder the tests are in, relative to the repo root.
	Suite string                 `yaml:"suite"`
	Tests map[string]expectation `yaml:"tests"`
}

// conformanceDir returns Kyverno's chainsaw tests folder (testenv's rule
// when it is missing).
func conformanceDir(t *testing.T) string {
	t.Helper()
	return testenv.Conformance(t)
}

// suiteKey names a test in the list: its folder relative to the suite root.
func suiteKey(root, display string) string {
	abs, _ := filepath.Abs(display)
	absRoot, _ := filepath.Abs(root)
	rel, err := filepath.Rel(absRoot, filepath.Dir(abs))
	if err != nil {
		return display
	}
	return filepath.ToSlash(rel)
}

func TestConformanceSuiteMatchesTheExpectedOutcomes(t *testing.T) {
	for _, cs := range conformanceSuites {
		t.Run(cs.kyverno+"/"+cs.dir, func(t *testing.T) { checkSuite(t, conformanceRoot(t, cs.kyverno), cs) })
	}
}

// runConformance runs a suite as Kyverno's CI does, against the release it
// is of, every test (a suite's .chainsaw.yaml sets failFast: one failure
// would hide the tests after it).
func runConformance(t *testing.T, dir, kyverno string) *suite.Report {
	noFailFast := false
	report, err := runSuiteWith([]string{dir}, suiteOptions{permissions: engine.PermissionsKyvernoE2E, kyverno: kyverno, failFast: &noFailFast})
	require.NoError(t, err)
	require.Equal(t, kyverno, report.Kyverno)
	return report
}

func checkSuite(t *testing.T, root string, cs conformanceSuite) {
	dir := filepath.Join(root, cs.dir)
	report := runConformance(t, dir, cs.kyverno)
	require.Len(t, report.Tests, cs.tests, "Kyverno %s's %s suite holds %d tests", cs.kyverno, cs.dir, cs.tests)

	data, err := os.ReadFile(cs.expected)
	if os.IsNotExist(err) && os.Getenv("GENPLAY_UPDATE") != "" {
		data, err = nil, nil
	}
	require.NoError(t, err)
	var want expectations
	require.NoError(t, yaml.Unmarshal(data, &want))

	if os.Getenv("GENPLAY_UPDATE") != "" {
		writeExpectations(t, cs, dir, report, want)
		return
	}

	seen := map[string]bool{}
	passed := 0
	for _, got := range report.Tests {
		key := suiteKey(dir, got.Path)
		seen[key] = true
		if got.Status == suite.Pass {
			passed++
		}
		exp, ok := want.Tests[key]
		if !assert.True(t, ok, "%s is not in %s (GENPLAY_UPDATE=1 adds it)", key, cs.expected) {
			continue
		}
		wantStatus := exp.Status
		if wantStatus == expectXFail {
			wantStatus = expectFail
		}
		if got.Status != wantStatus {
			t.Errorf("%s: %s, but the list expects %s (%s)\n  reason: %s\n  %s", key, got.Status, exp.Status,
				exp.Reason, got.Reason, strings.Join(got.Detail, "\n  "))
		}
		if got.Status == suite.Skip {
			assert.NotEmpty(t, got.Reason, "%s: a skip names its reason", key)
		}
		if exp.Status == expectXFail || exp.Status == expectFail {
			assert.NotEmpty(t, exp.Reason, "%s: an expected failure names its reason in %s", key, cs.expected)
		}
	}
	for key := range want.Tests {
		assert.True(t, seen[key], "%s is in %s but not in the suite", key, cs.expected)
	}
	assert.Equal(t, cs.passed, passed, "genplay passes %d of the %s suite's tests", cs.passed, cs.dir)
	ran := 0
	for _, got := range report.Tests {
		if got.Status != suite.Skip || got.Reason != skippedByKyverno {
			ran++
		}
	}
	assert.GreaterOrEqual(t, passed*100, ran*95, "genplay passes at least 95%% of the tests Kyverno %s runs of its %s suite", cs.kyverno, cs.dir)
	t.Logf("Kyverno %s %s: %d of %d conformance tests pass (%d of the %d Kyverno runs, %.1f%%)", cs.kyverno, cs.dir, passed, len(report.Tests),
		passed, ran, float64(passed)*100/float64(ran))
}

// Kyverno v1.19.1 changed its test of a GeneratingPolicy edit with
// synchronize on with kyverno#16920: the downstream keeps its UID. genplay
// passes it under v1.19.1 and, like Kyverno v1.19.0, fails it under v1.19.0
// (the downstream is deleted and recreated).
func TestSyncModifyPolicyPassesOnlyFromV1_19_1(t *testing.T) {
	dir := filepath.Join(conformanceRoot(t, "v1.19.1"), "generating-policies", "data", "sync", "sync-modify-policy-and-downstream-data")
	for kyverno, want := range map[string]string{"v1.19.1": suite.Pass, "v1.19.0": suite.Fail, "v1.18.2": suite.Fail} {
		report := runConformance(t, dir, kyverno)
		require.Len(t, report.Tests, 1)
		got := report.Tests[0]
		assert.Equal(t, want, got.Status, "Kyverno %s: %s %s", kyverno, got.Reason, strings.Join(got.Detail, "; "))
		if want == suite.Fail {
			assert.Contains(t, got.Reason, "metadata.uid", "Kyverno %s recreates the downstream: the UID the test saved is gone", kyverno)
		}
	}
}

// Kyverno v1.19.0 added two tests with kyverno#16838: a trigger UPDATE
// rewrites the downstream in place (same UID), and a trigger updated out of
// the policy's matchConditions loses its downstream. genplay passes both
// from v1.19.0 and, like Kyverno v1.18.2, fails them under v1.18.2 (it
// deletes and recreates the downstream; its API server never sends the
// opt-out update to Kyverno, so the downstream stays).
func TestTriggerUpdateTestsPassOnlyFromV1_19_0(t *testing.T) {
	root := filepath.Join(conformanceRoot(t, "v1.19.0"), "generating-policies", "data", "sync")
	for test, why := range map[string]string{
		"sync-update-trigger-in-place": "downstream was recreated instead of updated in place",
		"sync-trigger-stops-matching":  "matches, but it must not",
	} {
		for _, kyverno := range []string{"v1.19.1", "v1.19.0", "v1.18.2"} {
			report := runConformance(t, filepath.Join(root, test), kyverno)
			require.Len(t, report.Tests, 1)
			got := report.Tests[0]
			detail := got.Reason + " " + strings.Join(got.Detail, "; ")
			if kyverno != "v1.18.2" {
				assert.Equal(t, suite.Pass, got.Status, "%s under Kyverno %s: %s", test, kyverno, detail)
				continue
			}
			assert.Equal(t, suite.Fail, got.Status, "%s under Kyverno %s: %s", test, kyverno, detail)
			assert.Contains(t, detail, why, "%s under Kyverno %s", test, kyverno)
		}
	}
}

// writeExpectations rewrites the list from a run. Skip reasons come from
// the run; a failure keeps its hand-written reason and status (xfail or
// fail), and a new failure is recorded as fail with the run's reason.
func writeExpectations(t *testing.T, cs conformanceSuite, dir string, report *suite.Report, old expectations) {
	t.Helper()
	out := expectations{Suite: old.Suite, Tests: map[string]expectation{}}
	if out.Suite == "" {
		out.Suite = suiteLocation(cs)
	}
	for _, got := range report.Tests {
		key := suiteKey(dir, got.Path)
		prev := old.Tests[key]
		switch got.Status {
		case suite.Pass:
			out.Tests[key] = expectation{Status: suite.Pass}
		case suite.Skip:
			out.Tests[key] = expectation{Status: suite.Skip, Reason: got.Reason}
		default:
			if prev.Status == expectXFail || prev.Status == expectFail {
				out.Tests[key] = prev
			} else {
				out.Tests[key] = expectation{Status: expectFail, Reason: "new failure: " + got.Reason}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Expected outcome of each test of %s under genplay.\n", cs.title)
	b.WriteString("# Checked by TestConformanceSuiteMatchesTheExpectedOutcomes (cmd/genplay); refresh with\n")
	b.WriteString("# GENPLAY_UPDATE=1 go test ./cmd/genplay -run Conformance (reasons of failures are kept).\n")
	b.WriteString("# status: pass | skip (genplay cannot run it honestly) | xfail (the test contradicts Kyverno's\n")
	b.WriteString("# code, see ../shared/kyverno/SEMANTICS.md and GENERATING-POLICY.md) | fail (a known genplay bug).\n")
	fmt.Fprintf(&b, "suite: %s\n", out.Suite)
	b.WriteString("tests:\n")
	keys := make([]string, 0, len(out.Tests))
	for k := range out.Tests {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		e := out.Tests[k]
		if e.Reason == "" {
			fmt.Fprintf(&b, "  %s: {status: %s}\n", k, e.Status)
			continue
		}
		reason, err := yaml.Marshal(e.Reason)
		require.NoError(t, err)
		fmt.Fprintf(&b, "  %s:\n    status: %s\n    reason: %s", k, e.Status, reason)
	}
	require.NoError(t, os.WriteFile(cs.expected, []byte(b.String()), 0o644))
	t.Logf("wrote %s", cs.expected)
}

func TestNamespacedPolicyTestsPass(t *testing.T) {
	report, err := runSuite([]string{filepath.Join("..", "..", "engine", "testdata", "chainsaw", "policy")}, engine.PermissionsKyvernoE2E)
	require.NoError(t, err)
	require.NotEmpty(t, report.Tests)
	for _, got := range report.Tests {
		assert.Equal(t, suite.Pass, got.Status, "%s: %s\n  %s", got.Path, got.Reason, strings.Join(got.Detail, "\n  "))
	}
}
