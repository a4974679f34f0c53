package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
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
}

// testReport is `genplay test --json`'s output.
type testReport struct {
	Tests   []testOutcome `json:"tests"`
	Passed  int           `json:"passed"`
	Failed  int           `json:"failed"`
	Skipped int           `json:"skipped"`
}

func testCommand(args []string, stdout, stderr io.Writer) int {
	fset := flag.NewFlagSet("test", flag.ContinueOnError)
	fset.SetOutput(stderr)
	asJSON := fset.Bool("json", false, "print one JSON object instead of text")
	verbose := fset.Bool("v", false, "print the timeline of every failed test")
	all := fset.Bool("timelines", false, "with -v, print the timeline of every test, passed and skipped ones too")
	perms := fset.String("permissions", string(engine.PermissionsKyvernoE2E),
		"what Kyverno's background controller may manage before the test's own RBAC objects: chart (a default Helm install), kyverno-e2e (the install Kyverno's conformance tests assume) or none (no check)")
	if err := fset.Parse(args); err != nil {
		return 2
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
	report, err := runSuite(fset.Args(), permissions)
	if err != nil {
		fmt.Fprintf(stderr, "genplay test: %v\n", err)
		return 2
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
	if report.Failed > 0 {
		return 1
	}
	return 0
}

// writeReport prints `PASS|FAIL|SKIP path (reason)` per test (with the
// test's name after the path when a file holds several), failure details
// indented below, and the totals last.
func writeReport(w io.Writer, report *testReport) {
	perFile := map[string]int{}
	for _, t := range report.Tests {
		perFile[t.Path]++
	}
	for _, t := range report.Tests {
		line := strings.ToUpper(t.Status) + " " + t.Path
		if perFile[t.Path] > 1 {
			line += " [" + t.Name + "]"
		}
		if t.Reason != "" {
			line += " (" + t.Reason + ")"
		}
		fmt.Fprintln(w, line)
		for _, d := range t.detail {
			fmt.Fprintln(w, "    "+strings.ReplaceAll(d, "\n", "\n    "))
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
	files, err := findTests(paths)
	if err != nil {
		return nil, err
	}
	if len(files.list) == 0 {
		return nil, fmt.Errorf("no chainsaw Test or kyverno-test.yaml under %s", strings.Join(paths, ", "))
	}
	// Tests reach step templates with ../ paths, so the file system is
	// rooted at the volume root: every relative path a test names resolves.
	root := string(filepath.Separator)
	if vol := filepath.VolumeName(files.base); vol != "" {
		root = vol + root
	}
	fsys := os.DirFS(root)
	report := &testReport{Tests: []testOutcome{}}
	for _, f := range files.list {
		var outcomes []testOutcome
		if f.cli {
			outcomes = runCLITest(fsys, f)
		} else {
			outcomes = runChainsawFile(fsys, f, permissions)
		}
		for _, o := range outcomes {
			switch o.Status {
			case statusPass:
				report.Passed++
			case statusFail:
				report.Failed++
			default:
				report.Skipped++
			}
			report.Tests = append(report.Tests, o)
		}
	}
	return report, nil
}

type foundTests struct {
	base string
	list []testFile
}

// findTests expands paths into test files, sorted, each once.
func findTests(paths []string) (*foundTests, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	out := &foundTests{base: cwd}
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
		fsPath := filepath.ToSlash(strings.TrimPrefix(abs, filepath.VolumeName(abs)))
		fsPath = strings.TrimPrefix(fsPath, "/")
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
			kind, err := classify(abs)
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
			kind, err := classify(fp)
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
// CLI test ("cli") or neither ("").
func classify(p string) (string, error) {
	base := filepath.Base(p)
	for _, n := range scenario.TestFileNames {
		if base == n {
			return "chainsaw", nil
		}
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	if kindTest.Match(data) {
		if chainsawTestDoc.Match(data) {
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
func runChainsawFile(fsys fs.FS, f testFile, permissions engine.Permissions) []testOutcome {
	tests, diags := scenario.Load(fsys, f.fsPath)
	if diags.HasErrors() {
		var detail []string
		for _, d := range diags.Errors() {
			detail = append(detail, displayPos(f, d.Pos.File, d.Pos.Line, d.Pos.Col)+": "+d.Message)
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
		if reason := unsimulatedPolicies(t); reason != "" {
			o.Status, o.Reason = statusSkip, reason
			out = append(out, o)
			continue
		}
		// Kyverno's conformance suite runs with PolicyExceptions enabled
		// (scripts/config/standard/kyverno.yaml).
		res := engine.RunTest(t, engine.Options{Files: fsys, Permissions: permissions, Families: families, PolicyExceptions: true})
		o.timeline = res
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
