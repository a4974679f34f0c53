// Command genplay runs Kyverno generate scenarios against genplay's
// simulator: `genplay run` prints a scenario's timeline, `genplay serve`
// serves the playground.
package main

import (
	"fmt"
	"io"
	"os"
)

const usage = `genplay: watch what Kyverno's generate rules do over time, without a cluster.

Usage:
  genplay run [-o text|json] [-format v2|v1] [--no-color] FILE
                                                   run a scenario (a chainsaw Test) and print its timeline;
                                                   -o json prints the timeline format of engine/timeline (v2; -format v1 for v1)
  genplay test [--json] [-v] [--permissions P] [--install FILE] [--config FILE] [--report-format F] PATH...
                                                   run chainsaw tests and kyverno-test.yaml files; PASS|FAIL|SKIP per test,
                                                   and a report for CI as chainsaw writes it (JSON, JUNIT-TEST, ...)
  genplay export [-o OUT] FILE                     the scenario as a chainsaw Test that asserts, after each operation,
                                                   what Kyverno did (readiness of policies, downstreams present or absent)
  genplay migrate [-o yaml|json] FILE...           convert ClusterPolicy/Policy generate rules to GeneratingPolicies
  genplay migrate --compare [-o text|json] SCENARIO
                                                   run a scenario as written and converted; where the clusters differ
  genplay new [-o yaml|json] [FILE...]             wrap bare policies (or a kyverno-test.yaml) into a scenario;
                                                   no FILE: the minimal "New scenario"
  genplay serve [--addr HOST:PORT] [--dir DIR]     serve the playground (default 127.0.0.1:8080, site/dist)
  genplay help                                     show this help

Exit codes: 0 success, 1 the scenario failed (an assertion or an operation; export: it cannot be exported; migrate: something could not
be converted faithfully, or the compared runs differ), 2 bad usage or bad input, 3 internal error in genplay,
or a run stopped by a safety net: more than 2 minutes or 4 GiB of memory (your input is kept). Files are
read only when regular and at most 2 MiB.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "genplay: internal error (please report it): %v\n", r)
			code = 3
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "run":
		return runCommand(args[1:], stdin, stdout, stderr)
	case "test":
		return testCommand(args[1:], stdout, stderr)
	case "export":
		return exportCommand(args[1:], stdout, stderr)
	case "migrate":
		return migrateCommand(args[1:], stdout, stderr)
	case "new":
		return newCommand(args[1:], stdout, stderr)
	case "serve":
		return serveCommand(args[1:], stdout, stderr)
	case childCommand: // genplay serve's run of one scenario: not for users
		return childRunCommand(stdin, stdout, stderr)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "genplay: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
