package scenario_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
)

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

var loadFS = fstest.MapFS{
	"_templates/create.yaml": file(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: StepTemplate
metadata:
  name: create
spec:
  bindings:
  - name: extra
    value: from-template
  try:
  - create:
      file: ($file)
`),
	"suite/clone/chainsaw-test.yaml": file(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: clone
spec:
  steps:
  - name: create policy
    use:
      template: ../../_templates/create.yaml
      with:
        bindings:
        - name: file
          value: policy.yaml
  - name: resources
    try:
    - apply:
        file: cm-*.yaml
    - assert:
        file: assert.yaml
`),
	"suite/clone/policy.yaml": file("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: p\n"),
	"suite/clone/cm-1.yaml":   file("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: two\n"),
	"suite/clone/cm-2.yaml":   file("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: three\n"),
	"suite/clone/assert.yaml": file("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n"),
	"suite/broken/chainsaw-test.yaml": file(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: broken
spec:
  steps:
  - try:
    - apply:
        file: missing.yaml
    - apply:
        file: ../../../outside.yaml
  - use:
      template: ../../_templates/nope.yaml
`),
}

func TestLoadResolvesTemplatesAndFiles(t *testing.T) {
	tests, diags := scenario.Load(loadFS, "suite/clone/chainsaw-test.yaml")
	require.Empty(t, diags)
	require.Len(t, tests, 1)
	steps := tests[0].Steps
	require.Len(t, steps, 2)

	create := steps[0]
	assert.Nil(t, create.Use)
	assert.Equal(t, "_templates/create.yaml", create.Template)
	names := []string{}
	for _, b := range create.Bindings {
		names = append(names, b.Name)
	}
	assert.Equal(t, []string{"extra", "file"}, names, "template bindings come before the with bindings")
	require.Len(t, create.Try, 1)
	op := create.Try[0]
	assert.Equal(t, scenario.OpCreate, op.Type)
	assert.Equal(t, "_templates/create.yaml", op.Pos.File, "template operations are positioned in the template")
	require.Len(t, op.Resources, 1)
	assert.Equal(t, "suite/clone/policy.yaml", op.Resources[0].Doc.File, "files resolve against the test's folder")
	assert.Equal(t, "p", op.Resources[0].Object.Name())

	apply := steps[1].Try[0]
	var got []string
	for _, r := range apply.Resources {
		got = append(got, r.Object.Name())
	}
	assert.Equal(t, []string{"one", "two", "three"}, got, "globs read every document of every file, in order")
	require.Len(t, steps[1].Try[1].Resources, 1)
}

func TestLoadReportsMissingFiles(t *testing.T) {
	_, diags := scenario.Load(loadFS, "suite/broken/chainsaw-test.yaml")
	require.Len(t, diags, 3)
	assert.Contains(t, diags[0].Message, "missing.yaml")
	assert.Equal(t, 8, diags[0].Line)
	assert.Contains(t, diags[1].Message, "leaves the folder")
	assert.Contains(t, diags[2].Message, "nope.yaml")
}
