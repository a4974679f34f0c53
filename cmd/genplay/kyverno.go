package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/genplay/genplay/engine"
)

// kyvernoVersionFlag adds --kyverno-version, the Kyverno release a command
// simulates, to fs.
func kyvernoVersionFlag(fs *flag.FlagSet) *string {
	return fs.String("kyverno-version", engine.KyvernoVersion,
		"the Kyverno release to simulate: "+strings.Join(engine.KyvernoVersions(), ", ")+" (latest)")
}

// parseKyvernoVersion reads --kyverno-version, saying on stderr what is
// wrong with it (the command then exits 2).
func parseKyvernoVersion(stderr io.Writer, cmd, s string) (string, bool) {
	v, err := engine.ParseKyvernoVersion(s)
	if err != nil {
		fmt.Fprintf(stderr, "genplay %s: --kyverno-version: %v\n", cmd, err)
		return "", false
	}
	return v, true
}
