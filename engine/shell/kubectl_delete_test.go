package shell_test

import (
	"testing"
)

func TestKubectlDelete(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "a command operation deletes by type and name",
			ops: `- command:
    entrypoint: kubectl
    args: [delete, configmap, base-copy, -n, apps]
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base
        namespace: apps`,
			pass: true,
		},
	})
}
