package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/suite"
	"github.com/genplay/genplay/engine/testreport"
	"github.com/genplay/genplay/engine/timeline"
)

// writeTestReport writes the run's report where settings say, as chainsaw
// does with --report-format, --report-path and --report-name, and returns
// the file written.
func writeTestReport(report *suite.Report, settings scenario.Report, started time.Time) (string, error) {
	run := reportRun(report, started, time.Since(started))
	var b bytes.Buffer
	if err := testreport.Write(&b, run, settings.Format); err != nil {
		return "", err
	}
	file := testreport.FileName(settings.Path, settings.Name, settings.Format)
	if dir := filepath.Dir(file); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return "", err
		}
	}
	return file, os.WriteFile(file, b.Bytes(), 0o644)
}

// reportRun is the run as testreport models it.
func reportRun(report *suite.Report, start time.Time, d time.Duration) *testreport.Run {
	run := &testreport.Run{Name: "genplay", Start: start, Duration: d}
	for _, o := range report.Tests {
		t := testreport.Test{Folder: filepath.ToSlash(filepath.Dir(o.Path)), File: o.Path, Name: o.Name, Kind: "chainsaw",
			Namespace: o.Namespace, Reason: o.Reason, Detail: o.Detail, Start: o.Start, Duration: o.Duration}
		if o.File.CLI || o.File.NoTest != "" {
			t.Kind = "kyverno"
		}
		if t.Start.IsZero() {
			t.Start = start // not run: skipped before its cluster was made
		}
		switch o.Status {
		case suite.Pass:
			t.Status = testreport.Passed
		case suite.Fail:
			t.Status = testreport.Failed
		default:
			t.Status = testreport.Skipped
		}
		if o.Timeline != nil && o.Status != suite.Skip {
			t.Steps = reportSteps(o.Timeline)
		}
		run.Tests = append(run.Tests, t)
	}
	return run
}

// reportSteps groups the timeline's operations into the test's steps (a
// step's operations are consecutive and share its name). genplay runs a
// test in one go, so steps and operations are not timed apart.
func reportSteps(res *timeline.Result) []testreport.Step {
	var steps []testreport.Step
	for _, st := range res.Steps {
		name := st.StepName
		if name == "" {
			name = "setup" // what genplay does before the test's steps: its namespace
		}
		if len(steps) == 0 || steps[len(steps)-1].Name != name {
			steps = append(steps, testreport.Step{Name: name})
		}
		op := testreport.Operation{Name: st.Summary, Type: st.Operation}
		switch {
		case st.Error != "":
			op.Failure = st.Error
		case st.Check != nil && !st.Check.Passed:
			op.Failure = strings.Join(st.Check.Failures, "; ")
			if op.Failure == "" {
				op.Failure = st.Operation + " failed"
			}
		}
		last := &steps[len(steps)-1]
		last.Operations = append(last.Operations, op)
	}
	return steps
}
