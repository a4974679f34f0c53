package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/testreport"
	"github.com/genplay/genplay/engine/timeline"
)

// Outcome statuses of `genplay test`.
const (
	statusPass = "pass"
	statusFail = "fail"
	statusSkip = "skip"
)

// testOutcome is one test's result, as `genplay test --json` prints it.
type testOutcome struct {
	Path   string `json:"path"`
	Name   string `json:"name"`
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
	// detail is the failure report for people: which operation failed,
	// expected vs actual.
	detail []string
	// timeline is the run, for -v; file is the test's file.
	timeline *timeline.Result
	file     testFile
	// stopped is set when a safety net (input.go: time, memory) stopped
	// the run: genplay test then exits 3, not 1.
	stopped bool
	// start and duration time the test, for reports; namespace is the
	// namespace a chainsaw test ran in.
	start     time.Time
	duration  time.Duration
	namespace string
}

// testReport is `genplay test --json`'s output.
type testReport struct {
	// Notes say how the run was set up: the chainsaw Configuration read,
	// and the fields of it that change nothing in genplay.
	Notes   []string      `json:"notes,omitempty"`
	Tests   []testOutcome `json:"tests"`
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"`
	Skipped int           `json:"skipped"`
	// configReport is the Configuration's report settings.
	configReport scenario.Report
}

