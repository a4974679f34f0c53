package engine

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// Behaviour cases: every chainsaw Test under testdata/cases is a case. Its
// own assert and error operations state Kyverno's outcome (the cheat
// sheet's rows, SEMANTICS.md §2.5 and GENERATING-POLICY.md §3.8, and what
// Kyverno's CLI found, issue 16), so the same files run unchanged with
// chainsaw against a cluster with Kyverno. TestBehaviourCases runs each:
// it must pass, replay byte for byte, match its golden timeline (NAME.golden.txt
// beside it: every step, event and reason, as text; refresh with
// GENPLAY_UPDATE=1 and read the diff), and say what `said` below expects of
// it: what a cluster cannot show, the reasons genplay gives the user.
//
// A case under a folder named generatingpolicy runs with the CEL family.
// The background controller's permission check has its own tests (package
// rbac): cases run with PermissionsUnchecked.
//
// A case runs under every Kyverno release genplay simulates, unless its
// Test's annotation genplay.dev/kyverno-versions lists the releases whose
// behaviour it states ("v1.18.2, v1.19.0"): where releases differ, a case
// per behaviour, each naming its releases. Its golden timeline is that of
// the newest release it runs under; a release whose timeline differs from
// that has its own, NAME.VERSION.golden.txt (GENPLAY_UPDATE=1 writes and
// removes them).

// casesDir holds the cases.
const casesDir = "testdata/cases"

// gpolOptions runs the CEL family, as genplay run and genplay test do.
var gpolOptions = Options{Scripts: shell.New, Permissions: PermissionsUnchecked, Families: []Family{controller.New}}

// caseCheck is an expectation of a case beyond its chainsaw operations.
type caseCheck struct {
	// invalid: the case's input is refused, so it does not pass.
	invalid bool
	check   func(t *testing.T, res *timeline.Result, text string)
}

