package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/suite"
)

const passingTest = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: passing
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: settings
            namespace: default
          data:
            level: info
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: settings
            namespace: default
          data:
            level: info
`

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	return dir
}

func genplayTest(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(append([]string{"test"}, args...), strings.NewReader(""), &out, &errOut)
	return out.String(), errOut.String(), code
}

func TestGenplayTestReportsEachTestAndTheTotals(t *testing.T) {
	// b asserts a value the apply did not write.
	failing := strings.Replace(passingTest, "name: passing", "name: failing", 1)
	failing = failing[:strings.LastIndex(failing, "level: info")] + "level: debug\n"
	dir := writeFiles(t, map[string]string{
		"a/chainsaw-test.yaml": passingTest,
		"b/chainsaw-test.yaml": failing,
		"c/scenario.yaml":      strings.Replace(passingTest, "name: passing", "name: any-file-name", 1),
		"d/chainsaw-test.yaml": strings.Replace(passingTest, "    - assert:", "    - script:\n        content: kubectl logs pod/x\n    - assert:", 1),
	})
	stdout, _, code := genplayTest(t, dir)
	assert.Equal(t, 1, code, "a failed test makes the exit code 1")
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.NotEmpty(t, lines)
	assert.Equal(t, "2 passed, 1 failed, 1 skipped", lines[len(lines)-1], "the last line holds the totals")
	assert.Contains(t, stdout, "PASS "+filepath.ToSlash(filepath.Join(relToCwd(t, dir), "a/chainsaw-test.yaml")))
	assert.Contains(t, stdout, "FAIL ")
	assert.Contains(t, stdout, `expected "debug", got "info"`, "a failure shows expected and actual")
	assert.Contains(t, stdout, "failed operation:", "a failure names the operation")
	assert.Contains(t, stdout, "kubectl logs reads container logs", "a skip names its reason")
	assert.Contains(t, stdout, "SKIP ", "a YAML file of any name holding a chainsaw Test is found")
}

func relToCwd(t *testing.T, p string) string {
	t.Helper()
	cwd, err := os.Getwd()
	require.NoError(t, err)
	rel, err := filepath.Rel(cwd, p)
	require.NoError(t, err)
	return rel
}

func TestGenplayTestPrintsJSON(t *testing.T) {
	dir := writeFiles(t, map[string]string{"a/chainsaw-test.yaml": passingTest})
	stdout, _, code := genplayTest(t, "--json", dir)
	require.Equal(t, 0, code)
	var report struct {
		Tests []struct {
			Path, Name, Status, Reason string
		}
		Passed, Failed, Skipped int
	}
	require.NoError(t, json.Unmarshal([]byte(stdout), &report))
	require.Len(t, report.Tests, 1)
	assert.Equal(t, "passing", report.Tests[0].Name)
	assert.Equal(t, "pass", report.Tests[0].Status)
	assert.Equal(t, 1, report.Passed)
	assert.Zero(t, report.Failed+report.Skipped)
}

func TestGenplayTestUsageErrorsExitWithTwo(t *testing.T) {
	cases := map[string][]string{
		"no path":                nil,
		"a missing path":         {"does/not/exist"},
		"an unknown flag":        {"--nope", "."},
		"a file not a test":      {"testdata/conformance-expected.yaml"},
		"a folder without tests": {"../../engine/internal"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			_, stderr, code := genplayTest(t, args...)
			assert.Equal(t, 2, code)
			assert.NotEmpty(t, stderr)
		})
	}
}

// runSuite finds and runs every test under paths; chainsaw tests run with
// the given permissions for Kyverno's background controller.
func runSuite(paths []string, permissions engine.Permissions) (*suite.Report, error) {
	return runSuiteWith(paths, suiteOptions{permissions: permissions})
}
