package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKubectlRun(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "run creates a pod labelled run=NAME whose containers never run",
			ops: `- script:
    content: kubectl run web --image=nginx -n apps
    check:
      ($stdout): |
        pod/web created
- assert:
    resource:
      apiVersion: v1
      kind: Pod
      metadata:
        name: web
        namespace: apps
        labels:
          run: web
      spec:
        restartPolicy: Always
        containers:
        - name: web
          image: nginx`,
			pass: true,
		},
		{
			name: "a second run of the same name is AlreadyExists",
			ops: `- script:
    content: |
      kubectl run web --image=nginx -n apps
      kubectl run web --image=nginx -n apps
    check:
      ($stderr): |
        Error from server (AlreadyExists): pods "web" already exists
      ($error != null): true`,
			pass: true,
		},
		{
			name: "run without --image is an error",
			ops: `- script:
    content: kubectl run web -n apps
    check:
      ($stderr): |
        error: --image is required
      ($error != null): true`,
			pass: true,
		},
	})
	res := runScript(t, "- script:\n    content: kubectl run web --image=nginx -n apps")
	require.True(t, res.Passed, diagnostics(res))
	assert.Contains(t, notes(res), "genplay has no kubelet")
}
