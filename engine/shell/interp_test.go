package shell_test

import (
	"strings"
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
	runScriptCases(t, []scriptCase{
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
	})
}

// pollScript is the shape of Kyverno's sync-update-trigger-in-place test:
// variables from command substitutions, a polling loop with seq, [ and
// sleep, and checks with exit.
const pollScript = `- script:
    content: |
      set -e
      uid1=$(kubectl get configmap base-copy -n apps -o jsonpath='{.metadata.uid}')
      kubectl patch cm base -n default --type merge -p '{"data":{"level":"LEVEL"}}'
      val=""
      for i in $(seq 1 30); do
        val=$(kubectl get configmap base-copy -n apps -o jsonpath='{.data.level}' 2>/dev/null || true)
        if [ "$val" = "debug" ]; then
          break
        fi
        sleep 2
      done
      if [ "$val" != "debug" ]; then
        echo "downstream was not updated, got level=$val"
        exit 1
      fi
      uid2=$(kubectl get configmap base-copy -n apps -o jsonpath='{.metadata.uid}')
      if [ "$uid1" != "$uid2" ]; then
        echo "recreated: uid changed from $uid1 to $uid2"
        exit 1
      fi
      echo "updated in place"
    check:
      (contains($stdout, 'updated in place')): true`

func TestScriptsWithVariablesLoopsAndTests(t *testing.T) {
	res := runScript(t, strings.Replace(pollScript, "LEVEL", "debug", 1))
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))

	res = runScript(t, strings.Replace(pollScript, "LEVEL", "warn", 1))
	require.Empty(t, res.Skipped)
	assert.False(t, res.Passed)
	assert.Contains(t, diagnostics(res), "downstream was not updated, got level=warn")
	// The loop polled 30 times, sleeping 2s each time: the clock moved.
	last := res.Steps[len(res.Steps)-1]
	assert.Equal(t, "kubectl get configmap base-copy -n apps -o jsonpath='{.data.level}' 2>/dev/null", last.Summary)

	runScriptCases(t, []scriptCase{
		{
			name: "a variable holds a substitution's output, trailing newlines removed",
			ops: `- script:
    content: |
      name=$(kubectl get cm base-copy -n apps -o name)
      test "$name" = configmap/base-copy && echo "ok $name"
    check:
      ($stdout): "ok configmap/base-copy\n"`,
			pass: true,
		},
		{
			name: "an unquoted substitution splits into words; a quoted one does not",
			ops: `- script:
    content: |
      for w in $(echo a b) "$(echo c d)"; do echo "[$w]"; done
    check:
      ($stdout): "[a]\n[b]\n[c d]\n"`,
			pass: true,
		},
		{
			name: "while and until loop on a condition",
			ops: `- script:
    content: |
      until kubectl get cm made -n apps >/dev/null 2>&1; do
        kubectl create cm made -n apps
      done
      while ! kubectl get cm made -n apps >/dev/null 2>&1; do exit 1; done
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: made
        namespace: apps`,
			pass: true,
		},
		{
			name: "$? is the last status",
			ops: `- script:
    content: |
      kubectl get cm missing -n apps 2>/dev/null
      if [ $? -ne 0 ]; then echo "status $?"; fi
    check:
      ($stdout): "status 0\n"`,
			pass: true,
		},
		{
			name: "a loop that never ends is stopped",
			ops: `- script:
    content: "while true; do :; done"`,
			failure: "loops ran more than",
		},
		{
			name: "set -e ends the script when an assignment's substitution fails",
			ops: `- script:
    content: |
      set -e
      x=$(kubectl get cm missing -n apps)
      echo unreachable
    check:
      ($error != null): true
      ($stdout): ""`,
			pass: true,
		},
		{
			name: "a substituted command genplay cannot run skips the test",
			ops: `- script:
    content: |
      pod=$(kubectl get pods -n apps -o name)
      kubectl logs $pod`,
			skipped: "kubectl logs reads container logs",
		},
	})
}

func TestScriptsThatGrowWithoutBoundAreStopped(t *testing.T) {
	for name, content := range map[string]string{
		"a variable":     `x=ab; while true; do x="$x$x"; done`,
		"what it prints": `x=$(seq 1 10000); while true; do echo "$x"; done`,
	} {
		t.Run(name, func(t *testing.T) {
			res := runScript(t, "- script:\n    content: '"+content+"'")
			require.Empty(t, res.Skipped)
			assert.False(t, res.Passed)
			assert.Contains(t, diagnostics(res), "genplay stops")
		})
	}
}
