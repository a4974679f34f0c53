package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

const widgetCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    plural: widgets
    singular: widget
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
`

// widgetTest creates a Widget without a namespace: chainsaw puts it in the
// test namespace, which it creates only when it knows the kind is
// namespaced.
const widgetTest = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: widgets
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: example.com/v1
          kind: Widget
          metadata:
            name: w
    - assert:
        resource:
          apiVersion: example.com/v1
          kind: Widget
          metadata:
            name: w
            namespace: chainsaw-test
`

func TestInstallAppliesManifestsBeforeTheTest(t *testing.T) {
	docs, diags := source.Parse("crds/widget.yaml", []byte(widgetCRD))
	require.False(t, diags.HasErrors())
	crd := scenario.Resource{Doc: docs[0], Object: resource.Object(docs[0].Value.(map[string]any))}

	without := Run("widgets.yaml", []byte(widgetTest), Options{})
	assert.False(t, without.Passed, "without the CRD the kind's scope is unknown")

	res := Run("widgets.yaml", []byte(widgetTest), Options{Install: []scenario.Resource{crd}})
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, "%+v", res.Diagnostics)
	require.NotEmpty(t, res.Steps)
	assert.Equal(t, "install", res.Steps[0].StepName)
	assert.Equal(t, "apply CustomResourceDefinition widgets.example.com", res.Steps[0].Summary)
}
