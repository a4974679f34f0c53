package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/site/examples"
)

// genplayExport runs `genplay export -o OUT FILE` and returns OUT's text.
func genplayExport(t *testing.T, file string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "exported", filepath.Base(file))
	require.NoError(t, os.MkdirAll(filepath.Dir(out), 0o755))
	var stdout, stderr bytes.Buffer
	code := run([]string{"export", "-o", out, file}, strings.NewReader(""), &stdout, &stderr)
	require.Equal(t, 0, code, "genplay export %s: %s", file, stderr.String())
	assert.Contains(t, stderr.String(), "asserts and")
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	return string(data)
}

// TestExportedGalleryPasses: every gallery example exports to a test with
// checks, and the exported file passes genplay test.
func TestExportedGalleryPasses(t *testing.T) {
	list, err := examples.All()
	require.NoError(t, err)
	passed := 0
	for _, ex := range list {
		t.Run(ex.File, func(t *testing.T) {
			src := filepath.Join(t.TempDir(), ex.File)
			require.NoError(t, os.WriteFile(src, ex.Text, 0o644))
			text := genplayExport(t, src)
			// The policy's readiness is waited for: by the example's own
			// assert right after it, or by one the export inserts.
			waits := strings.Count(text, "# genplay: wait until Kyverno reports") +
				strings.Count(text, "status:\n            conditions:\n            - reason: Succeeded") +
				strings.Count(text, "conditionStatus:\n              ready: true")
			assert.Positive(t, waits, "the policy's readiness is waited for")
			assert.Contains(t, text, "# genplay: Kyverno created", "what Kyverno generated is asserted")
			assert.True(t, strings.HasPrefix(text, string(ex.Text[:bytes.Index(ex.Text, []byte("apiVersion:"))])), "the comments on top are kept")
			exported := filepath.Join(t.TempDir(), ex.File)
			require.NoError(t, os.WriteFile(exported, []byte(text), 0o644))
			stdout, stderr, code := genplayTest(t, exported)
			require.Equal(t, 0, code, "genplay test of the exported %s:\n%s%s\n%s", ex.File, stdout, stderr, text)
			assert.Contains(t, stdout, "PASS")
			passed++
		})
	}
	t.Logf("%d of %d gallery examples export and pass genplay test", passed, len(list))
	assert.Equal(t, len(list), passed)
}

// TestExportedTestCatchesAChangedPolicy: an exported test fails when the
// policy is changed so that Kyverno behaves differently, at the check of
// what Kyverno would no longer do.
func TestExportedTestCatchesAChangedPolicy(t *testing.T) {
	for _, tc := range []struct {
		file, from, to string
		failsAt        string // what the failing check is about
	}{
		// synchronize off: the deleted downstream is not recreated.
		{"self-heal.yaml", "synchronize: true", "synchronize: false", `failed operation: step "delete the downstream", assert NetworkPolicy team-a/default-deny`},
		// orphaning on: deleting the policy keeps the downstream.
		{"policy-delete.yaml", "orphanDownstreamOnPolicyDelete: false", "orphanDownstreamOnPolicyDelete: true", `failed operation: step "delete the policy", error NetworkPolicy team-a/default-deny`},
		// the CEL family: synchronization off, the deleted copy stays gone.
		{"clone-self-heal-cel.yaml", "enabled: true", "enabled: false", `failed operation: step "delete the copy", assert Secret team-a/regcred`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			text := genplayExport(t, filepath.Join("testdata", "export", tc.file))
			dir := t.TempDir()
			asIs := filepath.Join(dir, "as-exported.yaml")
			require.NoError(t, os.WriteFile(asIs, []byte(text), 0o644))
			stdout, stderr, code := genplayTest(t, asIs)
			require.Equal(t, 0, code, "the exported test passes as it is: %s%s", stdout, stderr)

			require.Equal(t, 1, strings.Count(text, tc.from), "the policy's setting appears once")
			changed := filepath.Join(dir, "changed.yaml")
			require.NoError(t, os.WriteFile(changed, []byte(strings.Replace(text, tc.from, tc.to, 1)), 0o644))
			stdout, stderr, code = genplayTest(t, changed)
			assert.Equal(t, 1, code, "the changed policy fails the exported test: %s%s", stdout, stderr)
			assert.Contains(t, stdout, "FAIL")
			assert.Contains(t, stdout, tc.failsAt)
		})
	}
}

