package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// runEngine is engine.Run; the crash-containment tests swap it.
var runEngine = engine.Run

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	output := fs.String("o", "text", "output format: text or json")
	format := fs.String("format", "v2", "with -o json, the timeline's format: v2 ("+timeline.FormatVersion+") or v1 ("+timeline.FormatV1+", every step with the whole cluster)")
	noColor := fs.Bool("no-color", false, "never colour the text output")
	exceptions := fs.Bool("policy-exceptions", false,
		"enable CEL PolicyExceptions, as Kyverno's --enablePolicyException does (off by default, as in the Helm chart)")
	kyverno := kyvernoVersionFlag(fs)
	compare := fs.Bool("compare-versions", false,
		"run the scenario under every Kyverno release genplay simulates and print its steps side by side, the differing ones with the change that explains them")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	version, ok := parseKyvernoVersion(stderr, "run", *kyverno)
	if !ok {
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "genplay run: want exactly one scenario file (or - for standard input)")
		return 2
	}
	if *output != "text" && *output != "json" {
		fmt.Fprintf(stderr, "genplay run: -o %q: want text or json\n", *output)
		return 2
	}
	if err := timeline.CheckFormat(*format); err != nil {
		fmt.Fprintf(stderr, "genplay run: -format: %v\n", err)
		return 2
	}
	file := fs.Arg(0)
	var data []byte
	var err error
	if file == "-" {
		data, err = io.ReadAll(io.LimitReader(stdin, engine.MaxInputBytes+1))
		file = "<stdin>"
		if err == nil && len(data) > maxFileBytes {
			err = fmt.Errorf("standard input is larger than %d bytes, the most genplay reads", maxFileBytes)
		}
	} else {
		data, err = readInput(file)
	}
	if err != nil {
		fmt.Fprintf(stderr, "genplay run: %v\n", err)
		return 2
	}
	return withInput(stderr, "run", []userInput{{file, data}}, func(g *guarded) int {
		// A test file's operations read the files next to it; standard
		// input has no folder, so there an operation that names a file is
		// an error.
		opts := engine.Options{Context: g.ctx, Families: families, Scripts: scripts, PolicyExceptions: *exceptions, KyvernoVersion: version}
		if *compare {
			return compareVersions(g, file, data, opts, *output, !*noColor && isTerminal(stdout) && os.Getenv("NO_COLOR") == "", stdout, stderr)
		}
		var res *timeline.Result
		if abs, err := filepath.Abs(file); err == nil && file != "<stdin>" {
			fsys, fsPath := rootFS(abs)
			opts.Files = fsys
			res = runEngine(fsPath, data, opts)
			showFiles(res, fsPath, filepath.ToSlash(file))
		} else {
			res = runEngine(file, data, opts)
		}
		if g.stopped() {
			return 3
		}
		if *output == "json" {
			out, err := timeline.MarshalAs(res, *format)
			if err != nil {
				fmt.Fprintf(stderr, "genplay run: %v\n", err)
				return 3
			}
			_, _ = stdout.Write(out)
		} else {
			writeText(stdout, res, !*noColor && isTerminal(stdout) && os.Getenv("NO_COLOR") == "")
		}
		if engine.IsInternalError(res) {
			return g.internalError("; the diagnostic says where")
		}
		return runStatus(stderr, res, *output)
	})
}

// runStatus is genplay run's exit status: 2 when the input cannot run
// (said on stderr with -o json, whose stdout is the result), 1 when it
// failed, 0 when it passed.
func runStatus(stderr io.Writer, res *timeline.Result, output string) int {
	for _, d := range res.Diagnostics {
		if d.Severity == "error" && len(res.Steps) == 0 {
			if output == "json" {
				fmt.Fprintf(stderr, "%s: %s\n", d.Where(), d.Message)
			}
			return 2
		}
	}
	if !res.Passed {
		return 1
	}
	return 0
}

