package kubectl_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// badPolicy is a ClusterPolicy Kyverno's policy validation rejects: a
// generate rule with both data and clone.
const badPolicy = `apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      metadata:
        name: bad
      spec:
        rules:
        - name: r
          match:
            any:
            - resources:
                kinds: [Namespace]
          generate:
            apiVersion: v1
            kind: ConfigMap
            name: x
            namespace: default
            data:
              data:
                a: b
            clone:
              namespace: default
              name: base`

func TestScriptsShellControlFlow(t *testing.T) {
	cases := []struct {
		name, ops string
		pass      bool
		failure   string
	}{
		{
			name: "if a rejected apply; then exit 1; else exit 0; fi passes when Kyverno rejects the policy",
			ops: `- script:
    content: |
      if kubectl apply -f - <<EOF
      ` + badPolicy + `
      EOF
      then exit 1; else exit 0; fi`,
			pass: true,
		},
		{
			name: "the same if fails when the apply succeeds",
			ops: `- script:
    content: |
      if kubectl create ns fresh; then exit 1; else exit 0; fi`,
			failure: "exit status 1",
		},
		{
			name: "! negates a command's status",
			ops: `- script:
    content: "! kubectl get cm missing -n apps"`,
			pass: true,
		},
		{
			name: "|| runs the next command when the first fails",
			ops: `- script:
    content: kubectl get cm missing -n apps 2>/dev/null || kubectl get cm base-copy -n apps -o name
    check:
      (trim_space($stdout)): configmap/base-copy`,
			pass: true,
		},
		{
			name: "&& runs the next command only when the first succeeds, and exit sets the status",
			ops: `- script:
    content: kubectl get cm base-copy -n apps -o name >/dev/null && exit 3
    check:
      ($error): exit status 3`,
			pass: true,
		},
		{
			name: "an if that finds what should be absent echoes and exits 1",
			ops: `- script:
    content: |
      if kubectl get configmap base-copy -n apps >/dev/null 2>&1; then
        echo "expected base-copy to be absent"
        exit 1
      fi`,
			failure: "expected base-copy to be absent",
		},
		{
			name: "the same if passes when the object is absent",
			ops: `- script:
    content: |
      if kubectl get configmap never -n apps >/dev/null 2>&1; then
        echo "expected never to be absent"
        exit 1
      fi`,
			pass: true,
		},
		{
			name: "elif and else choose one branch",
			ops: `- script:
    content: |
      if kubectl get cm missing -n apps 2>/dev/null; then
        echo first
      elif kubectl get cm base-copy -n apps >/dev/null; then
        echo second
      else
        echo third
      fi
    check:
      (trim_space($stdout)): second`,
			pass: true,
		},
		{
			name: "set -e stops at the first failure outside a condition",
			ops: `- script:
    content: |
      set -e
      if ! kubectl get cm missing -n apps 2>/dev/null; then echo absent; fi
      kubectl get cm missing -n apps
      kubectl create ns never
    check:
      ($error != null): true
      ($stdout): |
        absent
- error:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: never`,
			pass: true,
		},
		{
			name: "true, false and : are builtins",
			ops: `- script:
    content: "false || : && true; echo done >&2"
    check:
      ($error): null
      ($stderr): "done\n"`,
			pass: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runScript(t, c.ops)
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
