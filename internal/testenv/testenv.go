// Package testenv is what the tests need from around the repository, and
// one rule for when it is missing. Kyverno's conformance suites live
// outside the repository (../shared, read at test time, never copied in),
// the browser tests need Chromium and a built site: under CI (CI=true) a
// test whose input is missing fails, elsewhere it skips with a message that
// says what is missing and how to get it.
package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// Missing ends the test for an input that is not there: a failure under
// CI=true, a skip elsewhere. what says what is missing and how to get it.
func Missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("%s (CI=true: the test must run)", what)
	}
	t.Skip(what)
}

// Root returns the repository's root: the nearest folder above the working
// directory (a test's package folder) that holds go.mod.
func Root(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatalf("working directory: %v", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Shared returns ../shared/<parts...> seen from the repository's root,
// ending the test by Missing when it is not there.
func Shared(t testing.TB, parts ...string) string {
	t.Helper()
	dir := filepath.Join(append([]string{Root(t), "..", "shared"}, parts...)...)
	if _, err := os.Stat(dir); err != nil {
		Missing(t, "Kyverno's reference material is not at "+dir+" (../shared/"+filepath.Join(parts...)+" from the repository's root)")
	}
	return dir
}

// Conformance returns the folder of Kyverno's chainsaw conformance tests of
// v1.19.0 (generate/, generating-policies/ and _step-templates/):
// $GENPLAY_CONFORMANCE, else ../shared/conformance/chainsaw from the
// repository's root, ending the test by Missing when it is not there.
func Conformance(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("GENPLAY_CONFORMANCE")
	if dir == "" {
		return Shared(t, "conformance", "chainsaw")
	}
	if _, err := os.Stat(dir); err != nil {
		Missing(t, "Kyverno's conformance tests are not at "+dir+" (GENPLAY_CONFORMANCE)")
	}
	return dir
}
