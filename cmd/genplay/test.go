package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/suite"
	"github.com/genplay/genplay/engine/testreport"
	"github.com/genplay/genplay/engine/timeline"
)

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
	failFast := fset.Bool("fail-fast", false, "stop at the first failed test, as chainsaw's --fail-fast (default: the Configuration's failFast; --fail-fast=false runs every test)")
	kyverno := kyvernoVersionFlag(fset)
	if err := fset.Parse(args); err != nil {
		return 2
	}
	version, ok := parseKyvernoVersion(stderr, "test", *kyverno)
	if !ok {
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
	setFlags := map[string]bool{}
	fset.Visit(func(f *flag.Flag) { setFlags[f.Name] = true })
	sopts := suiteOptions{permissions: permissions, install: install, config: *config, kyverno: version}
	if setFlags["fail-fast"] {
		sopts.failFast = failFast
	}
	report, err := runSuiteWith(fset.Args(), sopts)
	if err != nil {
		fmt.Fprintf(stderr, "genplay test: %v\n", err)
		return 2
	}
	// chainsaw's order: the flags override the Configuration's report.
	var out scenario.Report
	if report.Config != nil {
		out = report.Config.Report
	}
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
			if t.Timeline != nil && (t.Status == suite.Fail || *all) {
				fmt.Fprintf(stdout, "=== timeline of %s\n", t.Path)
				res := *t.Timeline
				res.Diagnostics = append([]timeline.Diagnostic{}, res.Diagnostics...)
				for i := range res.Diagnostics {
					res.Diagnostics[i].File = suite.DisplayFile(t.File, res.Diagnostics[i].File)
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
		if t.Stopped {
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
func writeReport(w io.Writer, report *suite.Report) {
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
		for _, d := range t.Detail {
			fmt.Fprintln(w, "    "+strings.ReplaceAll(printable(d, true), "\n", "\n    "))
		}
	}
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", report.Passed, report.Failed, report.Skipped)
}

// suiteOptions are genplay test's settings.
type suiteOptions struct {
	permissions engine.Permissions
	// install are the files and folders of --install.
	install []string
	// config is --config; "" looks for .chainsaw.yaml.
	config string
	// failFast is --fail-fast when given: it overrides the Configuration's.
	failFast *bool
	// kyverno is the Kyverno release to simulate; "" the latest.
	kyverno string
}

// runSuiteWith finds and runs every test under paths (package suite), in
// the file system rooted at the volume root: tests reach step templates
// with ../ paths, so every relative path a test names resolves.
func runSuiteWith(paths []string, opts suiteOptions) (*suite.Report, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	fsys, _ := rootFS(cwd)
	roots := make([]suite.Root, len(paths))
	for i, p := range paths {
		if roots[i], err = root(cwd, p); err != nil {
			return nil, err
		}
	}
	var given *suite.Root
	if opts.config != "" {
		r, err := root(cwd, opts.config)
		if err != nil {
			return nil, err
		}
		given = &r
	}
	here, err := root(cwd, ".")
	if err != nil {
		return nil, err
	}
	config, err := suite.FindConfiguration(fsys, append(roots[:len(roots):len(roots)], here), given)
	if err != nil {
		return nil, err
	}
	if opts.failFast != nil {
		if config == nil {
			config = &scenario.Configuration{}
		}
		config.FailFast = *opts.failFast
	}
	kyverno := opts.kyverno
	if kyverno == "" {
		kyverno = engine.KyvernoVersion
	}
	notes := []string{"simulating Kyverno " + kyverno}
	if config != nil && config.File != "" {
		notes = append(notes, "chainsaw configuration "+config.File)
		for _, n := range config.Ignored {
			notes = append(notes, config.File+": "+n)
		}
	}
	var install []scenario.Resource
	for _, p := range opts.install {
		r, err := root(cwd, p)
		if err != nil {
			return nil, err
		}
		objs, err := suite.Objects(fsys, r.Path)
		if err != nil {
			return nil, fmt.Errorf("--install %s: %w", p, err)
		}
		install = append(install, objs...)
		notes = append(notes, fmt.Sprintf("--install %s: %d manifests applied before each test", p, len(objs)))
	}
	files, err := suite.Find(fsys, roots, config)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no chainsaw Test or kyverno-test.yaml under %s", strings.Join(paths, ", "))
	}
	report := suite.Run(files, suite.Options{FS: fsys, Permissions: opts.permissions, Install: install, Config: config,
		Families: families, Scripts: scripts, Guard: guard, Clock: time.Now, KyvernoVersion: opts.kyverno})
	report.Notes = notes
	return report, nil
}

// root is a path the user gave, in rootFS, shown relative to cwd.
func root(cwd, p string) (suite.Root, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return suite.Root{}, err
	}
	display := abs
	if rel, err := filepath.Rel(cwd, abs); err == nil {
		display = rel
	}
	_, fsPath := rootFS(abs)
	return suite.Root{Name: filepath.ToSlash(p), Path: fsPath, Display: filepath.ToSlash(display)}, nil
}
