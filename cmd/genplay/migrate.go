package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/migrate/check"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

const migrateUsage = `Usage:
  genplay migrate [-o yaml|json] [--kyverno-version V] FILE...
      Convert the generate rules of the ClusterPolicies and Policies in FILE (policy YAML, a chainsaw
      Test whose policies are inline, or a folder holding chainsaw-test.yaml) to GeneratingPolicies /
      NamespacedGeneratingPolicies (one per rule). For a chainsaw Test file the output is the Test, its
      policies converted operation by operation (a scenario to adopt); for a folder, the policies.
      The converted YAML goes to standard output; what could not be converted faithfully, and where the
      two families behave differently under Kyverno release V (default: the latest), goes to standard
      error at the source line.
  genplay migrate --compare [-o text|json] [--permissions chart|kyverno-e2e|none] [--kyverno-version V] SCENARIO
      Run a scenario (a chainsaw Test file, or a folder with chainsaw-test.yaml) as written and with its
      policies converted, both under the same Kyverno release (default: the latest), and print step by
      step where the two clusters differ and why.

Every converted policy is checked with genplay's validation of GeneratingPolicies (the CRD schema,
Kyverno's policy webhook, the CEL compilation) before it is printed.

Exit codes: 0 everything converted faithfully (--compare: the two runs agree), 1 something could not be
converted faithfully (--compare: the runs differ), 2 bad usage or bad input, 3 internal error (a converted
policy genplay's own validation rejects).
`

func migrateCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("migrate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, migrateUsage) }
	output := fs.String("o", "", "output format: yaml or json (with --compare: text or json)")
	compare := fs.Bool("compare", false, "run the scenario as written and converted, and compare")
	perms := fs.String("permissions", "chart",
		"with --compare: what Kyverno's background controller may manage before the scenario's own RBAC objects: chart (a default Helm install, as genplay run), kyverno-e2e or none (no check)")
	kyverno := kyvernoVersionFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	version, ok := parseKyvernoVersion(stderr, "migrate", *kyverno)
	if !ok {
		return 2
	}
	if fs.NArg() == 0 {
		fmt.Fprint(stderr, "genplay migrate: want at least one file\n\n"+migrateUsage)
		return 2
	}
	if *compare {
		if *output == "" {
			*output = "text"
		}
		if *output != "text" && *output != "json" {
			fmt.Fprintf(stderr, "genplay migrate --compare: -o %q: want text or json\n", *output)
			return 2
		}
		if fs.NArg() != 1 {
			fmt.Fprintln(stderr, "genplay migrate --compare: want exactly one scenario")
			return 2
		}
		permissions, err := engine.ParsePermissions(*perms)
		if err != nil {
			fmt.Fprintf(stderr, "genplay migrate --compare: --permissions: %v\n", err)
			return 2
		}
		return compareCommand(fs.Arg(0), *output, permissions, version, stdout, stderr)
	}
	if *output == "" {
		*output = "yaml"
	}
	if *output != "yaml" && *output != "json" {
		fmt.Fprintf(stderr, "genplay migrate: -o %q: want yaml or json\n", *output)
		return 2
	}
	inputs := make([]userInput, fs.NArg())
	for i, f := range fs.Args() {
		inputs[i] = userInput{file: f}
	}
	return withInput(stderr, "migrate", inputs, func(*guarded) int {
		results, ok := convertAll(fs.Args(), version, stderr)
		if !ok {
			return 2
		}
		return writeConverted(results, *output, stdout, stderr)
	})
}

