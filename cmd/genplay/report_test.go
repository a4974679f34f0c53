package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/internal/junitxml"
)

// mixedSuite is a folder with passing, failing and skipped tests of both
// kinds: chainsaw tests and Kyverno CLI tests.
func mixedSuite(t *testing.T) string {
	t.Helper()
	failing := strings.Replace(passingTest, "name: passing", "name: failing", 1)
	failing = failing[:strings.LastIndex(failing, "level: info")] + "level: debug\n"
	files := map[string]string{
		"a/chainsaw-test.yaml": passingTest,
		"b/chainsaw-test.yaml": failing,
		"c/chainsaw-test.yaml": strings.Replace(strings.Replace(passingTest, "name: passing", "name: skipped", 1), "spec:\n", "spec:\n  skip: true\n", 1),
	}
	copyDir := func(from, to string, mutate func(name, text string) string) {
		entries, err := os.ReadDir(from)
		require.NoError(t, err)
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(from, e.Name()))
			require.NoError(t, err)
			files[to+"/"+e.Name()] = mutate(e.Name(), string(b))
		}
	}
	same := func(_, text string) string { return text }
	copyDir(filepath.Join("..", "..", "engine", "suite", "testdata", "kyverno-test", "add-quota"), "k-pass", same)
	copyDir(filepath.Join("..", "..", "engine", "suite", "testdata", "kyverno-test", "add-quota"), "k-fail", func(name, text string) string {
		switch name {
		case "generated.yaml":
			return strings.Replace(text, `pods: "20"`, `pods: "21"`, 1)
		case "kyverno-test.yaml":
			return strings.Replace(text, "metadata:\n  name: add-quota\n", "metadata:\n  name: add-quota-fails\n", 1)
		}
		return text
	})
	copyDir(filepath.Join("..", "..", "engine", "suite", "testdata", "kyverno-test", "validate-only"), "k-skip", same)
	return writeFiles(t, files)
}

func TestJUnitReportsOfAMixedSuiteAreValidAndCountTheRun(t *testing.T) {
	dir := mixedSuite(t)
	out := t.TempDir()
	for _, format := range []string{"JUNIT-TEST", "junit-step", "JUNIT-OPERATION", "XML"} {
		t.Run(format, func(t *testing.T) {
			stdout, stderr, code := genplayTest(t, "--report-format", format, "--report-path", out, "--report-name", format, dir)
			require.Equal(t, 1, code, "a test failed: %s%s", stdout, stderr)
			lines := strings.Split(strings.TrimSpace(stdout), "\n")
			require.Equal(t, "2 passed, 2 failed, 2 skipped", lines[len(lines)-1])
			file := filepath.Join(out, format+".xml")
			assert.Contains(t, stderr, "report written to "+file)
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			rep, err := junitxml.Validate(data)
			require.NoError(t, err, "%s", data)
			results := map[string]int{}
			for _, c := range rep.Cases {
				results[c.Result]++
			}
			switch strings.ToUpper(format) {
			case "JUNIT-TEST", "XML":
				assert.Equal(t, 6, rep.Tests, "a testcase per test")
				assert.Equal(t, map[string]int{"passed": 2, "failed": 2, "skipped": 2}, results, "the counts match the run's")
			default:
				// Steps or operations: the failed tests' failures and the
				// skipped tests are still there, one each.
				assert.Equal(t, 2, results["failed"], "%s", data)
				assert.Equal(t, 2, results["skipped"])
				assert.Greater(t, results["passed"], 2)
			}
			var names []string
			for _, c := range rep.Cases {
				if c.Result == "failed" {
					names = append(names, c.Name)
				}
			}
			assert.Len(t, names, 2)
			assert.Contains(t, string(data), "pods", "the kyverno test's failure says what differed")
		})
	}
}

func TestTheJSONReportAndTheConfigurationsReport(t *testing.T) {
	dir := mixedSuite(t)
	out := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".chainsaw.yaml"), []byte(fmt.Sprintf(
		"apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nmetadata:\n  name: c\nspec:\n  report:\n    format: JSON\n    path: %s\n    name: from-config\n", out)), 0o644))
	// Under a Configuration only chainsaw-test.yaml files and kyverno tests count.
	stdout, stderr, code := genplayTest(t, dir)
	require.Equal(t, 1, code, stdout+stderr)
	data, err := os.ReadFile(filepath.Join(out, "from-config.json"))
	require.NoError(t, err, "the Configuration's report is written: %s", stderr)
	var rep struct {
		Passed, Failed, Skipped int
		Tests                   []struct{ Kind, Status string }
	}
	require.NoError(t, json.Unmarshal(data, &rep))
	assert.Equal(t, []int{2, 2, 2}, []int{rep.Passed, rep.Failed, rep.Skipped})
	assert.NotContains(t, stdout, "spec.report", "the report is no longer an ignored field")

	// The command line overrides the Configuration, as chainsaw's does.
	_, stderr, _ = genplayTest(t, "--report-format", "JUNIT-TEST", "--report-name", "from-flag", dir)
	_, err = os.Stat(filepath.Join(out, "from-flag.xml"))
	assert.NoError(t, err, stderr)

	_, stderr, code = genplayTest(t, "--report-format", "HTML", dir)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "unknown report format")
}
