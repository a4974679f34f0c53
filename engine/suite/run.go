package suite

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/clitest"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// An Outcome's statuses.
const (
	Pass = "pass"
	Fail = "fail"
	Skip = "skip"
)

// Outcome is one test's result, as `genplay test --json` prints it.
type Outcome struct {
	Path   string `json:"path"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// Detail is the failure report for people: which operation failed,
	// expected vs actual.
	Detail []string `json:"-"`
	// Timeline is the run (nil for a test that did not run); File is the
	// test's file.
	Timeline *timeline.Result `json:"-"`
	File     File             `json:"-"`
	// Stopped is set when Options.Guard's context stopped the run (time,
	// memory): the outcome is then no verdict on the test.
	Stopped bool `json:"-"`
	// Start and Duration time the run (Options.Clock; zero without it),
	// for reports; Namespace is the namespace a chainsaw test ran in.
	Start     time.Time     `json:"-"`
	Duration  time.Duration `json:"-"`
	Namespace string        `json:"-"`
}

// Report is a suite's outcomes and their totals, as `genplay test --json`
// prints it.
type Report struct {
	// Kyverno is the Kyverno release the tests ran against: "v1.19.1".
	Kyverno string `json:"kyverno"`
	// Notes say how the run was set up: the chainsaw Configuration read,
	// and the fields of it that change nothing in genplay.
	Notes   []string  `json:"notes,omitempty"`
	Tests   []Outcome `json:"tests"`
	Passed  int       `json:"passed"`
	Failed  int       `json:"failed"`
	Skipped int       `json:"skipped"`
	// Config is the chainsaw Configuration the suite ran with (its report
	// settings among them), nil for none.
	Config *scenario.Configuration `json:"-"`
}

// Options are how a suite runs.
type Options struct {
	// FS holds the tests and every file they name.
	FS fs.FS
	// Permissions are what Kyverno's background controller may manage
	// before a chainsaw test's own RBAC objects.
	Permissions engine.Permissions
	// Install are applied to every fresh cluster before each test.
	Install []scenario.Resource
	// Config is chainsaw's Configuration, nil for none.
	Config *scenario.Configuration
	// Families are the policy families besides ClusterPolicy and Policy.
	Families []engine.Family
	// Scripts is the interpreter of script and command operations
	// (engine.Options.Scripts); nil: a test with one is skipped.
	Scripts engine.Scripts
	// Guard returns the context a chainsaw test's run takes and a function
	// to call after it (a safety net on time and memory); nil: none.
	Guard func() (context.Context, func())
	// Clock times each run for reports (time.Now); nil: runs are not
	// timed, and a suite's outcomes depend on nothing but its files.
	Clock func() time.Time
	// KyvernoVersion is the Kyverno release the tests run against
	// (engine.Options.KyvernoVersion); empty: the latest.
	KyvernoVersion string
}

// Run runs the files found, each test in a fresh simulated cluster, and
// reports their outcomes in order.
func Run(files []File, opts Options) *Report {
	st := &suiteRun{opts: opts}
	kyverno, err := engine.ParseKyvernoVersion(opts.KyvernoVersion)
	if err != nil {
		kyverno = opts.KyvernoVersion // every run says why it cannot run
	}
	report := &Report{Kyverno: kyverno, Tests: []Outcome{}, Config: opts.Config}
	for _, f := range files {
		var outcomes []Outcome
		if f.NoTest != "" {
			outcomes = []Outcome{{Path: f.Display, Status: Skip, Reason: f.NoTest, File: f}}
		} else if f.CLI {
			outcomes = st.cliFile(f)
		} else {
			outcomes = st.chainsawFile(f)
		}
		for _, o := range outcomes {
			switch o.Status {
			case Pass:
				report.Passed++
			case Fail:
				report.Failed++
				st.failed = true
			default:
				report.Skipped++
			}
			report.Tests = append(report.Tests, o)
		}
	}
	return report
}

// suiteRun is one run of a suite.
type suiteRun struct {
	opts   Options
	failed bool // a test failed (for failFast)
}

// chainsawFile runs every chainsaw Test of one file.
func (st *suiteRun) chainsawFile(f File) []Outcome {
	tests, diags := scenario.LoadConfigured(st.opts.FS, f.Path, st.opts.Config)
	if diags.HasErrors() {
		var detail []string
		for _, d := range diags.Errors() {
			detail = append(detail, displayPos(f, d.Pos.File, d.Pos.Line, d.Pos.Col)+": "+relativize(f, d.Message))
		}
		return []Outcome{{Path: f.Display, Status: Fail, Reason: "the test does not load", Detail: detail}}
	}
	if len(tests) == 0 {
		return []Outcome{{Path: f.Display, Status: Fail, Reason: "no chainsaw Test in the file"}}
	}
	var out []Outcome
	for _, t := range tests {
		out = append(out, st.chainsaw(f, t))
	}
	return out
}

// chainsaw runs one chainsaw Test, unless the Configuration or what it
// applies keeps it from running.
func (st *suiteRun) chainsaw(f File, t *scenario.Test) Outcome {
	o := Outcome{Path: f.Display, Name: t.Name, File: f}
	if t.Skip {
		o.Status, o.Reason = Skip, "the test sets spec.skip: true"
		return o
	}
	if reason := st.notRun(f, t); reason != "" {
		o.Status, o.Reason = Skip, reason
		return o
	}
	if c := st.opts.Config; c != nil && c.Namespace != "" && t.Namespace == "" {
		t.Namespace = c.Namespace
	}
	o.Namespace = t.Namespace
	if o.Namespace == "" {
		o.Namespace = engine.TestNamespace
	}
	if reason := unsimulatedPolicies(t); reason != "" {
		o.Status, o.Reason = Skip, reason
		return o
	}
	ctx, stop := context.Background(), func() {}
	if st.opts.Guard != nil {
		ctx, stop = st.opts.Guard()
	}
	// Kyverno's conformance suite runs with PolicyExceptions enabled
	// (scripts/config/standard/kyverno.yaml).
	st.clockIn(&o)
	res := engine.RunTest(t, engine.Options{Files: st.opts.FS, Permissions: st.opts.Permissions, Install: st.opts.Install,
		Context: ctx, Families: st.opts.Families, Scripts: st.opts.Scripts, PolicyExceptions: true, KyvernoVersion: st.opts.KyvernoVersion})
	st.clockOut(&o)
	stoppedBy := context.Cause(ctx)
	stop()
	o.Timeline = res
	switch {
	case stoppedBy != nil:
		o.Status, o.Reason, o.Stopped = Fail, fmt.Sprintf("genplay stopped the run: %v", stoppedBy), true
	case res.Skipped != "":
		o.Status, o.Reason = Skip, relativize(f, res.Skipped)
	case res.Passed:
		o.Status = Pass
	default:
		o.Status = Fail
		o.Reason, o.Detail = failure(f, res)
	}
	return o
}

// cliFile runs every Kyverno CLI test of one file.
func (st *suiteRun) cliFile(f File) []Outcome {
	data, err := fs.ReadFile(st.opts.FS, f.Path)
	if err != nil {
		return []Outcome{{Path: f.Display, Status: Fail, Reason: err.Error()}}
	}
	docs, diags := source.Parse(f.Path, data)
	if diags.HasErrors() {
		return []Outcome{{Path: f.Display, Status: Fail, Reason: "the test does not parse: " + source.FirstLine(diags.Error())}}
	}
	var out []Outcome
	for _, doc := range docs {
		if m, ok := doc.Value.(map[string]any); ok && m["kind"] == "Test" {
			out = append(out, st.cli(f, clitest.Read(doc)))
		}
	}
	if len(out) == 0 {
		return []Outcome{{Path: f.Display, Status: Fail, Reason: "no cli.kyverno.io/v1alpha1 Test in the file"}}
	}
	return out
}

// cli runs one Kyverno CLI test.
func (st *suiteRun) cli(f File, ct clitest.Test) Outcome {
	o := Outcome{Path: f.Display, Name: ct.Name, File: f}
	t, checks, skip, err := clitest.Build(st.opts.FS, f.Path, ct)
	switch {
	case err != nil:
		o.Status, o.Reason = Fail, err.Error()
		return o
	case skip != "":
		o.Status, o.Reason = Skip, skip
		return o
	}
	var values *engine.Values
	if vf, err := clitest.ReadValues(st.opts.FS, f.Path, ct); err == nil && vf != nil {
		values = vf.Values // Build read it already: an error there ended the test
	}
	// The Kyverno CLI checks no permissions and uses the exceptions the test names.
	st.clockIn(&o)
	res := engine.RunTest(t, engine.Options{Files: st.opts.FS, Permissions: engine.PermissionsUnchecked, Install: st.opts.Install,
		Families: st.opts.Families, Scripts: st.opts.Scripts, PolicyExceptions: len(ct.Exceptions) > 0, KeepUIDs: true, Values: values, KyvernoVersion: st.opts.KyvernoVersion})
	st.clockOut(&o)
	o.Timeline = res
	switch {
	case res.Skipped != "":
		o.Status, o.Reason = Skip, relativize(f, res.Skipped)
	case !res.Passed:
		o.Status = Fail
		o.Reason, o.Detail = failure(f, res)
	default:
		o.Status = Pass
		if problems := clitest.Verify(res, checks); len(problems) > 0 {
			o.Status, o.Reason, o.Detail = Fail, problems[0], problems
		}
	}
	return o
}

// clockIn and clockOut time a run with Options.Clock.
func (st *suiteRun) clockIn(o *Outcome) {
	if st.opts.Clock != nil {
		o.Start = st.opts.Clock()
	}
}

func (st *suiteRun) clockOut(o *Outcome) {
	if st.opts.Clock != nil {
		o.Duration = st.opts.Clock().Sub(o.Start)
	}
}

// notRun says why the chainsaw Configuration keeps a test from running:
// its regexes exclude it, or failFast stops the run after a failure.
func (st *suiteRun) notRun(f File, t *scenario.Test) string {
	c := st.opts.Config
	if c == nil {
		return ""
	}
	if st.failed && c.FailFast {
		return "not run: " + c.File + " sets failFast and an earlier test failed"
	}
	name := t.Name
	if c.FullName {
		dir := filepath.Dir(f.Display)
		name = filepath.ToSlash(dir) + "[" + t.Name + "]"
	}
	if !c.Selected(name) {
		return fmt.Sprintf("not run: %s selects tests by name (includeTestRegex, excludeTestRegex), and not %s", c.File, name)
	}
	return ""
}

// unsimulatedPolicies says why a test cannot be simulated when it writes
// policies genplay does not model: rules other than generate (validate,
// mutate, verifyImages) and the CEL policy types. Such a test would pass or
// fail for the wrong reasons.
func unsimulatedPolicies(t *scenario.Test) string {
	for _, step := range t.Steps {
		for _, ops := range [][]scenario.Operation{step.Try, step.Finally} {
			for _, op := range ops {
				switch op.Type {
				case scenario.OpApply, scenario.OpCreate, scenario.OpUpdate, scenario.OpPatch:
				default:
					continue
				}
				for _, r := range op.Resources {
					if reason := unsimulatedPolicy(r.Object); reason != "" {
						return fmt.Sprintf("%s: %s", filepath.Base(r.Pos().File), reason)
					}
				}
			}
		}
	}
	return ""
}

func unsimulatedPolicy(o resource.Object) string {
	group, _, _ := strings.Cut(o.APIVersion(), "/")
	if group == "policies.kyverno.io" {
		switch o.Kind() {
		case "GeneratingPolicy", "NamespacedGeneratingPolicy", "PolicyException":
			return ""
		}
		return fmt.Sprintf("applies the %s %s: genplay simulates generate policies only (ClusterPolicy and Policy generate rules, GeneratingPolicy)", o.Kind(), o.Name())
	}
	if group != "kyverno.io" || (o.Kind() != "ClusterPolicy" && o.Kind() != "Policy") {
		return ""
	}
	rules, _ := o.Nested("spec", "rules")
	list, _ := rules.([]any)
	for _, x := range list {
		r, _ := x.(map[string]any)
		for _, k := range []string{"validate", "mutate", "verifyImages"} {
			if _, ok := r[k]; ok {
				return fmt.Sprintf("applies %s %s, whose rule %v is a %s rule: genplay simulates generate rules only", o.Kind(), o.Name(), r["name"], k)
			}
		}
	}
	return ""
}

// failure explains a failed run: the failing operation and what differed.
func failure(f File, res *timeline.Result) (string, []string) {
	var detail []string
	reason := ""
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		where := displayPos(f, d.File, d.Line, d.Column)
		if reason == "" {
			reason = where + ": " + source.FirstLine(d.Message)
		}
		detail = append(detail, where+": "+d.Message)
	}
	if step := failedStep(res); step != nil {
		detail = append(detail, fmt.Sprintf("failed operation: step %q, %s", step.StepName, step.Summary))
	}
	if reason == "" {
		reason = "the test failed"
	}
	return reason, detail
}

func failedStep(res *timeline.Result) *timeline.Step {
	for i := len(res.Steps) - 1; i >= 0; i-- {
		st := &res.Steps[i]
		if st.Error != "" || st.Check != nil && !st.Check.Passed {
			return st
		}
	}
	return nil
}

// displayPos renders file:line:col relative to the test's folder.
func displayPos(f File, file string, line, col int) string {
	return timeline.Diagnostic{File: DisplayFile(f, file), Line: line, Column: col}.Where()
}

// DisplayFile names a file of a test's run (a path in the suite's file
// system) relative to the test's folder; the report line names the test.
func DisplayFile(f File, file string) string {
	if file == "" {
		return filepath.Base(f.Display)
	}
	if rel, err := filepath.Rel(filepath.FromSlash(filepath.Dir(f.Path)), filepath.FromSlash(file)); err == nil {
		return filepath.ToSlash(rel)
	}
	return file
}

// relativize rewrites fs paths in a message to paths relative to the
// test's folder (the line already names the test).
func relativize(f File, msg string) string {
	dir := filepath.ToSlash(filepath.Dir(f.Path)) + "/"
	return strings.ReplaceAll(msg, dir, "")
}

// Objects reads the manifests of a file, or of the YAML files of a folder
// (not recursively, as kubectl apply -f without -R), at p in fsys: what
// `genplay test --install` applies before each test.
func Objects(fsys fs.FS, p string) ([]scenario.Resource, error) {
	objs, err := clitest.Files{FS: fsys}.Objects(p)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("no manifest (a YAML document with apiVersion and kind)")
	}
	return objs, nil
}