// convertAll converts every file or folder; ok is false when one could not
// be read or holds nothing to convert (said on stderr at its line).
func convertAll(files []string, kyverno string, stderr io.Writer) (results []*migrate.FileResult, ok bool) {
	ok = true
	for _, file := range files {
		if st, err := os.Stat(file); err == nil && st.IsDir() {
			res := convertFolder(file, kyverno, stderr)
			if res == nil {
				ok = false
				continue
			}
			results = append(results, res)
			continue
		}
		data, err := readInput(file)
		if err != nil {
			fmt.Fprintf(stderr, "genplay migrate: %v\n", err)
			ok = false
			continue
		}
		res, diags := convertFile(file, data, kyverno)
		for _, d := range diags {
			fmt.Fprintf(stderr, "%s: %s\n", d.Pos, d.Message)
		}
		if diags.HasErrors() || res == nil {
			ok = false
			continue
		}
		results = append(results, res)
	}
	return results, ok
}

// convertFolder converts a folder in Kyverno's chainsaw test layout, its
// policies in files; nil when it cannot (said on stderr).
func convertFolder(dir, kyverno string, stderr io.Writer) *migrate.FileResult {
	t, _, diags := loadScenario(dir)
	for _, d := range diags {
		fmt.Fprintf(stderr, "%s: %s\n", displayFSPath(d.Pos.File), d.Message)
	}
	if t == nil {
		return nil
	}
	conv := migrate.ConvertTestFor(t, kyverno)
	if len(conv.Policies) == 0 {
		fmt.Fprintf(stderr, "genplay migrate: %s: the chainsaw Test writes no kyverno.io ClusterPolicy or Policy\n", dir)
		return nil
	}
	for i := range conv.Findings {
		conv.Findings[i].Pos.File = displayFSPath(conv.Findings[i].Pos.File)
	}
	return &migrate.FileResult{File: dir, Policies: conv.Policies, Findings: conv.Findings}
}

// writeConverted prints the converted policies (or tests) and the findings,
// and returns the exit status: 0 every rule converted fully, 1 not, 3 a
// converted policy genplay's validation rejects (a bug of the converter).
func writeConverted(results []*migrate.FileResult, output string, stdout, stderr io.Writer) int {
	// What genplay writes must pass genplay's validation (Kyverno's rules);
	// if it does not, that is a bug of the converter, said as such.
	invalid := false
	for _, r := range results {
		for _, e := range check.Policies("converted from "+r.File, r.YAML()) {
			fmt.Fprintf(stderr, "genplay migrate: internal error (please report it): the converted policy is rejected: %s\n", e)
			invalid = true
		}
	}
	if output == "json" {
		writeMigrateJSON(stdout, results)
	} else {
		var docs []string
		for _, r := range results {
			if y := r.YAML(); y != "" {
				docs = append(docs, y)
			}
			for _, f := range r.Findings {
				fmt.Fprintln(stderr, f)
			}
		}
		fmt.Fprint(stdout, strings.Join(docs, "---\n"))
	}
	full, partial, none := countRules(results)
	fmt.Fprintf(stderr, "genplay migrate: %d rules converted fully, %d partly, %d not at all", full, partial, none)
	if kept := keptRules(results); kept > 0 {
		fmt.Fprintf(stderr, "; %d rules of other types kept in their ClusterPolicy/Policy", kept)
	}
	fmt.Fprintln(stderr)
	if invalid {
		return 3
	}
	for _, r := range results {
		if r.Status() != migrate.Full {
			return 1
		}
	}
	return 0
}

// keptRules counts the rules of other types kept in their ClusterPolicy or
// Policy.
func keptRules(results []*migrate.FileResult) int {
	kept := 0
	for _, r := range results {
		for _, p := range r.Policies {
			if p.Kept != nil {
				rules, _ := p.Kept["spec"].(map[string]any)["rules"].([]any)
				kept += len(rules)
			}
		}
	}
	return kept
}

// convertFile converts a policy file, or a chainsaw Test with its policies
// inline (the output is then the Test, converted).
func convertFile(file string, data []byte, kyverno string) (*migrate.FileResult, source.Diagnostics) {
	res, diags := migrate.ConvertFileFor(file, data, kyverno)
	if res != nil && len(res.Policies) > 0 {
		return res, diags
	}
	docs, pdiags := source.Parse(file, data)
	if pdiags.HasErrors() {
		return res, diags
	}
	for _, doc := range docs {
		y, conv, err := migrate.ConvertTestDocumentFor(doc, kyverno)
		if err != nil {
			continue
		}
		if len(conv.Policies) == 0 {
			return nil, source.Diagnostics{source.Errorf(doc.Pos(), "the chainsaw Test writes no kyverno.io ClusterPolicy or Policy inline")}
		}
		return &migrate.FileResult{File: file, Policies: conv.Policies, Findings: conv.Findings, Scenario: y}, nil
	}
	return res, diags
}

