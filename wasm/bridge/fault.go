package bridge

import (
	"fmt"
	"sync"
)

// Fault names a failure InjectFault arms. The browser tests use them to
// prove that the page survives a crash of the engine; nothing else should.
type Fault string

const (
	// FaultPanic panics inside the next Run, below its recover: Run answers
	// with an internal error and the engine keeps working.
	FaultPanic Fault = "panic"
	// FaultExit panics on a new goroutine during the next Run, where no
	// recover can reach it: the Go program dies, as it would on a runtime
	// fatal error (stack or memory exhaustion), and the page must restart
	// the engine.
	FaultExit Fault = "exit"
)

var (
	faultMu sync.Mutex
	armed   Fault
)

// InjectFault arms a failure for the next Run only; it is test-only and
// reachable from JavaScript solely through the private
// globalThis.__genplayWasm.injectFault (see wasm/doc.go), never through a
// scenario or an option, so no input can trigger it.
func InjectFault(f string) error {
	switch Fault(f) {
	case FaultPanic, FaultExit:
	default:
		return fmt.Errorf("inject fault: unknown fault %q; want %q or %q", f, FaultPanic, FaultExit)
	}
	faultMu.Lock()
	defer faultMu.Unlock()
	armed = Fault(f)
	return nil
}

// takeFault disarms and returns the armed fault, "" when none.
func takeFault() Fault {
	faultMu.Lock()
	defer faultMu.Unlock()
	f := armed
	armed = ""
	return f
}

// crash fails in the way f names.
func crash(f Fault) {
	switch f {
	case FaultPanic:
		panic("injected fault: panic (test-only, from bridge.InjectFault)")
	case FaultExit:
		go func() {
			panic("injected fault: exit (test-only, from bridge.InjectFault)")
		}()
		select {} // the panic ends the program while this waits
	}
}
