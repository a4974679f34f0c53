package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine/scaffold"
	"github.com/genplay/genplay/engine/source"
)

const newUsage = `Usage:
  genplay new [-o yaml|json] [FILE...]
      Start a scenario from what you have: FILE holds ClusterPolicies, Policies, GeneratingPolicies or
      NamespacedGeneratingPolicies (with the objects they need: Namespaces, clone sources), or is a Kyverno
      CLI kyverno-test.yaml (its policies and resources files are read next to it). The scenario (a
      chainsaw Test) applies the other objects, each policy with a wait for its readiness, then for each
      generate rule a trigger its match selects and an assert of the downstream where the rule names it.
      With no FILE, the minimal scenario the playground's "New scenario" starts from. A chainsaw Test is
      printed unchanged.
      The scenario goes to standard output; notes (a rule with no trigger and why, what was not
      evaluated) go to standard error at the policy's line. -o json prints the scenario with its notes.

Exit codes: 0 every policy got a trigger, 1 some policy got none (or a file is missing; the scenario is
still printed), 2 bad usage or bad input, 3 internal error.
`

func newCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("new", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, newUsage) }
	output := fs.String("o", "yaml", "output format: yaml (the scenario) or json (the scenario and its notes)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *output != "yaml" && *output != "json" {
		fmt.Fprintf(stderr, "genplay new: -o %q: want yaml or json\n", *output)
		return 2
	}
	var files []scaffold.File
	for _, name := range fs.Args() {
		data, err := readInput(name)
		if err != nil {
			fmt.Fprintf(stderr, "genplay new: %v\n", err)
			return 2
		}
		files = append(files, scaffold.File{Name: name, Data: data})
	}
	inputs := make([]userInput, len(files))
	for i, f := range files {
		inputs[i] = userInput{f.Name, f.Data}
	}
	return withInput(stderr, "new", inputs, func(g *guarded) int {
		var dir string
		if len(files) > 0 {
			dir = filepath.Dir(files[0].Name)
		}
		res, err := scaffold.WrapFiles(files, scaffold.Options{ReadFile: func(name string) ([]byte, error) {
			if !filepath.IsAbs(name) {
				name = filepath.Join(dir, name)
			}
			return readInput(name)
		}})
		if err != nil {
			if ds, ok := err.(source.Diagnostics); ok {
				for _, d := range ds {
					fmt.Fprintf(stderr, "%s: %s\n", d.Pos, d.Message)
				}
			} else {
				fmt.Fprintf(stderr, "genplay new: %v\n", err)
			}
			if isInternal(err) {
				g.keep()
				return 3
			}
			return 2
		}
		if *output == "json" {
			out, err := json.MarshalIndent(res, "", "  ")
			if err != nil {
				fmt.Fprintf(stderr, "genplay new: %v\n", err)
				return 3
			}
			fmt.Fprintf(stdout, "%s\n", out)
		} else {
			fmt.Fprint(stdout, res.Scenario)
			for _, n := range res.Notes {
				fmt.Fprintln(stderr, n.String())
			}
		}
		for _, n := range res.Notes {
			if n.Warning {
				return 1
			}
		}
		return 0
	})
}

func isInternal(err error) bool { return strings.HasPrefix(err.Error(), "internal error:") }