func countRules(results []*migrate.FileResult) (full, partial, none int) {
	for _, r := range results {
		for _, p := range r.Policies {
			for _, rule := range p.Rules {
				switch rule.Status {
				case migrate.Full:
					full++
				case migrate.Partial:
					partial++
				default:
					none++
				}
			}
		}
	}
	return
}

// JSON shape of `genplay migrate -o json` (the policies' and findings'
// shapes are migrate's, shared with --compare and the playground's tool).
type (
	migrateJSON struct {
		Status string            `json:"status"`
		Files  []migrateFileJSON `json:"files"`
	}
	migrateFileJSON struct {
		File     string                  `json:"file"`
		Status   string                  `json:"status"`
		YAML     string                  `json:"yaml"`
		Policies []migrate.PolicyReport  `json:"policies"`
		Findings []migrate.FindingReport `json:"findings"`
	}
)

func writeMigrateJSON(w io.Writer, results []*migrate.FileResult) {
	out := migrateJSON{Status: migrate.Full, Files: []migrateFileJSON{}}
	for _, r := range results {
		f := migrateFileJSON{File: r.File, Status: r.Status(), YAML: r.YAML(), Policies: migrate.ReportPolicies(r.Policies), Findings: migrate.ReportFindings(r.Findings)}
		if f.Status != migrate.Full {
			out.Status = migrate.Partial
		}
		out.Files = append(out.Files, f)
	}
	writeJSON(w, out)
}

func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// loadScenario reads a chainsaw Test file, or a folder's chainsaw-test.yaml,
// through a file system rooted at the volume root (tests reach step
// templates with ../ paths), as genplay test does.
func loadScenario(path string) (*scenario.Test, fs.FS, source.Diagnostics) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, nil, source.Diagnostics{source.Errorf(source.Pos{File: path}, "%v", err)}
	}
	if st, err := os.Stat(abs); err == nil && st.IsDir() {
		for _, name := range scenario.TestFileNames {
			if _, err := os.Stat(filepath.Join(abs, name)); err == nil {
				abs = filepath.Join(abs, name)
				break
			}
		}
	}
	fsys, rel := rootFS(abs) // bounded reads, as run and test do
	tests, diags := scenario.Load(fsys, rel)
	if diags.HasErrors() {
		return nil, nil, diags
	}
	if len(tests) == 0 {
		return nil, nil, source.Diagnostics{source.Errorf(source.Pos{File: path, Line: 1, Col: 1}, "no chainsaw Test in the file")}
	}
	return tests[0], fsys, diags
}

func compareCommand(path, output string, permissions engine.Permissions, kyverno string, stdout, stderr io.Writer) int {
	t, fsys, diags := loadScenario(path)
	if t == nil {
		for _, d := range diags {
			fmt.Fprintf(stderr, "%s: %s\n", d.Pos, d.Message)
		}
		return 2
	}
	return withInput(stderr, "migrate --compare", []userInput{{file: path}}, func(g *guarded) int {
		c := migrate.Compare(t, engine.Options{Files: fsys, Families: families, Scripts: scripts, PolicyExceptions: true, Permissions: permissions, Context: g.ctx,
			KyvernoVersion: kyverno})
		if g.stopped() {
			return 3
		}
		for i := range c.Conversion.Findings {
			c.Conversion.Findings[i].Pos.File = displayFSPath(c.Conversion.Findings[i].Pos.File)
		}
		if len(c.Conversion.Policies) == 0 {
			fmt.Fprintf(stderr, "genplay migrate --compare: %s writes no kyverno.io ClusterPolicy or Policy\n", path)
			return 2
		}
		if output == "json" {
			writeCompareJSON(stdout, c)
		} else {
			writeCompareText(stdout, c)
		}
		if c.Differs() {
			return 1
		}
		return 0
	})
}

