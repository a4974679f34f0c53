//go:build !js

// Command differential compares genplay's engine with Kyverno's CLI on a
// corpus of cases (package internal/differential): `make differential`
// builds the CLI and runs it.
//
//	differential -kyverno PATH [-corpus DIR] [-random N] [-seed S] [-run REGEXP] [-j N] [-v]
//
// It prints every case that does not agree, then the counts, and exits 1
// when a case disagrees or cannot run.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/genplay/genplay/internal/differential"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("differential", flag.ContinueOnError)
	fs.SetOutput(stderr)
	kyverno := fs.String("kyverno", "", "Kyverno's CLI binary")
	version := fs.String("kyverno-version", "", "the CLI's Kyverno release, which genplay simulates for the comparison (default: the latest)")
	corpus := fs.String("corpus", "internal/differential/testdata/corpus", "the folder of hand-written cases")
	random := fs.Int("random", 200, "how many random cases to draw")
	seed := fs.Uint64("seed", uint64(time.Now().UnixNano()%1e6), "the random cases' seed (printed, to replay)")
	only := fs.String("run", "", "run only the cases whose name matches this regexp")
	jobs := fs.Int("j", 2, "cases run at the same time")
	verbose := fs.Bool("v", false, "print the details of every case, agreeing ones too")
	work := fs.String("work", "", "scratch folder for the CLI's inputs (default: a temporary one, removed)")
	export := fs.String("export", "", "write every case as a Kyverno CLI test (kyverno-test.yaml, genplay's objects expected) under this folder, and run nothing")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *kyverno == "" && *export == "" {
		fmt.Fprintln(stderr, "differential: -kyverno PATH is required (make differential builds it)")
		return 2
	}
	cases, err := differential.LoadCorpus(*corpus)
	if err != nil {
		fmt.Fprintf(stderr, "differential: %v\n", err)
		return 2
	}
	hand := len(cases)
	cases = append(cases, differential.Random(*seed, *random)...)
	if *only != "" {
		re, err := regexp.Compile(*only)
		if err != nil {
			fmt.Fprintf(stderr, "differential: -run: %v\n", err)
			return 2
		}
		var kept []differential.Case
		for _, c := range cases {
			if re.MatchString(c.Name) {
				kept = append(kept, c)
			}
		}
		cases = kept
	}
	if *export != "" {
		for _, c := range cases {
			if err := differential.WriteTest(filepath.Join(*export, c.Name), c, differential.RunGenplayAt(c, *version)); err != nil {
				fmt.Fprintf(stderr, "differential: %s: %v\n", c.Name, err)
				return 1
			}
		}
		fmt.Fprintf(stdout, "differential: %d cases written under %s (random seed %d)\n", len(cases), *export, *seed)
		return 0
	}
	dir := *work
	if dir == "" {
		if dir, err = os.MkdirTemp("", "genplay-differential-"); err != nil {
			fmt.Fprintf(stderr, "differential: %v\n", err)
			return 2
		}
		defer os.RemoveAll(dir)
	}
	cli := differential.CLI{Path: *kyverno, Dir: dir, Version: *version}
	fmt.Fprintf(stdout, "differential: %d hand-written cases (%s), %d random cases (seed %d); Kyverno's CLI %s\n",
		hand, *corpus, *random, *seed, *kyverno)

	outcomes := make([]differential.Outcome, len(cases))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, *jobs) {
		wg.Go(func() {
			for i := range next {
				outcomes[i] = differential.Compare(cases[i], cli)
			}
		})
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()

	counts := map[string]int{}
	limits := map[string][]string{}
	objects := 0
	for _, o := range outcomes {
		counts[o.Verdict]++
		objects += o.Objects
		switch {
		case o.Verdict == differential.Limitation:
			limits[o.Limitation] = append(limits[o.Limitation], o.Case.Name)
		case o.Unobserved:
			fmt.Fprintf(stdout, "NOTE %s: declares the CLI limitation %q, but the engines agree\n", o.Case.Name, o.Case.Limitation)
		}
		if o.Verdict == differential.Disagree || o.Verdict == differential.Broken || *verbose && o.Detail != "" {
			fmt.Fprintf(stdout, "\n=== %s %s (%s)\n%s\n", strings.ToUpper(o.Verdict), o.Case.Name, o.Case.Origin, o.Detail)
		}
	}
	fmt.Fprintf(stdout, "\n%d cases, %d generated objects compared: %d agree, %d CLI limitation, %d disagree, %d could not run\n",
		len(outcomes), objects, counts[differential.Agree], counts[differential.Limitation], counts[differential.Disagree], counts[differential.Broken])
	ids := make([]string, 0, len(limits))
	for id := range limits {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		fmt.Fprintf(stdout, "  CLI limitation %s: %s\n", id, strings.Join(limits[id], ", "))
	}
	fmt.Fprintf(stdout, "replay the random cases with -seed %d (docs/differential.md lists the CLI limitations; %s)\n", *seed, filepath.Base(*corpus))
	if counts[differential.Disagree]+counts[differential.Broken] > 0 {
		return 1
	}
	return 0
}
