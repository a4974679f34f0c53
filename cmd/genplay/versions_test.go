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
	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/timeline"
)

// policyUpdated is a GeneratingPolicy edited with synchronize on: Kyverno
// v1.19.1 updates its downstream in place, earlier releases delete and
// recreate it (kyverno#16920).
var policyUpdated = filepath.Join("..", "..", "engine", "testdata", "cases", "cheatsheet", "generatingpolicy", "data", "policy-updated", "sync-true-orphan-false.yaml")

func TestRunSimulatesTheReleaseItIsGiven(t *testing.T) {
	for _, tt := range []struct {
		flag, want, action string
	}{
		{"", "v1.19.1", timeline.ActionUpdated},
		{"v1.19.1", "v1.19.1", timeline.ActionUpdated},
		{"1.19.0", "v1.19.0", timeline.ActionRecreated},
		{"v1.18.2", "v1.18.2", timeline.ActionRecreated},
	} {
		t.Run(tt.want+"/"+tt.flag, func(t *testing.T) {
			args := []string{"-o", "json", policyUpdated}
			if tt.flag != "" {
				args = append([]string{"--kyverno-version", tt.flag}, args...)
			}
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, runCommand(args, nil, &stdout, &stderr), stderr.String())
			var res timeline.Result
			require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
			assert.Equal(t, tt.want, res.Kyverno, "the timeline says which release it shows")
			found := false
			for _, st := range res.Steps {
				for _, e := range st.Events {
					if e.Action == tt.action && e.Object != nil && e.Object.Kind == "NetworkPolicy" && strings.Contains(e.Reason, "kyverno#16920") {
						found = true
						assert.Equal(t, []string{"kyverno#16920"}, e.VersionChanges)
					}
				}
			}
			assert.True(t, found, "Kyverno %s %s the downstream, and says why with the change", tt.want, tt.action)
		})
	}
}

func TestAReleaseGenplayDoesNotSimulateIsRefused(t *testing.T) {
	for _, cmd := range []func([]string, *bytes.Buffer, *bytes.Buffer) int{
		func(a []string, o, e *bytes.Buffer) int { return runCommand(a, nil, o, e) },
		func(a []string, o, e *bytes.Buffer) int { return testCommand(a, o, e) },
		func(a []string, o, e *bytes.Buffer) int { return exportCommand(a, o, e) },
		func(a []string, o, e *bytes.Buffer) int { return migrateCommand(a, o, e) },
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, cmd([]string{"--kyverno-version", "v1.17.0", policyUpdated}, &stdout, &stderr))
		assert.Contains(t, stderr.String(), "--kyverno-version: Kyverno v1.17.0 is not simulated: genplay simulates v1.18.2, v1.19.0, v1.19.1")
	}
}

func TestCompareVersionsMarksTheStepThatDiffers(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, runCommand([]string{"--compare-versions", "-o", "json", policyUpdated}, nil, &stdout, &stderr), stderr.String())
	var c timeline.VersionComparison
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &c))
	assert.Equal(t, timeline.VersionsFormat, c.Format)
	assert.Equal(t, []string{"v1.18.2", "v1.19.0", "v1.19.1"}, c.Versions)
	var explained []string
	for _, st := range c.Steps {
		if st.Differs {
			explained = append(explained, st.Explained...)
		}
		require.Len(t, st.Runs, 3)
	}
	assert.Contains(t, explained, "kyverno#16920", "the policy edit differs, explained by kyverno#16920")
	ids := []string{}
	for _, ch := range c.Changes {
		ids = append(ids, ch.ID)
	}
	assert.Contains(t, ids, "kyverno#16920", "the comparison describes the changes it cites")

	stdout.Reset()
	require.Equal(t, 0, runCommand([]string{"--compare-versions", "--no-color", policyUpdated}, nil, &stdout, &stderr), stderr.String())
	text := stdout.String()
	assert.Contains(t, text, "under Kyverno v1.18.2, v1.19.0, v1.19.1")
	assert.Contains(t, text, "DIFFERS kyverno#16920: policy edits update GeneratingPolicy downstreams in place")
	assert.Contains(t, text, "https://github.com/kyverno/kyverno/pull/16920")
}

// A scenario a limit stops ends --compare-versions after the latest
// release's run (engine.CompareVersions): genplay run's own output and exit
// status, and a line on stderr that says where the comparison stopped.
func TestCompareVersionsStopsAtARunALimitStops(t *testing.T) {
	var in hostile.Input
	for _, h := range hostile.Runaway() {
		if engine.LimitStopped(engine.Run(h.Name, h.Data, engine.Options{})) {
			in = h
			break
		}
	}
	require.NotEmpty(t, in.Data, "some runaway input is stopped by a limit")
	file := filepath.Join(t.TempDir(), "runaway.yaml")
	require.NoError(t, os.WriteFile(file, in.Data, 0o644))

	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, runCommand([]string{"--compare-versions", "-o", "json", file}, nil, &stdout, &stderr))
	var res timeline.Result
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &res))
	assert.Equal(t, timeline.FormatVersion, res.Format, "the answer is the run's timeline")
	assert.Equal(t, "v1.19.1", res.Kyverno)
	assert.True(t, engine.LimitStopped(&res))
	assert.Contains(t, stderr.String(), "--compare-versions stopped at the run under Kyverno v1.19.1")
}