// displayFSPath shows a path of the volume-rooted file system relative to
// the working directory when it is below it.
func displayFSPath(p string) string {
	if p == "" {
		return p
	}
	abs := string(filepath.Separator) + filepath.FromSlash(p)
	if cwd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(cwd, abs); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return abs
}

func writeCompareText(w io.Writer, c *migrate.Comparison) {
	fmt.Fprintf(w, "scenario %s: %d policies converted (%s)\n", c.Legacy.Test, len(c.Conversion.Policies), c.Conversion.Status())
	for _, f := range c.Conversion.Findings {
		fmt.Fprintf(w, "  %s\n", f)
	}
	for _, s := range c.Steps {
		var names []string
		for _, st := range s.CEL {
			names = append(names, st.Summary)
		}
		conv := ""
		if len(s.Legacy) != len(s.CEL) || s.Legacy[0].Summary != s.CEL[0].Summary {
			conv = "  (converted: " + strings.Join(names, "; ") + ")"
		}
		fmt.Fprintf(w, "\n[%d] %s  %s%s\n", s.Index, s.Summary, s.StepName, conv)
		if s.LegacyError != s.CELError {
			fmt.Fprintf(w, "  differs: Kyverno's two families admit the policy differently\n")
			fmt.Fprintf(w, "    ClusterPolicy run:    %s\n", orAccepted(s.LegacyError))
			fmt.Fprintf(w, "    GeneratingPolicy run: %s\n", orAccepted(s.CELError))
		}
		if len(s.Diffs) == 0 {
			if s.LegacyError != s.CELError {
				continue
			}
			fmt.Fprintln(w, "  same")
			continue
		}
		fmt.Fprintf(w, "  differs: %s\n", causeText(s.Cause))
		for _, d := range s.Diffs {
			mark := ""
			if d.Cause != s.Cause {
				mark = " (" + causeText(d.Cause) + ")"
			}
			fmt.Fprintf(w, "  %s: ClusterPolicy run %s, GeneratingPolicy run %s%s\n", d.Ref, presence(d.Legacy), presence(d.CEL), mark)
			for _, r := range d.LegacyReasons {
				fmt.Fprintf(w, "    ClusterPolicy run:    %s\n", r)
			}
			for _, r := range d.CELReasons {
				fmt.Fprintf(w, "    GeneratingPolicy run: %s\n", r)
			}
			if d.Legacy != "" && d.CEL != "" {
				for _, line := range strings.Split(strings.TrimRight(d.Diff, "\n"), "\n") {
					fmt.Fprintf(w, "    %s\n", line)
				}
			}
		}
	}
	if c.Unaligned != "" {
		fmt.Fprintf(w, "\nthe runs part ways: %s\n", c.Unaligned)
	}
	if len(c.FamilyLabels) > 0 {
		fmt.Fprintf(w, "\nlabels that differ by family (not compared): %s\n", strings.Join(c.FamilyLabels, ", "))
	}
	differ := 0
	for _, s := range c.Steps {
		if len(s.Diffs) > 0 {
			differ++
		}
	}
	fmt.Fprintf(w, "\n%d of %d steps differ\n", differ, len(c.Steps))
}

func causeText(cause string) string {
	if cause == migrate.CauseConversion {
		return "the conversion is partial (see the findings above); this may be the cause"
	}
	return "Kyverno's two families behave differently here"
}

func orAccepted(err string) string {
	if err == "" {
		return "accepted"
	}
	return "rejected: " + err
}

func presence(y string) string {
	if y == "" {
		return "absent"
	}
	return "present"
}

func writeCompareJSON(w io.Writer, c *migrate.Comparison) {
	writeJSON(w, c.Report())
}