// keepInput makes sure an internal error loses nothing the user typed: a
// file is only read, so it is still there; standard input is saved to a
// temporary file whose name is printed.
func keepInput(stderr io.Writer, file string, data []byte) {
	if file != "<stdin>" {
		fmt.Fprintf(stderr, "genplay: your input is unchanged in %s\n", file)
		return
	}
	f, err := os.CreateTemp("", "genplay-input-*.yaml")
	if err == nil {
		_, err = f.Write(data)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "genplay: could not save your input: %v\n", err)
		return
	}
	fmt.Fprintf(stderr, "genplay: your input was saved to %s\n", f.Name())
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// ANSI colours for the text timeline.
const (
	reset  = "\x1b[0m"
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	red    = "\x1b[31m"
	green  = "\x1b[32m"
	yellow = "\x1b[33m"
	blue   = "\x1b[34m"
	cyan   = "\x1b[36m"
)

// writeText prints the timeline for a person.
func writeText(w io.Writer, res *timeline.Result, color bool) {
	paint := func(c, s string) string {
		if !color {
			return s
		}
		return c + s + reset
	}
	for _, d := range res.Diagnostics {
		c := red
		if d.Severity == "warning" {
			c = yellow
		}
		fmt.Fprintf(w, "%s %s: %s\n", paint(c, d.Severity+":"), printable(d.Where(), false), printable(d.Message, false))
	}
	if res.Test != "" {
		fmt.Fprintf(w, "%s %s %s\n", paint(bold, "scenario"), printable(res.Test, false), paint(dim, "(Kyverno "+res.Kyverno+")"))
	}
	for _, st := range res.Steps {
		fmt.Fprintf(w, "\n%s %s %s\n", paint(bold, fmt.Sprintf("[%d]", st.Index)), paint(bold, printable(st.Summary, false)), paint(dim, printable(st.Time+" "+st.StepName, false)))
		for _, e := range st.Events {
			actorColor := blue
			if e.Actor == timeline.ActorKyverno {
				actorColor = cyan
			}
			obj := ""
			if e.Object != nil {
				obj = " " + printable(e.Object.String(), false)
			}
			via := ""
			if e.Policy != "" {
				via = " (" + printable(e.Policy, false)
				if e.Rule != "" {
					via += ", rule " + printable(e.Rule, false)
				}
				via += ")"
			}
			fmt.Fprintf(w, "  %-8s %s%s%s: %s\n", paint(actorColor, e.Actor), actionText(e.Action, paint), obj, paint(dim, via), printable(e.Reason, false))
		}
		if st.Error != "" {
			fmt.Fprintf(w, "  %s %s\n", paint(red, "error:"), printable(st.Error, false))
		}
		if st.Check != nil {
			if st.Check.Passed {
				fmt.Fprintf(w, "  %s\n", paint(green, "check passed"))
			} else {
				fmt.Fprintf(w, "  %s\n", paint(red, "check failed:"))
				for _, f := range st.Check.Failures {
					fmt.Fprintf(w, "    %s\n", printable(f, false))
				}
			}
		}
	}
	fmt.Fprintln(w)
	switch {
	case res.Skipped != "":
		fmt.Fprintf(w, "%s %s\n", paint(yellow, "SKIPPED"), printable(res.Skipped, false))
	case res.Passed:
		fmt.Fprintf(w, "%s %d steps\n", paint(green, "PASSED"), len(res.Steps))
	default:
		fmt.Fprintf(w, "%s %d steps\n", paint(red, "FAILED"), len(res.Steps))
	}
}

func actionText(action string, paint func(string, string) string) string {
	switch action {
	case timeline.ActionDeleted, timeline.ActionFailed, timeline.ActionRejected:
		return paint(red, action)
	case timeline.ActionCreated, timeline.ActionRecreated:
		return paint(green, action)
	case timeline.ActionReverted, timeline.ActionUpdated, timeline.ActionUnlabelled, timeline.ActionIgnored:
		return paint(yellow, action)
	default:
		return strings.TrimSpace(action)
	}
}
