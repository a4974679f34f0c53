package shell_test

import (
	"testing"
)

func TestKubectlLabelAndAnnotate(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "label, annotate and a merge patch change the downstream and Kyverno reverts them",
			ops: `- script:
    content: |
      kubectl label cm base-copy -n apps team=blue
      kubectl annotate cm base-copy -n apps note=hi
      kubectl patch cm base-copy -n apps --type merge -p '{"data":{"level":"debug"}}'
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
      data:
        level: info
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
        labels:
          team: blue`,
			pass: true,
		},
	})
}