// TestExportRefusesAFailingScenario: a scenario that fails is not exported;
// the message names the file as the user wrote it.
func TestExportRefusesAFailingScenario(t *testing.T) {
	at := strings.LastIndex(passingTest, "level: info")
	failing := passingTest[:at] + "level: debug" + passingTest[at+len("level: info"):] // the assert no longer holds
	bad := filepath.Join(t.TempDir(), "failing.yaml")
	require.NoError(t, os.WriteFile(bad, []byte(failing), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"export", bad}, strings.NewReader(""), &stdout, &stderr))
	assert.Empty(t, stdout.String())
	assert.Contains(t, stderr.String(), "genplay export: the scenario fails at "+filepath.ToSlash(bad)+":")
	assert.Contains(t, stderr.String(), "export a scenario that passes")

	stderr.Reset()
	assert.Equal(t, 2, run([]string{"export"}, strings.NewReader(""), &stdout, &stderr))
	assert.Contains(t, stderr.String(), "want exactly one scenario file")
}

// TestExportedConformanceTestsPass: every test of Kyverno's conformance
// suites that genplay runs to a pass exports to a test (with their files:
// and step templates, whose checks go in steps of their own) that passes
// genplay test too.
func TestExportedConformanceTestsPass(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.CopyFS(root, os.DirFS(conformanceDir(t))))
	var tests []string
	require.NoError(t, filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "chainsaw-test.yaml" {
			tests = append(tests, p)
		}
		return err
	}))
	exported := 0
	for _, file := range tests {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(filepath.Dir(file), "exported-test.yaml")
		if run([]string{"export", "-o", out, file}, strings.NewReader(""), &stdout, &stderr) != 0 {
			continue // the scenario does not pass in genplay: nothing to export
		}
		exported++
		text, _, code := genplayTest(t, out)
		assert.Equal(t, 0, code, "the export of %s passes genplay test:\n%s", file, text)
	}
	t.Logf("%d of %d conformance tests export, and their exports pass genplay test", exported, len(tests))
	// 158: the tests that pass in genplay under a default Helm install's
	// permissions (export's default). Two more pass only under Kyverno's e2e
	// install, as in Kyverno's CI: cpol-clone-sync-modify-downstream-apply
	// (server-side apply is a patch, which its ClusterRole does not grant)
	// and skip-background-requests (its script updates a Namespace as the
	// background controller, which the chart lets only read Namespaces).
	assert.GreaterOrEqual(t, exported, 158, "as many tests export as pass in genplay (run -o: chart permissions)")
}

// TestExportTakesThePermissionsOfTheClusterItIsFor: a policy that clones a
// Secret is refused on a default Helm install (the background controller
// may not create Secrets) and accepted on Kyverno's e2e install;
// --permissions picks which cluster the exported test is for.
func TestExportTakesThePermissionsOfTheClusterItIsFor(t *testing.T) {
	src := filepath.Join(t.TempDir(), "clone.yaml")
	text := cheatSheetCase(t, "clone/downstream-deleted/sync-true-orphan-false")
	require.NoError(t, os.WriteFile(src, []byte(text), 0o644))
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"export", src}, strings.NewReader(""), &stdout, &stderr), "chart: the policy is refused")
	assert.Contains(t, stderr.String(), "for resource v1/Secret")
	stdout.Reset()
	stderr.Reset()
	assert.Equal(t, 0, run([]string{"export", "--permissions", "kyverno-e2e", src}, strings.NewReader(""), &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "# genplay: Kyverno created")
	stderr.Reset()
	assert.Equal(t, 2, run([]string{"export", "--permissions", "root", src}, strings.NewReader(""), &stdout, &stderr))
	assert.Contains(t, stderr.String(), "unknown permissions")
}
