//go:build js && wasm

package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScriptsPipingIntoJQAreSkippedInTheBrowserBuild(t *testing.T) {
	res := runScript(t, "- script:\n    content: kubectl get cm base-copy -n apps -o json | jq -e '.data'")
	assert.Contains(t, res.Skipped, "jq")
	assert.False(t, res.Passed && res.Skipped == "")
}