// said maps a case, or a prefix of cases ("folder/sync-true" is both
// orphan settings), to what its run must also show. Every key must name a
// case.
var said = map[string][]caseCheck{
	// ClusterPolicy
	"cheatsheet/clusterpolicy/data/operations-create-downstream-deleted/sync-true-orphan-false": {anEventSays("kyverno#10574")},
	"cheatsheet/clusterpolicy/clone/policy-deleted/sync-true-orphan-false-v1.18.2":              {kyvernoSays("kyverno#16329")},
	"cheatsheet/clusterpolicy/cases/edited-downstream-reverted": {
		eventStepEndsWith(timeline.ActionReverted, "synchronize is true and the downstream was changed")},
	"cheatsheet/clusterpolicy/cases/policy-retargeted": {anEventSays("stale target"),
		warns("no synchronization will be performed to the old target resource")},
	"cheatsheet/clusterpolicy/cases/user-action-first": {userFirst("delete Namespace team-a")},
	"cheatsheet/clusterpolicy/cases/unknown-field-refused": {refusedAt("synchronise: true",
		`unknown field "spec.rules[0].generate.synchronise"`, `ClusterPolicy in version "v1" cannot be handled as a ClusterPolicy`)},
	"cheatsheet/clusterpolicy/cases/typed-configmap-data": {failsWith(`could not create the downstream: ConfigMap in version "v1" cannot be handled as a ConfigMap: ` +
		`json: cannot unmarshal bool into Go struct field ConfigMap.data of type string`)},

	// GeneratingPolicy: the words, one of which a reason of Kyverno's
	// after the event must hold (that survive rewording: a setting, an
	// issue number).
	"cheatsheet/generatingpolicy/data/downstream-modified/":                                {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/downstream-deleted/":                                 {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/downstream-deleted-twice/sync-true":                  {kyvernoSays("kyverno#17265", "kyverno#17453")},
	"cheatsheet/generatingpolicy/data/downstream-deleted-twice/sync-false":                 {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/policy-updated/sync-true":                            {kyvernoSays("kyverno#16920", "re-sync")},
	"cheatsheet/generatingpolicy/data/policy-updated/sync-false":                           {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/downstream-modified-then-trigger-updated/sync-true":  {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/downstream-modified-then-trigger-updated/sync-false": {kyvernoSays("trigger was updated")},
	"cheatsheet/generatingpolicy/data/downstream-deleted-then-trigger-updated/sync-true":   {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/data/downstream-deleted-then-trigger-updated/sync-false":  {kyvernoSays("trigger was updated")},
	"cheatsheet/generatingpolicy/data/trigger-no-longer-matches/sync-true":                 {kyvernoSays("no longer match")},
	"cheatsheet/generatingpolicy/data/trigger-no-longer-matches/sync-false":                {kyvernoSays("matchCondition")},
	"cheatsheet/generatingpolicy/data/policy-deleted/sync-true":                            {kyvernoSays("orphanDownstreamOnPolicyDelete")},
	"cheatsheet/generatingpolicy/data/policy-deleted/sync-false":                           {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/source-modified/":                                   {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/source-deleted/sync-true":                           {kyvernoSays("source")},
	"cheatsheet/generatingpolicy/clone/source-deleted/sync-false":                          {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/downstream-modified/":                               {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/downstream-deleted/":                                {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/downstream-deleted-twice/sync-true":                 {kyvernoSays("kyverno#17265", "kyverno#17453")},
	"cheatsheet/generatingpolicy/clone/downstream-deleted-twice/sync-false":                {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/policy-updated/sync-true":                           {kyvernoSays("kyverno#16920", "re-sync")},
	"cheatsheet/generatingpolicy/clone/policy-updated/sync-false":                          {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/source-modified-then-trigger-updated/sync-true":     {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/clone/source-modified-then-trigger-updated/sync-false":    {kyvernoSays("trigger was updated")},
	"cheatsheet/generatingpolicy/clone/trigger-no-longer-matches/sync-true":                {kyvernoSays("no longer match")},
	"cheatsheet/generatingpolicy/clone/trigger-no-longer-matches/sync-false":               {kyvernoSays("matchCondition")},
	"cheatsheet/generatingpolicy/clone/policy-deleted/sync-true":                           {kyvernoSays("source-uid", "kyverno#17596", "orphanDownstreamOnPolicyDelete")},
	"cheatsheet/generatingpolicy/clone/policy-deleted/sync-false":                          {kyvernoSays("synchronize")},
	"cheatsheet/generatingpolicy/trigger-deleted/sync-true":                                {kyvernoSays("deleted", "trigger")},
	// GENERATING-POLICY.md §3.8's rows beyond the cheat sheet's table.
	"cheatsheet/generatingpolicy/cases/synchronize-turned-off":                         {kyvernoSays("synchronize was turned off")},
	"cheatsheet/generatingpolicy/cases/synchronize-turned-on":                          {kyvernoSays("synchronize is on")},
	"cheatsheet/generatingpolicy/cases/existing-triggers-without-generate-existing":    {anEventSays("the trigger was updated")},
	"cheatsheet/generatingpolicy/cases/periodic-scan-":                                 {anEventSays("periodic background scan")},
	"cheatsheet/generatingpolicy/cases/periodic-scan-recreates-with-generate-existing": {anEventSays("generateExisting is on")},
	"cheatsheet/generatingpolicy/cases/one-trigger-stops-generating-a-kind":            {kyvernoSays("kyverno#17020")},

	// What Kyverno's CLI found (issue 16): the failures and notes that say why.
	"kyverno-cli/non-string-label-value":                  {notesSay(3, "non-string", "NestedStringMap")},
	"kyverno-cli/dotted-context-name":                     {failsOnce(`Unknown key "settings" in path`)},
	"kyverno-cli/null-context-variable":                   {failsOnce("failed to add context entry for variable missing since it evaluated to nil")},
	"kyverno-cli/background-context-without-request-name": {failsOnce(`Unknown key "name" in path`)},
}

func TestBehaviourCases(t *testing.T) {
	var files []string
	require.NoError(t, fs.WalkDir(os.DirFS(casesDir), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".yaml" {
			files = append(files, p)
		}
		return err
	}))
	require.NotEmpty(t, files)
	used := map[string]bool{}
	for _, file := range files {
		name := strings.TrimSuffix(file, ".yaml")
		var checks []caseCheck
		for key, cs := range said {
			if strings.HasPrefix(name, key) {
				checks = append(checks, cs...)
				used[key] = true
			}
		}
		t.Run(name, func(t *testing.T) { runCase(t, name, checks) })
	}
	for key := range said {
		assert.True(t, used[key], "said[%q] names no case under %s", key, casesDir)
	}
}

// versionsAnnotation lists the Kyverno releases whose behaviour a case states.
const versionsAnnotation = "genplay.dev/kyverno-versions"

// caseVersions are the releases a case runs under, newest first: its
// annotation's, else every simulated release.
func caseVersions(t *testing.T, data []byte) []string {
	var doc struct {
		Metadata struct {
			Annotations map[string]string `yaml:"annotations"`
		} `yaml:"metadata"`
	}
	require.NoError(t, yaml.Unmarshal(data, &doc))
	all := KyvernoVersions()
	slices.Reverse(all)
	list, ok := doc.Metadata.Annotations[versionsAnnotation]
	if !ok {
		return all
	}
	var out []string
	for _, v := range all {
		for _, w := range strings.Split(list, ",") {
			if strings.TrimSpace(w) == v {
				out = append(out, v)
			}
		}
	}
	require.NotEmpty(t, out, "%s %q names no simulated release", versionsAnnotation, list)
	return out
}

// runCase runs one case under each release it holds for and checks it.
func runCase(t *testing.T, name string, checks []caseCheck) {
	data, err := os.ReadFile(filepath.Join(casesDir, name+".yaml"))
	require.NoError(t, err)
	versions := caseVersions(t, data)
	var newest string
	for i, v := range versions {
		text := runCaseAt(t, name, data, v, checks)
		golden := filepath.Join(casesDir, name+".golden.txt")
		if i == 0 {
			newest = text
		} else {
			golden = filepath.Join(casesDir, name+"."+v+".golden.txt")
			if text == newest {
				if os.Getenv("GENPLAY_UPDATE") != "" {
					_ = os.Remove(golden)
				}
				_, err := os.Stat(golden)
				assert.True(t, os.IsNotExist(err), "%s is the same as the newest release's timeline: GENPLAY_UPDATE=1 removes it", golden)
				continue
			}
		}
		if os.Getenv("GENPLAY_UPDATE") != "" {
			require.NoError(t, os.WriteFile(golden, []byte(text), 0o644))
		}
		want, err := os.ReadFile(golden)
		require.NoError(t, err, "no golden timeline for Kyverno %s: run GENPLAY_UPDATE=1 go test -run BehaviourCases ./engine/", v)
		assert.Equal(t, string(want), text, "Kyverno %s: the timeline changed: GENPLAY_UPDATE=1 rewrites %s (read the diff)", v, golden)
	}
	for _, v := range KyvernoVersions() {
		if !slices.Contains(versions, v) {
			_, err := os.Stat(filepath.Join(casesDir, name+"."+v+".golden.txt"))
			assert.True(t, os.IsNotExist(err), "%s does not run under Kyverno %s but has a golden timeline for it", name, v)
		}
	}
}

// runCaseAt runs one case under one release and returns its timeline's
// text, after the checks every run of it must pass.
func runCaseAt(t *testing.T, name string, data []byte, kyverno string, checks []caseCheck) string {
	opts := Options{Scripts: shell.New, Permissions: PermissionsUnchecked}
	if strings.Contains(name, "generatingpolicy/") {
		opts = gpolOptions
	}
	opts.KyvernoVersion = kyverno
	file := "cases/" + name + ".yaml"
	res := Run(file, data, opts)
	invalid := false
	for _, c := range checks {
		invalid = invalid || c.invalid
	}
	if !invalid && (!res.Passed || res.Skipped != "") {
		require.Fail(t, "the case did not pass under Kyverno "+kyverno, "%s\n--- %s:\n%s", describeRun(res), file, data)
	}
	got, err := timeline.Marshal(res)
	require.NoError(t, err)
	again, err := timeline.Marshal(Run(file, data, opts))
	require.NoError(t, err)
	require.Equal(t, string(got), string(again), "two runs of the same case must give the same bytes")
	for _, c := range checks {
		c.check(t, res, string(data))
	}
	return timelineText(res)
}

// timelineText is a run as a person reads it, the golden form of a case:
// every step with its events, reasons, checks, errors, warnings and the
// objects it changed (not their content, which the case's asserts state).
func timelineText(res *timeline.Result) string {
	var b strings.Builder
	status := "passed"
	if !res.Passed {
		status = "failed"
	}
	fmt.Fprintf(&b, "test %s: %s", res.Test, status)
	if res.Invalid {
		b.WriteString(", invalid input")
	}
	b.WriteString("\n")
	if res.Skipped != "" {
		fmt.Fprintf(&b, "skipped: %s\n", res.Skipped)
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s: %s: %s\n", d.Where(), d.Severity, d.Message)
	}
	for _, st := range res.Steps {
		fmt.Fprintf(&b, "\n[%d] %s / %s: %s (%s)\n", st.Index, st.StepName, st.Operation, st.Summary, st.Time)
		if st.Error != "" {
			fmt.Fprintf(&b, "    error: %s\n", st.Error)
		}
		for _, w := range st.Warnings {
			fmt.Fprintf(&b, "    warning: %s\n", w)
		}
		for _, e := range st.Events {
			fmt.Fprintf(&b, "    %d %s %s", e.Seq, e.Actor, e.Action)
			if e.Object != nil {
				fmt.Fprintf(&b, " %s", e.Object)
			}
			if e.Policy != "" {
				fmt.Fprintf(&b, " [%s %s]", e.Policy, e.Rule)
			}
			if e.Trigger != nil {
				fmt.Fprintf(&b, " (trigger %s)", e.Trigger)
			}
			fmt.Fprintf(&b, ": %s\n", e.Reason)
		}
		if c := st.Check; c != nil {
			switch {
			case c.Passed:
				b.WriteString("    check passed\n")
			default:
				fmt.Fprintf(&b, "    check failed: %s\n", strings.Join(c.Failures, "; "))
			}
		}
		for _, c := range st.Changes {
			fmt.Fprintf(&b, "    %s %s\n", c.Change, c.Object)
		}
	}
	return b.String()
}

// describeRun renders a result's diagnostics, steps and events for a
// failure message.
func describeRun(res *timeline.Result) string {
	var b strings.Builder
	if res.Skipped != "" {
		fmt.Fprintf(&b, "skipped: %s\n", res.Skipped)
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Column, d.Severity, d.Message)
	}
	for _, st := range res.Steps {
		fmt.Fprintf(&b, "[%d] %s %s\n", st.Index, st.Summary, st.Error)
		for _, e := range st.Events {
			fmt.Fprintf(&b, "     %s %s %v: %s\n", e.Actor, e.Action, e.Object, e.Reason)
		}
		if st.Check != nil && !st.Check.Passed {
			fmt.Fprintf(&b, "     check failed: %v %s\n", st.Check.Failures, st.Check.Skipped)
		}
	}
	return b.String()
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// events lists the events of a run that pass keep.
func events(res *timeline.Result, keep func(st *timeline.Step, e timeline.Event) bool) []timeline.Event {
	var out []timeline.Event
	for i := range res.Steps {
		for _, e := range res.Steps[i].Events {
			if keep(&res.Steps[i], e) {
				out = append(out, e)
			}
		}
	}
	return out
}

func reasonsOf(evs []timeline.Event) string {
	var b strings.Builder
	for _, e := range evs {
		b.WriteString(e.Reason + "\n")
	}
	return b.String()
}

// kyvernoSays: one of Kyverno's reasons from the step named "event" on
// (the event and the outcome) mentions one of words.
func kyvernoSays(words ...string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		after := false
		got := reasonsOf(events(res, func(st *timeline.Step, e timeline.Event) bool {
			after = after || st.StepName == "event"
			return after && e.Actor == timeline.ActorKyverno
		}))
		for _, w := range words {
			if strings.Contains(got, w) {
				return
			}
		}
		assert.Fail(t, "the timeline does not say why", "no reason of Kyverno's after the event mentions any of %q; the reasons:\n%s\n--- run:\n%s", words, got, describeRun(res))
	}}
}

// anEventSays: a reason of the run mentions word.
func anEventSays(word string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		assert.Contains(t, reasonsOf(events(res, func(*timeline.Step, timeline.Event) bool { return true })), word)
	}}
}

// warns: an admission warning of the run holds w.
func warns(w string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		var all []string
		for _, st := range res.Steps {
			all = append(all, st.Warnings...)
		}
		assert.Contains(t, strings.Join(all, "\n"), w, "the warning is shown on the step that caused it")
	}}
}

// eventStepEndsWith: the last event of the step named "event" is Kyverno's
// action, with reason.
func eventStepEndsWith(action, reason string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		var last *timeline.Step
		for i := range res.Steps {
			if res.Steps[i].StepName == "event" {
				last = &res.Steps[i]
			}
		}
		require.NotNil(t, last)
		require.NotEmpty(t, last.Events)
		e := last.Events[len(last.Events)-1]
		assert.Equal(t, timeline.ActorKyverno, e.Actor)
		assert.Equal(t, action, e.Action)
		assert.Equal(t, reason, e.Reason)
	}}
}

