package shell_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/scenario"
)

func TestScriptsReadFilesNextToTheTest(t *testing.T) {
	fsys := fstest.MapFS{
		"suite/t/chainsaw-test.yaml": {Data: []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - script:
        content: kubectl apply -f cm.yaml
        check:
          ($stdout): |
            configmap/from-file created
    - assert:
        file: cm.yaml
    - script:
        content: kubectl apply -f more
        check:
          ($stdout): |
            configmap/one created
            configmap/two created
    - script:
        content: kubectl delete -f cm.yaml,more/one.yaml
        check:
          ($stdout): |
            configmap "from-file" deleted
            configmap "one" deleted
    - script:
        content: kubectl create -f cm.yaml,more/one.yaml
        check:
          ($stdout): |
            configmap/from-file created
            configmap/one created
`)},
		"suite/t/more/one.yaml":  {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n  namespace: default\n")},
		"suite/t/more/two.json":  {Data: []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "two", "namespace": "default"}}`)},
		"suite/t/more/notes.txt": {Data: []byte("not read")},
		"suite/t/cm.yaml":        {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-file\n  namespace: default\n")},
	}
	tests, diags := scenario.Load(fsys, "suite/t/chainsaw-test.yaml")
	require.False(t, diags.HasErrors(), diags.Error())
	res := engine.RunTest(tests[0], engine.Options{Files: fsys})
	assert.True(t, res.Passed, diagnostics(res))
	assert.Empty(t, res.Skipped)
}
