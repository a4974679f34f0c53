package engine

import (
	"flag"
	"fmt"
	"os"
	"testing"
)

// TestMain runs the engine's tests with every session auditing its store
// and its timeline (auditStores): a test run that changed a stored object
// after storing it, or whose timeline's changes do not give the store's
// objects after a step, fails, naming the object. Benchmarks run without
// the audit, which copies every stored object.
func TestMain(m *testing.M) {
	flag.Parse()
	auditStores = flag.Lookup("test.bench").Value.String() == ""
	code := m.Run()
	if err := auditFailure(); err != nil {
		fmt.Fprintln(os.Stderr, "FAIL: the audit of the store and the timeline:", err)
		code = 1
	}
	os.Exit(code)
}

// auditFailure returns the first audit violation of any session, or nil.
func auditFailure() error {
	auditMu.Lock()
	defer auditMu.Unlock()
	return auditViolation
}