// userFirst: in the step summarized so, the user's action is the first
// event, and the sequence numbers are consecutive.
func userFirst(summary string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		var step *timeline.Step
		for i := range res.Steps {
			if res.Steps[i].Summary == summary {
				step = &res.Steps[i]
			}
		}
		require.NotNil(t, step)
		require.GreaterOrEqual(t, len(step.Events), 2)
		assert.Equal(t, timeline.ActorUser, step.Events[0].Actor, "the user's action comes before what it caused")
		for i := 1; i < len(step.Events); i++ {
			assert.Equal(t, step.Events[i-1].Seq+1, step.Events[i].Seq, "sequence numbers stay consecutive")
		}
	}}
}

// refusedAt: the case's input is refused with one diagnostic, at the line
// holding line, saying message; the first step's error holds stepError.
func refusedAt(line, message, stepError string) caseCheck {
	return caseCheck{invalid: true, check: func(t *testing.T, res *timeline.Result, text string) {
		require.False(t, res.Passed)
		require.Len(t, res.Diagnostics, 1, "one diagnostic, at the field")
		d := res.Diagnostics[0]
		lines := strings.Split(text, "\n")
		require.Less(t, d.Line-1, len(lines))
		assert.Contains(t, lines[d.Line-1], line)
		assert.Contains(t, d.Message, message)
		assert.Contains(t, res.Steps[0].Error, stepError)
	}}
}

func failedEvents(res *timeline.Result) []string {
	var out []string
	for _, e := range events(res, func(_ *timeline.Step, e timeline.Event) bool { return e.Action == timeline.ActionFailed }) {
		out = append(out, e.Reason)
	}
	return out
}

// failsWith: the run's failed UpdateRequests are exactly these.
func failsWith(reasons ...string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		assert.Equal(t, reasons, failedEvents(res))
	}}
}

// failsOnce: one UpdateRequest of the run failed, saying reason.
func failsOnce(reason string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		f := failedEvents(res)
		require.Len(t, f, 1)
		assert.Contains(t, f[0], reason)
	}}
}

// notesSay: n notes of the run hold every one of words.
func notesSay(n int, words ...string) caseCheck {
	return caseCheck{check: func(t *testing.T, res *timeline.Result, _ string) {
		var said int
		notes := events(res, func(_ *timeline.Step, e timeline.Event) bool { return e.Action == timeline.ActionNote })
		for _, e := range notes {
			all := true
			for _, w := range words {
				all = all && strings.Contains(e.Reason, w)
			}
			if all {
				said++
			}
		}
		assert.Equal(t, n, said, "the timeline says why, once per object: %s", reasonsOf(notes))
	}}
}
