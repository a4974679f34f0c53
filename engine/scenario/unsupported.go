package scenario

import "fmt"

// UnsupportedError says why an operation (a script, a command, a wait for
// a status) cannot be run honestly by genplay, which has no real cluster,
// no Kyverno pods and no shell; the runner reports the test as skipped
// with Reason.
type UnsupportedError struct {
	Reason string
	// Line is the script line (1-based) where the problem is, 0 if unknown.
	Line int
}

func (e *UnsupportedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return e.Reason
}
