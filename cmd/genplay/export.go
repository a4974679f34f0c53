package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/export"
)

// exportCommand is `genplay export`: the scenario as a chainsaw Test that
// checks, after each operation, what Kyverno did (package engine/export).
func exportCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("o", "", "write the test to this file instead of standard output")
	exceptions := fs.Bool("policy-exceptions", false,
		"enable CEL PolicyExceptions, as Kyverno's --enablePolicyException does (off by default, as in the Helm chart)")
	perms := fs.String("permissions", "chart",
		"what Kyverno's background controller may manage before the scenario's own RBAC objects: chart (a default Helm install, as genplay run), kyverno-e2e (Kyverno's own test install) or none (no check)")
	kyverno := kyvernoVersionFlag(fs)
	if err := fs.Parse(args); err != nil {
		return 2
	}
	version, ok := parseKyvernoVersion(stderr, "export", *kyverno)
	if !ok {
		return 2
	}
	permissions, err := engine.ParsePermissions(*perms)
	if err != nil {
		fmt.Fprintf(stderr, "genplay export: %v\n", err)
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "genplay export: want exactly one scenario file")
		return 2
	}
	file := fs.Arg(0)
	data, err := readInput(file)
	if err != nil {
		fmt.Fprintf(stderr, "genplay export: %v\n", err)
		return 2
	}
	return withInput(stderr, "export", []userInput{{file, data}}, func(g *guarded) int {
		opts := engine.Options{Context: g.ctx, Families: families, Scripts: scripts, PolicyExceptions: *exceptions, Permissions: permissions, KyvernoVersion: version}
		name := file
		if abs, err := filepath.Abs(file); err == nil {
			opts.Files, name = rootFS(abs)
		}
		res, err := export.Test(name, data, opts)
		if g.stopped() {
			return 3
		}
		if err != nil {
			// Name the files as the user did (the engine reads them in rootFS).
			names := strings.NewReplacer(name, filepath.ToSlash(file), path.Dir(name)+"/", filepath.ToSlash(filepath.Dir(file))+"/")
			fmt.Fprintf(stderr, "genplay export: %s\n", names.Replace(err.Error()))
			return 1
		}
		if *out == "" {
			_, _ = io.WriteString(stdout, res.Text)
		} else if err := os.WriteFile(*out, []byte(res.Text), 0o644); err != nil {
			fmt.Fprintf(stderr, "genplay export: %v\n", err)
			return 2
		}
		fmt.Fprintf(stderr, "genplay export: %d asserts and %d error checks added\n", res.Asserts, res.Errors)
		return 0
	})
}