func testCommand(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("test", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print one JSON object instead of text")
	verbose := fset.Bool("v", false, "print the timeline of every failed test")
	all := fset.Bool("timelines", false, "with -v, print the timeline of every test, passed and skipped ones too")
	perms := fset.String("permissions", string(engine.PermissionsKyvernoE2E),
		"what Kyverno's background controller may manage before the test's own RBAC objects: chart (a default Helm install), kyverno-e2e (the install Kyverno's conformance tests assume) or none (no check)")
	var install []string
	fset.Func("install", "apply the manifests of FILE, or of the YAML files of a folder, to every fresh cluster before each test (the CRDs a suite assumes); repeatable",
		func(p string) error { install = append(install, p); return nil })
	config := fset.String("config", "", "chainsaw's Configuration file (default: .chainsaw.yaml in the first folder PATH, else in the working directory)")
	reportFormat := fset.String("report-format", "", "also write a report for CI, as chainsaw does: "+strings.Join(testreport.Formats, ", ")+" (default: the Configuration's, else none)")
	reportPath := fset.String("report-path", "", "the folder of the report (default: the Configuration's, else the working directory)")
	reportName := fset.String("report-name", "", "the report's file name; the format's extension is added when it has none (default: the Configuration's, else "+scenario.DefaultReportName+")")
	if err := fset.Parse(args); err != nil {
		return 2
	}
	if *reportFormat != "" {
		f, err := testreport.ParseFormat(*reportFormat)
		if err != nil {
			fmt.Fprintf(stderr, "genplay test: --report-format: %v\n", err)
			return 2
		}
		*reportFormat = f
	}
	permissions, err := engine.ParsePermissions(*perms)
	if err != nil {
		fmt.Fprintf(stderr, "genplay test: --permissions: %v\n", err)
		return 2
	}
	if fset.NArg() == 0 {
		fmt.Fprintln(stderr, "genplay test: want at least one PATH (a chainsaw test, a kyverno-test.yaml, or a folder holding them)")
		return 2
	}
	started := time.Now()
	report, err := runSuiteWith(fset.Args(), suiteOptions{permissions: permissions, install: install, config: *config})
	if err != nil {
		fmt.Fprintf(stderr, "genplay test: %v\n", err)
		return 2
	}
	// chainsaw's order: the flags override the Configuration's report.
	out := report.configReport
	setFlags := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { setFlags[f.Name] = true })
	if setFlags["report-format"] {
		out.Format = *reportFormat
	}
	if setFlags["report-path"] {
		out.Path = *reportPath
	}
	if setFlags["report-name"] {
		out.Name = *reportName
	}
	if out.Format != "" {
		file, err := writeTestReport(report, out, started)
		if err != nil {
			fmt.Fprintf(stderr, "genplay test: report: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "genplay test: %s report written to %s\n", out.Format, file)
	}
	if *verbose && !*asJSON {
		for _, t := range report.Tests {
			if t.timeline != nil && (t.Status == statusFail || *all) {
				fmt.Fprintf(stdout, "=== timeline of %s\n", t.Path)
				res := *t.timeline
				res.Diagnostics = append([]timeline.Diagnostic{}, res.Diagnostics...)
				for i := range res.Diagnostics {
					res.Diagnostics[i].File = displayFile(t.file, res.Diagnostics[i].File)
				}
				writeText(stdout, &res, false)
			}
		}
	}
	if *asJSON {
		out, err := json.MarshalIndent(report, "", "  ")
		if err != nil {
			fmt.Fprintf(stderr, "genplay test: %v\n", err)
			return 3
		}
		fmt.Fprintln(stdout, string(out))
	} else {
		writeReport(stdout, report)
	}
	for _, t := range report.Tests {
		if t.stopped {
			fmt.Fprintf(stderr, "genplay test: %s: %s (not a verdict on the test)\n", printable(t.Path, false), printable(t.Reason, false))
			return 3
		}
	}
	if report.Failed > 0 {
		return 1
	}
	return 0
}

// writeReport prints `PASS|FAIL|SKIP path (reason)` per test (with the
// test's name after the path when a file holds several), failure details
// indented below, and the totals last.
func writeReport(w io.Writer, report *testReport) {
	for _, n := range report.Notes {
		fmt.Fprintln(w, "NOTE "+n)
	}
	perFile := map[string]int{}
	for _, t := range report.Tests {
		perFile[t.Path]++
	}
	for _, t := range report.Tests {
		line := strings.ToUpper(t.Status) + " " + printable(t.Path, false)
		if perFile[t.Path] > 1 {
			line += " [" + printable(t.Name, false) + "]"
		}
		if t.Reason != "" {
			line += " (" + printable(t.Reason, false) + ")"
		}
		fmt.Fprintln(w, line)
		for _, d := range t.detail {
			fmt.Fprintln(w, "    "+strings.ReplaceAll(printable(d, true), "\n", "\n    "))
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", report.Passed, report.Failed, report.Skipped)
}

// testFile is a file genplay test runs.
type testFile struct {
	display string // as the user should read it
	fsPath  string // inside the fs rooted at /
	cli     bool   // a Kyverno CLI test (kyverno-test.yaml)
}

var (
	chainsawTestDoc = regexp.MustCompile(`(?m)^apiVersion:\s*["']?chainsaw\.kyverno\.io/v1alpha1["']?\s*$`)
	kindTest        = regexp.MustCompile(`(?m)^kind:\s*["']?Test["']?\s*$`)
	cliTestDoc      = regexp.MustCompile(`(?m)^apiVersion:\s*["']?cli\.kyverno\.io/v1alpha1["']?\s*$`)
)

// runSuite finds and runs every test under paths; chainsaw tests run with
// the given permissions for Kyverno's background controller.
func runSuite(paths []string, permissions engine.Permissions) (*testReport, error) {
	return runSuiteWith(paths, suiteOptions{permissions: permissions})
}

// suiteOptions are genplay test's settings.
type suiteOptions struct {
	permissions engine.Permissions
	// install are the files and folders of --install.
	install []string
	// config is --config; "" looks for .chainsaw.yaml.
	config string
}

// suite is a run of genplay test.
type suite struct {
	fsys        fs.FS
	permissions engine.Permissions
	install     []scenario.Resource
	config      *scenario.Configuration
	failed      bool // a test failed (for failFast)
}

// runSuiteWith finds and runs every test under paths.
func runSuiteWith(paths []string, opts suiteOptions) (*testReport, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	// Tests reach step templates with ../ paths, so the file system is
	// rooted at the volume root: every relative path a test names resolves.
	fsys, _ := rootFS(cwd)
	st := &suite{fsys: fsys, permissions: opts.permissions}
	report := &testReport{Tests: []testOutcome{}}
	if st.config, err = findConfiguration(paths, opts.config); err != nil {
		return nil, err
	}
	if st.config != nil {
		report.configReport = st.config.Report
		report.Notes = append(report.Notes, "chainsaw configuration "+st.config.File)
		for _, n := range st.config.Ignored {
			report.Notes = append(report.Notes, st.config.File+": "+n)
		}
	}
	for _, p := range opts.install {
		objs, err := readInstall(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("--install %s: %w", p, err)
		}
		st.install = append(st.install, objs...)
		report.Notes = append(report.Notes, fmt.Sprintf("--install %s: %d manifests applied before each test", p, len(objs)))
	}
	files, err := findTests(paths, st.config)
	if err != nil {
		return nil, err
	}
	if len(files.list) == 0 {
		return nil, fmt.Errorf("no chainsaw Test or kyverno-test.yaml under %s", strings.Join(paths, ", "))
	}
	for _, f := range files.list {
		var outcomes []testOutcome
		if f.cli {
			outcomes = st.runCLITest(f)
		} else {
			outcomes = st.runChainsawFile(f)
		}
		for _, o := range outcomes {
			switch o.Status {
			case statusPass:
				report.Passed++
			case statusFail:
				report.Failed++
				st.failed = true
			default:
				report.Skipped++
			}
			report.Tests = append(report.Tests, o)
		}
	}
	return report, nil
}

type foundTests struct {
	list []testFile
}

// findTests expands paths into test files, sorted, each once. Under a
// chainsaw Configuration, chainsaw tests are the files its testFile names.
func findTests(paths []string, config *scenario.Configuration) (*foundTests, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	out := &foundTests{}
	seen := map[string]bool{}
	add := func(abs string, cli bool) {
		if seen[abs] {
			return
		}
		seen[abs] = true
		display := abs
		if rel, err := filepath.Rel(cwd, abs); err == nil {
			display = rel
		}
		_, fsPath := rootFS(abs)
		out.list = append(out.list, testFile{display: filepath.ToSlash(display), fsPath: fsPath, cli: cli})
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		info, err := os.Stat(abs)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		if !info.IsDir() {
			kind, err := classify(abs, config)
			if err != nil {
				return nil, err
			}
			if kind == "" {
				return nil, fmt.Errorf("%s: neither a chainsaw Test nor a Kyverno CLI test (kyverno-test.yaml)", p)
			}
			add(abs, kind == "cli")
			continue
		}
		var found []string
		err = filepath.WalkDir(abs, func(fp string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if fp != abs && (d.Name() == ".git" || d.Name() == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			if ext := filepath.Ext(fp); ext == ".yaml" || ext == ".yml" {
				found = append(found, fp)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		sort.Strings(found)
		for _, fp := range found {
			kind, err := classify(fp, config)
			if err != nil {
				return nil, err
			}
			if kind != "" {
				add(fp, kind == "cli")
			}
		}
	}
	return out, nil
}

// classify says whether a file is a chainsaw test ("chainsaw"), a Kyverno
// CLI test ("cli") or neither (""). Without a chainsaw Configuration, any
// YAML file holding a chainsaw Test is one; with it, as in chainsaw, only
// the files its testFile names are.
func classify(p string, config *scenario.Configuration) (string, error) {
	base := filepath.Base(p)
	names := scenario.TestFileNames
	if config != nil {
		names = config.TestFileNames()
	}
	for _, n := range names {
		if base == n {
			return "chainsaw", nil
		}
	}
	data, err := readInput(p)
	if err != nil {
		return "", err
	}
	if kindTest.Match(data) {
		if chainsawTestDoc.Match(data) && config == nil {
			return "chainsaw", nil
		}
		if cliTestDoc.Match(data) {
			return "cli", nil
		}
	}
	return "", nil
}

// runChainsawFile runs every chainsaw Test of one file, each in a fresh
// simulated cluster.
func (st *suite) runChainsawFile(f testFile) []testOutcome {
	tests, diags := scenario.LoadConfigured(st.fsys, f.fsPath, st.config)
	if diags.HasErrors() {
		var detail []string
		for _, d := range diags.Errors() {
			detail = append(detail, displayPos(f, d.Pos.File, d.Pos.Line, d.Pos.Col)+": "+relativize(f, d.Message))
		}
		return []testOutcome{{Path: f.display, Status: statusFail, Reason: "the test does not load", detail: detail}}
	}
	if len(tests) == 0 {
		return []testOutcome{{Path: f.display, Status: statusFail, Reason: "no chainsaw Test in the file"}}
	}
	var out []testOutcome
	for _, t := range tests {
		o := testOutcome{Path: f.display, Name: t.Name, file: f}
		if t.Skip {
			o.Status, o.Reason = statusSkip, "the test sets spec.skip: true"
			out = append(out, o)
			continue
		}
		if reason := st.notRun(f, t); reason != "" {
			o.Status, o.Reason = statusSkip, reason
			out = append(out, o)
			continue
		}
		if st.config != nil && st.config.Namespace != "" && t.Namespace == "" {
			t.Namespace = st.config.Namespace
		}
		o.namespace = t.Namespace
		if o.namespace == "" {
			o.namespace = engine.TestNamespace
		}
		if reason := unsimulatedPolicies(t); reason != "" {
			o.Status, o.Reason = statusSkip, reason
			out = append(out, o)
			continue
		}
		ctx, stop := guard()
		// Kyverno's conformance suite runs with PolicyExceptions enabled
		// (scripts/config/standard/kyverno.yaml).
		o.start = time.Now()
		res := engine.RunTest(t, engine.Options{Files: st.fsys, Permissions: st.permissions, Install: st.install, Context: ctx,
			Families: families, PolicyExceptions: true})
		o.duration = time.Since(o.start)
		stoppedBy := context.Cause(ctx)
		stop()
		o.timeline = res
		if stoppedBy != nil {
			o.Status, o.Reason, o.stopped = statusFail, fmt.Sprintf("genplay stopped the run: %v", stoppedBy), true
			out = append(out, o)
			continue
		}
		switch {
		case res.Skipped != "":
			o.Status, o.Reason = statusSkip, relativize(f, res.Skipped)
		case res.Passed:
			o.Status = statusPass
		default:
			o.Status = statusFail
			o.Reason, o.detail = failure(f, res)
		}
		out = append(out, o)
	}
	return out
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

func unsimulatedPolicy(obj map[string]any) string {
	o := resourceObject(obj)
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

func resourceObject(m map[string]any) resource.Object { return resource.Object(m) }

// failure explains a failed run: the failing operation and what differed.
func failure(f testFile, res *timeline.Result) (string, []string) {
	var detail []string
	reason := ""
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		where := displayPos(f, d.File, d.Line, d.Column)
		if reason == "" {
			reason = where + ": " + firstLine(d.Message)
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

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// displayPos renders file:line:col relative to the test's folder.
func displayPos(f testFile, file string, line, col int) string {
	return timeline.Diagnostic{File: displayFile(f, file), Line: line, Column: col}.Where()
}

func displayFile(f testFile, file string) string {
	if file == "" {
		return filepath.Base(f.display)
	}
	// file is a path in the fs rooted at /; show it relative to the test's
	// folder (the report line names the test).
	if rel, err := filepath.Rel(filepath.FromSlash(filepath.Dir(f.fsPath)), filepath.FromSlash(file)); err == nil {
		return filepath.ToSlash(rel)
	}
	return file
}

// relativize rewrites fs paths in a message to paths relative to the
// test's folder (the line already names the test).
func relativize(f testFile, msg string) string {
	dir := filepath.ToSlash(filepath.Dir(f.fsPath)) + "/"
	return strings.ReplaceAll(msg, dir, "")
}

// notRun says why the chainsaw Configuration keeps a test from running:
// its regexes exclude it, or failFast stops the run after a failure.
func (st *suite) notRun(f testFile, t *scenario.Test) string {
	c := st.config
	if c == nil {
		return ""
	}
	if st.failed && c.FailFast {
		return "not run: " + c.File + " sets failFast and an earlier test failed"
	}
	name := t.Name
	if c.FullName {
		dir := filepath.Dir(f.display)
		name = filepath.ToSlash(dir) + "[" + t.Name + "]"
	}
	if !c.Selected(name) {
		return fmt.Sprintf("not run: %s selects tests by name (includeTestRegex, excludeTestRegex), and not %s", c.File, name)
	}
	return ""
}

// findConfiguration reads chainsaw's Configuration: the file given, else
// .chainsaw.yaml in the first folder among paths that has one, else in the
// working directory; nil when there is none.
func findConfiguration(paths []string, given string) (*scenario.Configuration, error) {
	candidates := []string{given}
	if given == "" {
		candidates = nil
		for _, p := range append(append([]string{}, paths...), ".") {
			if info, err := os.Stat(p); err == nil && info.IsDir() {
				for _, n := range scenario.ConfigFileNames {
					candidates = append(candidates, filepath.Join(p, n))
				}
			}
		}
	}
	for _, c := range candidates {
		data, err := os.ReadFile(c)
		if errors.Is(err, fs.ErrNotExist) && given == "" {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("--config: %w", err)
		}
		name := filepath.ToSlash(c)
		cfg, diags := scenario.ParseConfiguration(name, data)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s", diags.Errors()[0].Error())
		}
		return cfg, nil
	}
	return nil, nil
}

// readInstall reads the manifests of --install p: a file, or the YAML files
// of a folder (not recursively, as kubectl apply -f without -R).
func readInstall(fsys fs.FS, p string) ([]scenario.Resource, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	_, fsPath := rootFS(abs)
	objs, err := cliReader{fsys: fsys}.objects(fsPath)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 {
		return nil, fmt.Errorf("no manifest (a YAML document with apiVersion and kind)")
	}
	return objs, nil
}
