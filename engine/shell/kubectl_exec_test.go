package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
)

func TestKubectlExecReachesKyvernoAsAConnectRequestOnTheExecSubresource(t *testing.T) {
	res := engine.Run("exec.yaml", []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: exec
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: audit-exec
          spec:
            rules:
            - name: record
              match:
                any:
                - resources:
                    kinds:
                    - Pod/exec
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: exec-audit
                namespace: '{{request.namespace}}'
                data:
                  data:
                    command: '{{request.object.command[0]}}'
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: apps
    - command:
        entrypoint: kubectl
        args: [run, web, --image=nginx, -n, apps]
    - error:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: exec-audit
            namespace: apps
    - command:
        entrypoint: kubectl
        args: [exec, -n, apps, web, -it, --, ls, /]
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: exec-audit
            namespace: apps
            labels:
              generate.kyverno.io/trigger-kind: PodExecOptions
              generate.kyverno.io/trigger-version: v1
              generate.kyverno.io/trigger-namespace: apps
          data:
            command: ls
`), engine.Options{})
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
}
