//go:build js && wasm

package shell

import (
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/scenario"
)

// jqAvailable is false in the browser build: gojq would add about a quarter
// to the wasm download, and no scenario a user writes needs it. Scripts that
// pipe into jq are skipped with that reason (see precheck).
const jqAvailable = false

func runJQ(Stage, string, *budget.Budget) (string, string, int, error) {
	return "", "", 0, &scenario.UnsupportedError{Reason: "pipes into jq, which the browser build of genplay does not include"}
}
