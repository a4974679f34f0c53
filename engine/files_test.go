package engine

import (
	"github.com/genplay/genplay/engine/shell"

	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fileOps are operations that name a file, each with the line of the
// operation in fileScenario(op).
var fileOps = map[string]string{
	"apply.file":           "- apply:\n    file: ns.yaml",
	"assert.file":          "- assert:\n    file: ns.yaml",
	"error.file":           "- error:\n    file: missing.yaml",
	"delete.file":          "- delete:\n    file: ns.yaml",
	"kubectl apply -f":     "- script:\n    content: kubectl apply -f ns.yaml\n    check:\n      ($error != null): true",
	"kubectl --patch-file": "- script:\n    content: kubectl patch ns default --patch-file patch.yaml\n    check:\n      ($error != null): true",
}

// fileScenario is a Test whose second step holds op; op's line is 12.
func fileScenario(op string) string {
	return `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - sleep:
        duration: 1s
  - name: uses-a-file
    try:
` + indent(op, 4) + "\n"
}

const templateScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - sleep:
        duration: 1s
  - name: uses-a-template
    use:
      template: step.yaml
`

func TestOperationsThatNameAFileAreErrorsAtTheirLineWhenNoFilesCanBeRead(t *testing.T) {
	cases := map[string]struct {
		text string
		line int
	}{"use.template": {templateScenario, 12}}
	for name, op := range fileOps {
		cases[name] = struct {
			text string
			line int
		}{fileScenario(op), 12}
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			res := Run("files.yaml", []byte(c.text), Options{Scripts: shell.New})
			assert.False(t, res.Passed, "an operation that names a file never passes silently")
			assert.Empty(t, res.Skipped)
			var found bool
			for _, d := range res.Diagnostics {
				if d.Severity == "error" && d.File == "files.yaml" && d.Line == c.line && strings.Contains(d.Message, "no files") {
					found = true
				}
			}
			assert.True(t, found, "an error at files.yaml:%d saying no files can be read; got %+v", c.line, res.Diagnostics)
		})
	}
}

func TestRunReadsTheFilesOperationsNameFromOptionsFiles(t *testing.T) {
	ns := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: from-file\n"
	step := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: StepTemplate
metadata:
  name: step
spec:
  try:
  - assert:
      file: ns.yaml
`
	fsys := fstest.MapFS{"suite/ns.yaml": {Data: []byte(ns)}, "suite/step.yaml": {Data: []byte(step)}}
	text := fileScenario("- apply:\n    file: ns.yaml\n- script:\n    content: kubectl apply -f ns.yaml\n    check:\n      ($stdout): |\n        namespace/from-file unchanged") +
		"  - use:\n      template: step.yaml\n"
	res := Run("suite/files.yaml", []byte(text), Options{Scripts: shell.New, Files: fsys})
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, "%+v", res.Diagnostics)
	var summaries []string
	for _, st := range res.Steps {
		summaries = append(summaries, st.Summary)
	}
	assert.Contains(t, summaries, "apply Namespace from-file")
	assert.Contains(t, summaries, "assert Namespace from-file", "the template's operations ran")

	missing := Run("suite/files.yaml", []byte(fileScenario("- error:\n    file: missing.yaml")), Options{Scripts: shell.New, Files: fsys})
	assert.False(t, missing.Passed, "a file that is not there is an error, not an empty check")
	require.NotEmpty(t, missing.Diagnostics)
	assert.Equal(t, 12, missing.Diagnostics[0].Line)
}
