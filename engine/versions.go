package engine

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/timeline"
)

// CompareVersions runs a scenario under every Kyverno release genplay
// simulates (opts.KyvernoVersion is ignored) and compares the runs step by
// step: a step differs when the releases' events (their action and
// object), checks, errors, warnings or changed objects differ, and is
// explained by the changes between releases its events name, or follows
// from an earlier step that differed. Runs are aligned by step index.
//
// The latest release runs first, and a run that cannot be compared ends
// the comparison (see CompareVersionsWith): then c is nil, stop is that
// run's result, the answer a caller gives, and release its release.
func CompareVersions(file string, data []byte, opts Options) (c *timeline.VersionComparison, stop *timeline.Result, release string) {
	return CompareVersionsWith(opts, func(o Options) *timeline.Result { return Run(file, data, o) })
}

// CompareVersionsWith is CompareVersions for a caller that runs each
// release itself (the HTTP API runs it where it runs any scenario: genplay
// serve's isolated process). It runs the releases the latest first and
// stops at a run that cannot be compared: input the latest release cannot
// run, a run a limit stopped, an internal error, or a cancelled
// opts.Context. So input that cannot run, and hostile input, cost one run
// and answer what a run without the comparison answers, and the work is
// at most one run's per release.
func CompareVersionsWith(opts Options, run func(Options) *timeline.Result) (c *timeline.VersionComparison, stop *timeline.Result, release string) {
	versions := KyvernoVersions()
	runs := make([]*timeline.Result, len(versions))
	for i := len(versions) - 1; i >= 0; i-- {
		o := opts
		o.KyvernoVersion = versions[i]
		res := run(o)
		if IsInternalError(res) || LimitStopped(res) || (i == len(versions)-1 && Unrunnable(res)) || (o.Context != nil && o.Context.Err() != nil) {
			return nil, res, versions[i]
		}
		runs[i] = res
	}
	return compareRuns(versions, runs), nil, ""
}

// LimitStopped reports whether a limit stopped the run (a diagnostic that
// starts with LimitPrefix).
func LimitStopped(res *timeline.Result) bool {
	for _, d := range res.Diagnostics {
		if d.Severity == "error" && strings.HasPrefix(d.Message, LimitPrefix) {
			return true
		}
	}
	return false
}

// Unrunnable reports whether the input could not run at all: no step ran
// and a diagnostic is an error (genplay run's exit status 2).
func Unrunnable(res *timeline.Result) bool {
	if len(res.Steps) > 0 {
		return false
	}
	for _, d := range res.Diagnostics {
		if d.Severity == "error" {
			return true
		}
	}
	return false
}

// compareRuns compares the runs of one scenario under versions (as
// KyvernoVersions lists them, oldest first; runs in the same order).
func compareRuns(versions []string, runs []*timeline.Result) *timeline.VersionComparison {
	latest := runs[len(runs)-1]
	c := &timeline.VersionComparison{Format: timeline.VersionsFormat, Test: latest.Test, Versions: versions,
		Passed: map[string]bool{}, Steps: []timeline.ComparedStep{}, Changes: []timeline.VersionChange{}, Diagnostics: latest.Diagnostics}
	if c.Diagnostics == nil {
		c.Diagnostics = []timeline.Diagnostic{}
	}
	n := 0
	for i, r := range runs {
		c.Passed[versions[i]] = r.Passed
		n = max(n, len(r.Steps))
	}
	cited := map[string]bool{}
	lastDiffer := -1
	for idx := range n {
		cs := timeline.ComparedStep{Index: idx, FollowsFrom: -1}
		sigs := make([]string, len(runs))
		explained := map[string]bool{}
		for i, r := range runs {
			vs := timeline.VersionStep{Kyverno: versions[i], Events: []timeline.Event{}, Changes: []timeline.Change{}}
			if idx < len(r.Steps) {
				st := r.Steps[idx]
				if cs.Summary == "" {
					cs.StepName, cs.Summary = st.StepName, st.Summary
				}
				vs.Ran, vs.Events, vs.Check, vs.Error, vs.Warnings = true, st.Events, st.Check, st.Error, st.Warnings
				for _, ch := range st.Changes {
					ch.Diff = "" // the runs' own timelines have them
					vs.Changes = append(vs.Changes, ch)
				}
				for _, e := range st.Events {
					for _, id := range e.VersionChanges {
						explained[id] = true
					}
				}
			}
			sigs[i] = stepSignature(vs)
			cs.Runs = append(cs.Runs, vs)
		}
		for _, s := range sigs[1:] {
			cs.Differs = cs.Differs || s != sigs[0]
		}
		if cs.Differs {
			c.Differs++
			for id := range explained {
				cs.Explained = append(cs.Explained, id)
				cited[id] = true
			}
			sort.Strings(cs.Explained)
			if len(cs.Explained) == 0 {
				cs.FollowsFrom = lastDiffer
			}
			lastDiffer = idx
		}
		c.Steps = append(c.Steps, cs)
	}
	for _, ch := range upstream.Changes() {
		if cited[ch.ID] {
			c.Changes = append(c.Changes, versionChange(ch))
		}
	}
	return c
}

// versionChange is a change as the comparison describes it.
func versionChange(ch *upstream.Change) timeline.VersionChange {
	return timeline.VersionChange{ID: ch.ID, URL: ch.URL(), Since: string(ch.Since), Family: ch.Family, Title: ch.Title, Before: ch.Before, After: ch.After}
}

// stepSignature is what a step did, without what differs between releases
// by construction (reasons, times, UIDs): the comparison's notion of the
// same step.
func stepSignature(vs timeline.VersionStep) string {
	if !vs.Ran {
		return "not run"
	}
	var b strings.Builder
	for _, e := range vs.Events {
		if e.Action == timeline.ActionNote {
			continue
		}
		obj := ""
		if e.Object != nil {
			obj = e.Object.String()
		}
		fmt.Fprintf(&b, "event %s %s %s\n", e.Actor, e.Action, obj)
	}
	changes := make([]string, len(vs.Changes))
	for i, ch := range vs.Changes {
		changes[i] = ch.Change + " " + ch.Object.String()
	}
	slices.Sort(changes)
	for _, ch := range changes {
		fmt.Fprintf(&b, "change %s\n", ch)
	}
	if vs.Check != nil {
		fmt.Fprintf(&b, "check %v %s %v\n", vs.Check.Passed, vs.Check.Skipped, vs.Check.Failures)
	}
	fmt.Fprintf(&b, "error %s\nwarnings %q\n", vs.Error, vs.Warnings)
	return b.String()
}
