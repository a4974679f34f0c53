package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/suite"
)

// policyLibrary is a tree laid out like Kyverno's policy library
// (github.com/kyverno/policies): a .chainsaw.yaml Configuration, CRDs under
// .chainsaw/crds, and per policy a .chainsaw-test and a .kyverno-test.
var policyLibrary = filepath.Join("testdata", "policy-library")

func TestAPolicyLibraryTreeRunsItsGenerateTestsWithItsCRDsInstalled(t *testing.T) {
	stdout, stderr, code := genplayTest(t, "--json", "--install", filepath.Join(policyLibrary, ".chainsaw", "crds"), policyLibrary)
	require.Equal(t, 0, code, stdout+stderr)
	var report struct {
		Notes                   []string
		Tests                   []struct{ Path, Name, Status, Reason string }
		Passed, Failed, Skipped int
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	assert.Equal(t, 4, report.Passed, "two chainsaw tests and two kyverno-test.yaml files")
	assert.Zero(t, report.Failed)
	require.Equal(t, 1, report.Skipped)
	for _, o := range report.Tests {
		if o.Status == suite.Skip {
			assert.Equal(t, "default-configmap-wip", o.Name, "the Configuration's excludeTestRegex keeps it from running")
			assert.Contains(t, o.Reason, "excludeTestRegex")
		}
	}
	notes := strings.Join(report.Notes, "\n")
	assert.Contains(t, notes, "chainsaw configuration "+filepath.ToSlash(filepath.Join(policyLibrary, ".chainsaw.yaml")))
	assert.Contains(t, notes, "spec.timeouts: ignored")
	assert.Contains(t, notes, "1 manifests applied before each test")
}

func TestAPolicyLibraryTestThatNeedsItsCRDFailsWithoutIt(t *testing.T) {
	report, err := runSuiteWith([]string{policyLibrary}, suiteOptions{permissions: engine.PermissionsKyvernoE2E})
	require.NoError(t, err)
	byPath := map[string]suite.Outcome{}
	for _, o := range report.Tests {
		byPath[filepath.ToSlash(o.Path)] = o
	}
	tenant := byPath[filepath.ToSlash(filepath.Join(policyLibrary, "multitenancy", "tenant-quota", ".chainsaw-test", "chainsaw-test.yaml"))]
	assert.Equal(t, suite.Fail, tenant.Status, "without the Tenant CRD, chainsaw cannot know a Tenant is namespaced")
}

func TestTheChainsawConfigurationChangesWhatARunDoes(t *testing.T) {
	failing := strings.Replace(passingTest, "name: passing", "name: failing", 1)
	failing = failing[:strings.LastIndex(failing, "level: info")] + "level: debug\n"
	namespaced := strings.Replace(passingTest, "name: passing", "name: namespaced", 1)
	namespaced = strings.ReplaceAll(namespaced, "            namespace: default\n", "")
	namespaced = strings.Replace(namespaced, "    - assert:", "    - assert:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n          metadata:\n            name: shared\n    - assert:", 1)
	files := map[string]string{
		"a/chainsaw-test.yaml": failing,
		"b/chainsaw-test.yaml": passingTest,
		"c/my-test.yaml":       namespaced,
		"d/scenario.yaml":      strings.Replace(passingTest, "name: passing", "name: other-file-name", 1),
	}
	t.Run("failFast stops after the first failure", func(t *testing.T) {
		files := copyFiles(files)
		files[".chainsaw.yaml"] = "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nmetadata:\n  name: c\nspec:\n  execution:\n    failFast: true\n"
		report, err := runSuite([]string{writeFiles(t, files)}, engine.PermissionsKyvernoE2E)
		require.NoError(t, err)
		require.Len(t, report.Tests, 2, "only chainsaw-test.yaml files are tests under a Configuration")
		assert.Equal(t, suite.Fail, report.Tests[0].Status)
		assert.Equal(t, suite.Skip, report.Tests[1].Status)
		assert.Contains(t, report.Tests[1].Reason, "failFast")
	})
	t.Run("testFile names the tests, and namespace is every test's namespace", func(t *testing.T) {
		files := copyFiles(files)
		files["conf.yaml"] = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Configuration\nmetadata:\n  name: c\nspec:\n  testFile: my-test\n  namespace: shared\n"
		dir := writeFiles(t, files)
		stdout, stderr, code := genplayTest(t, "--config", filepath.Join(dir, "conf.yaml"), dir)
		assert.Equal(t, 0, code, stdout+stderr)
		assert.Contains(t, stdout, "PASS "+filepath.ToSlash(filepath.Join(relToCwd(t, dir), "c", "my-test.yaml")))
		assert.Contains(t, stdout, "1 passed, 0 failed, 0 skipped")
	})
	t.Run("a Configuration genplay cannot read is a usage error", func(t *testing.T) {
		files := copyFiles(files)
		files[".chainsaw.yaml"] = "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  discovery:\n    testfile: x\n"
		_, stderr, code := genplayTest(t, writeFiles(t, files))
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, ".chainsaw.yaml:5")
	})
}

func copyFiles(in map[string]string) map[string]string {
	out := make(map[string]string, len(in))
	for k, v := range in {
		out[k] = v
	}
	return out
}

func TestKyvernosSuitesRunWithTheirOwnChainsawConfiguration(t *testing.T) {
	versions := filepath.Join(filepath.Dir(conformanceDir(t)), "versions")
	suites, err := filepath.Glob(filepath.Join(versions, "*", "generating-policies"))
	require.NoError(t, err)
	require.NotEmpty(t, suites, "Kyverno's suites as shipped are under %s", versions)
	for _, dir := range suites {
		t.Run(filepath.Base(filepath.Dir(dir)), func(t *testing.T) {
			stdout, stderr, code := genplayTest(t, "--json", dir)
			require.NotEqual(t, 2, code, "the suite's .chainsaw.yaml (chainsaw.kyverno.io/v1alpha2) is read: %s", stderr)
			var report suite.Report
			require.NoError(t, json.Unmarshal([]byte(stdout), &report))
			notes := strings.Join(report.Notes, "\n")
			assert.Contains(t, notes, "chainsaw configuration "+filepath.ToSlash(filepath.Join(dir, ".chainsaw.yaml")))
			assert.Contains(t, notes, "spec.namespace.fastDelete: ignored")
			assert.Positive(t, report.Passed)
		})
	}
}
