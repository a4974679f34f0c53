// Package corpus lets tests hand the scenarios they make (rather than read
// from a file) to `make oracle-record`: with GENPLAY_ORACLE_CORPUS set to a
// folder, Write saves a scenario there, and the recorder records it against
// real Kyverno with the other scenarios of the corpus. Without it, Write
// does nothing. Scenarios that are files of the repository (the gallery,
// the behaviour cases) are recorded from their files.
package corpus

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// Env names the folder scenarios are written to.
const Env = "GENPLAY_ORACLE_CORPUS"

// fromPrefix starts the comment line that says where a written scenario
// comes from.
const fromPrefix = "# oracle-corpus-from: "

var unsafe = regexp.MustCompile(`[^A-Za-z0-9]+`)

// Name is the file name (without .yaml) Write gives a scenario.
func Name(name string) string {
	return strings.Trim(unsafe.ReplaceAllString(strings.ToLower(name), "-"), "-")
}

// Write saves text as <folder>/<Name(name)>.yaml when Env is set, with a
// first line that says where it comes from (from: what made it, of what;
// the recording keeps it as its source).
func Write(t testing.TB, name, from, text string) {
	t.Helper()
	dir := os.Getenv(Env)
	if dir == "" {
		return
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Name(name)+".yaml"), []byte(fromPrefix+from+"\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// From is where a scenario Write saved comes from, or "" for another file.
func From(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	if rest, ok := strings.CutPrefix(line, fromPrefix); ok {
		return strings.TrimSpace(rest)
	}
	return ""
}
