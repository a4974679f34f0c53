package scenario_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

const inlineTest = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: clone-secret
spec:
  namespace: team-a
  bindings:
  - name: secret
    value: regcred
  steps:
  - name: create the source
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: Secret
          metadata:
            name: ($secret)
    - sleep:
        duration: 2s
    - assert:
        template: false
        resource:
          apiVersion: v1
          kind: Secret
          metadata:
            name: regcred
    - delete:
        ref:
          apiVersion: v1
          kind: Secret
          name: regcred
        expect:
        - check:
            ($error != null): true
    - script:
        content: kubectl get secret regcred
        timeout: 30s
        check:
          ($error): ~
    finally:
    - sleep:
        duration: 1s
`

func TestParseInlineTest(t *testing.T) {
	tests, diags := scenario.Parse("test.yaml", []byte(inlineTest))
	require.Empty(t, diags)
	require.Len(t, tests, 1)
	tt := tests[0]
	assert.Equal(t, "clone-secret", tt.Name)
	assert.Equal(t, "team-a", tt.Namespace)
	assert.Equal(t, []scenario.Binding{{Name: "secret", Value: "regcred", Pos: source.Pos{File: "test.yaml", Line: 8, Col: 5}}}, tt.Bindings)
	require.Len(t, tt.Steps, 1)
	step := tt.Steps[0]
	assert.Equal(t, "create the source", step.Name)
	require.Len(t, step.Try, 5)

	apply := step.Try[0]
	assert.Equal(t, scenario.OpApply, apply.Type)
	assert.True(t, apply.Template, "templating is on by default")
	require.Len(t, apply.Resources, 1)
	assert.Equal(t, "($secret)", apply.Resources[0].Object.Name())
	assert.Equal(t, 18, apply.Resources[0].Pos("metadata", "name").Line, "inline resources are positioned in the test file")

	assert.Equal(t, 2*time.Second, step.Try[1].Duration)
	assert.False(t, step.Try[2].Template, "an operation can turn templating off")
	assert.Equal(t, &scenario.ObjectRef{APIVersion: "v1", Kind: "Secret", Name: "regcred"}, step.Try[3].Ref)
	require.Len(t, step.Try[3].Expect, 1)
	assert.Equal(t, map[string]any{"($error != null)": true}, step.Try[3].Expect[0].Check)
	script := step.Try[4]
	require.NotNil(t, script.Script)
	assert.Equal(t, "kubectl get secret regcred", script.Script.Content)
	assert.Equal(t, 30*time.Second, script.Timeout)
	assert.Equal(t, map[string]any{"($error)": nil}, script.Script.Check)
	require.Len(t, step.Finally, 1)
	assert.Equal(t, source.Pos{File: "test.yaml", Line: 11, Col: 5}, step.Pos)
}

func TestParseReportsPositionedErrors(t *testing.T) {
	tests := []struct {
		name    string
		yaml    string
		line    int
		message string
	}{
		{name: "an unknown operation is an error", line: 8, message: `unknown operation "applyy"`, yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - applyy:
        file: x.yaml
`},
		{name: "an unknown field of an operation is an error", line: 9, message: `unknown field "fiel" in a apply operation`, yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - apply:
        fiel: x.yaml
`},
		{name: "apply is not allowed in finally", line: 8, message: "apply operations are not allowed in finally", yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - finally:
    - apply:
        file: x.yaml
    try: []
`},
		{name: "a bad duration is an error", line: 9, message: `duration: invalid duration "soon"`, yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - sleep:
        duration: soon
`},
		{name: "two operations in one item are an error", line: 8, message: "an operation holds exactly one of", yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - sleep:
        duration: 1s
      apply:
        file: x.yaml
`},
		{name: "another kind is an error", line: 1, message: "expected apiVersion chainsaw.kyverno.io/v1alpha1 and kind Test", yaml: `apiVersion: v1
kind: ConfigMap
metadata:
  name: t
`},
		{name: "an unknown spec field is an error", line: 6, message: `unknown field "stepz"`, yaml: `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  stepz: []
  steps: []
`},
		{name: "an empty file has no test", line: 1, message: "found no chainsaw Test", yaml: ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := scenario.Parse("t.yaml", []byte(tt.yaml))
			require.NotEmpty(t, diags)
			d := diags[0]
			assert.Equal(t, source.SeverityError, d.Severity)
			assert.Equal(t, "t.yaml", d.File)
			assert.Equal(t, tt.line, d.Line, d.Message)
			assert.Contains(t, d.Message, tt.message)
		})
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(inlineTest))
	f.Add([]byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps:\n  - try:\n    - apply: {file: x}\n"))
	f.Add([]byte("- [a, b]\n---\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tests, diags := scenario.Parse("fuzz.yaml", data)
		if len(tests) == 0 && len(diags) == 0 {
			t.Fatal("no test and no diagnostic")
		}
	})
}
