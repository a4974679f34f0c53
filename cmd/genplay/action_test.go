package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/genplay/genplay/internal/junitxml"
)

// TestMain lets the test binary stand in for the genplay command
// (GENPLAY_TEST_AS_CLI=1), so that scripts run by a test can call genplay.
func TestMain(m *testing.M) {
	if os.Getenv("GENPLAY_TEST_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// action is the part of action.yml the tests read.
type action struct {
	Runs struct {
		Using string
		Steps []struct {
			Name, ID, Uses, Shell, Run string
			Env                        map[string]string
		}
	}
	Inputs  map[string]struct{ Default string }
	Outputs map[string]struct{ Value string }
}

func readAction(t *testing.T) action {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "action.yml"))
	require.NoError(t, err)
	var a action
	require.NoError(t, yaml.Unmarshal(data, &a))
	return a
}

func TestTheActionInstallsGenplayAtItsOwnVersion(t *testing.T) {
	a := readAction(t)
	require.Equal(t, "composite", a.Runs.Using)
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	require.NoError(t, err)
	module := strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module ")
	var install string
	for _, s := range a.Runs.Steps {
		if s.Name == "Install genplay" {
			install = s.Run
			assert.Equal(t, "${{ inputs.version || github.action_ref }}", s.Env["GENPLAY_VERSION"])
		}
	}
	assert.Contains(t, install, `go install "`+module+`/cmd/genplay@$GENPLAY_VERSION"`, "the module path is go.mod's")
	assert.Equal(t, "JUNIT-TEST", a.Inputs["report-format"].Default)
}

// TestTheActionsTestStepWritesAJUnitReport runs the action's test step as
// the runner would, with genplay on the PATH, on a suite with failures.
func TestTheActionsTestStepWritesAJUnitReport(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Fatalf("the action's steps are bash scripts: %v", err)
	}
	a := readAction(t)
	var script string
	var env map[string]string
	for _, s := range a.Runs.Steps {
		if s.ID == "test" {
			script, env = s.Run, s.Env
		}
	}
	require.NotEmpty(t, script)
	self, err := os.Executable()
	require.NoError(t, err)
	bin := t.TempDir()
	require.NoError(t, os.Symlink(self, filepath.Join(bin, "genplay")))
	suite, out := mixedSuite(t), t.TempDir()
	output := filepath.Join(out, "github-output")
	inputs := map[string]string{"path": suite, "args": "--permissions kyverno-e2e", "report-format": a.Inputs["report-format"].Default,
		"report-path": out, "report-name": a.Inputs["report-name"].Default}
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "GENPLAY_TEST_AS_CLI=1", "GITHUB_OUTPUT="+output)
	for k, v := range env {
		name := strings.TrimSuffix(strings.TrimPrefix(v, "${{ inputs."), " }}")
		value, ok := inputs[name]
		require.True(t, ok, "the step's %s comes from the input %s", k, name)
		cmd.Env = append(cmd.Env, k+"="+value)
	}
	stdout, err := cmd.Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the step fails when a test fails:\n%s", stdout)
	assert.Equal(t, 1, exit.ExitCode())
	assert.Contains(t, string(stdout), "2 passed, 2 failed, 2 skipped")
	got, err := os.ReadFile(output)
	require.NoError(t, err)
	report := filepath.Join(out, "genplay-report.xml")
	assert.Equal(t, "report="+report+"\n", string(got), "the step's report output")
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	rep, err := junitxml.Validate(data)
	require.NoError(t, err)
	assert.Equal(t, []int{6, 2, 2}, []int{rep.Tests, rep.Failures, rep.Skipped})
}
