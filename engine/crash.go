package engine

import (
	"strings"

	"github.com/genplay/genplay/engine/timeline"
)

// internalErrorPrefix starts the message of the diagnostic a recovered
// panic becomes.
const internalErrorPrefix = "internal error in genplay"

// IsInternalError reports whether res is a recovered panic in genplay, not
// an answer about the input: the CLI exits 3 and the HTTP API answers 500.
func IsInternalError(res *timeline.Result) bool {
	if res == nil {
		return true
	}
	for _, d := range res.Diagnostics {
		if d.Severity == "error" && strings.HasPrefix(d.Message, internalErrorPrefix) {
			return true
		}
	}
	return false
}

// beforeOperation, when a test sets it, runs before every operation of a
// run; the crash-containment tests make it panic. Nil in production.
var beforeOperation func()
