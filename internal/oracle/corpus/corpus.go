// Package corpus lets tests hand the scenarios they run to `make
// oracle-record`: with GENPLAY_ORACLE_CORPUS set to a folder, Write saves a
// scenario there under the test's name, and the recorder records it against
// real Kyverno. Without it, Write does nothing.
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

var unsafe = regexp.MustCompile(`[^A-Za-z0-9]+`)

// Write saves text as <folder>/<prefix>-<test name>.yaml when Env is set.
func Write(t testing.TB, prefix, text string) {
	dir := os.Getenv(Env)
	if dir == "" {
		return
	}
	name := strings.Trim(unsafe.ReplaceAllString(strings.ToLower(prefix+"-"+t.Name()), "-"), "-")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".yaml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
