package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// compareVersions is genplay run --compare-versions: the scenario under
// every simulated release, side by side. It exits as run does: 2 when the
// input cannot run, 1 when a release's run failed its checks. A run that
// ends the comparison (engine.CompareVersions: input that cannot run, a
// limit) is printed as genplay run prints it, so hostile input costs one
// run, not one per release.
func compareVersions(g *guarded, file string, data []byte, opts engine.Options, output string, color bool, stdout, stderr io.Writer) int {
	name := file
	if abs, err := filepath.Abs(file); err == nil && file != "<stdin>" {
		opts.Files, name = rootFS(abs)
	}
	c, stop, release := engine.CompareVersions(name, data, opts)
	if g.stopped() {
		return 3
	}
	if stop != nil {
		// A run that ends the comparison (input that cannot run, a limit,
		// an internal error) is printed as genplay run prints it.
		if file != "<stdin>" {
			showFiles(stop, name, filepath.ToSlash(file))
		}
		if output == "json" {
			out, err := timeline.Marshal(stop)
			if err != nil {
				fmt.Fprintf(stderr, "genplay run: %v\n", err)
				return 3
			}
			_, _ = stdout.Write(out)
		} else {
			writeText(stdout, stop, color)
		}
		if !engine.Unrunnable(stop) {
			fmt.Fprintf(stderr, "genplay run: --compare-versions stopped at the run under Kyverno %s (the releases run the latest first)\n", release)
		}
		if engine.IsInternalError(stop) {
			return g.internalError("; the diagnostic says where")
		}
		return runStatus(stderr, stop, output)
	}
	for i := range c.Diagnostics {
		if c.Diagnostics[i].File == name {
			c.Diagnostics[i].File = filepath.ToSlash(file)
		}
	}
	if output == "json" {
		writeJSON(stdout, c)
	} else {
		writeVersionsText(stdout, c, color)
	}
	for _, passed := range c.Passed {
		if !passed {
			return 1
		}
	}
	return 0
}

// writeVersionsText prints a comparison for a person: every step, the ones
// that differ with what each release did and the change that explains it.
func writeVersionsText(w io.Writer, c *timeline.VersionComparison, color bool) {
	paint := func(code, s string) string {
		if !color {
			return s
		}
		return code + s + reset
	}
	for _, d := range c.Diagnostics {
		code := red
		if d.Severity == "warning" {
			code = yellow
		}
		fmt.Fprintf(w, "%s %s: %s\n", paint(code, d.Severity+":"), printable(d.Where(), false), printable(d.Message, false))
	}
	titles := map[string]string{}
	for _, ch := range c.Changes {
		if titles[ch.ID] == "" {
			titles[ch.ID] = ch.Title
		}
	}
	fmt.Fprintf(w, "%s %s under Kyverno %s: %d of %d steps differ\n", paint(bold, "scenario"), printable(c.Test, false),
		strings.Join(c.Versions, ", "), c.Differs, len(c.Steps))
	for _, st := range c.Steps {
		head := fmt.Sprintf("[%d] %s", st.Index, printable(st.Summary, false))
		if !st.Differs {
			fmt.Fprintf(w, "\n%s %s\n", paint(bold, head), paint(dim, "same in every release"))
			continue
		}
		why := "no change of its own"
		switch {
		case len(st.Explained) > 0:
			parts := make([]string, len(st.Explained))
			for i, id := range st.Explained {
				parts[i] = id + ": " + titles[id]
			}
			why = strings.Join(parts, "; ")
		case st.FollowsFrom >= 0:
			why = fmt.Sprintf("follows from step [%d]: the clusters already differed", st.FollowsFrom)
		}
		fmt.Fprintf(w, "\n%s %s %s\n", paint(bold, head), paint(yellow, "DIFFERS"), printable(why, false))
		var prev string
		for i, r := range st.Runs {
			lines := versionStepLines(r, paint)
			text := strings.Join(lines, "\n")
			if i > 0 && text == prev {
				fmt.Fprintf(w, "  %s %s\n", paint(bold, r.Kyverno), paint(dim, "the same as "+st.Runs[i-1].Kyverno))
				continue
			}
			prev = text
			fmt.Fprintf(w, "  %s\n", paint(bold, r.Kyverno))
			for _, l := range lines {
				fmt.Fprintf(w, "    %s\n", l)
			}
		}
	}
	if len(c.Changes) > 0 {
		fmt.Fprintf(w, "\n%s\n", paint(bold, "the changes between releases that explain the differences"))
		for _, ch := range c.Changes {
			fmt.Fprintf(w, "  %s (since %s, %s) %s. Releases before %s %s; %s and later %s. %s\n", paint(bold, ch.ID), ch.Since, ch.Family,
				printable(ch.Title, false), ch.Since, printable(ch.Before, false), ch.Since, printable(ch.After, false), ch.URL)
		}
	}
	fmt.Fprintln(w)
	for _, v := range c.Versions {
		status := paint(green, "PASSED")
		if !c.Passed[v] {
			status = paint(red, "FAILED")
		}
		fmt.Fprintf(w, "%s %s  ", v, status)
	}
	fmt.Fprintln(w)
}

// versionStepLines are what one release did in a step, one line each:
// Kyverno's and the API server's events, the error, the check, warnings.
func versionStepLines(r timeline.VersionStep, paint func(string, string) string) []string {
	if !r.Ran {
		return []string{"(not run: the run stopped before this step)"}
	}
	var out []string
	for _, e := range r.Events {
		if e.Actor == timeline.ActorUser {
			continue
		}
		obj := ""
		if e.Object != nil {
			obj = " " + printable(e.Object.String(), false)
		}
		mark := ""
		if len(e.VersionChanges) > 0 {
			mark = paint(yellow, " ["+strings.Join(e.VersionChanges, ", ")+"]")
		}
		out = append(out, fmt.Sprintf("%s %s%s%s: %s", e.Actor, actionText(e.Action, paint), obj, mark, printable(e.Reason, false)))
	}
	for _, wn := range r.Warnings {
		out = append(out, paint(yellow, "warning: ")+printable(wn, false))
	}
	if r.Error != "" {
		out = append(out, paint(red, "error: ")+printable(r.Error, false))
	}
	if r.Check != nil {
		if r.Check.Passed {
			out = append(out, paint(green, "check passed"))
		} else {
			out = append(out, paint(red, "check failed: ")+printable(strings.Join(r.Check.Failures, "; "), false))
		}
	}
	if len(out) == 0 {
		out = append(out, paint(dim, "(Kyverno did nothing)"))
	}
	return out
}
