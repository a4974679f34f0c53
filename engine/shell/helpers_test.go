package shell_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// scriptScenario wraps script operations (YAML, indented for a try list)
// into a chainsaw Test that starts as testdata/setup.yaml does: a
// namespace and a cloning policy in place.
func scriptScenario(ops string) string {
	return `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scripts
spec:
  steps:
  - name: setup
    try:
` + setupOps + `  - name: scripts
    try:
` + indent(ops, 4)
}

// setupOps are the operations of testdata/setup.yaml, indented for a
// step's try list.
var setupOps = func() string {
	b, err := os.ReadFile("testdata/setup.yaml")
	if err != nil {
		panic(err)
	}
	_, ops, ok := strings.Cut(string(b), "  try:\n")
	if !ok {
		panic("testdata/setup.yaml has no try")
	}
	return indent(ops, 2) + "\n"
}()

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func runScript(t *testing.T, ops string) *timeline.Result {
	t.Helper()
	res := engine.Run("scripts.yaml", []byte(scriptScenario(ops)), engine.Options{Scripts: shell.New})
	require.NotNil(t, res)
	return res
}

func diagnostics(res *timeline.Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		b.WriteString(d.Message + "\n")
	}
	return b.String()
}

// scriptCase is a script run in scriptScenario: it passes, fails with
// failure in a diagnostic, or is skipped with skipped in the reason.
type scriptCase struct {
	name, ops        string
	pass             bool
	failure, skipped string
}

func runScriptCases(t *testing.T, cases []scriptCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.ops, "jq") && !shell.JQAvailable {
				t.Skip("jq is not in this build")
			}
			res := runScript(t, c.ops)
			if c.skipped != "" {
				assert.Contains(t, res.Skipped, c.skipped)
				return
			}
			require.Empty(t, res.Skipped)
			if c.pass {
				assert.True(t, res.Passed, diagnostics(res))
				return
			}
			assert.False(t, res.Passed)
			assert.Contains(t, diagnostics(res), c.failure)
		})
	}
}
