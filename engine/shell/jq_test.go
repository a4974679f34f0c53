//go:build !(js && wasm)

package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScriptsPipeIntoJQ(t *testing.T) {
	cases := []struct {
		name, ops string
		pass      bool
	}{
		{
			name: "jq -e succeeds when the filter holds",
			ops: `- script:
    content: kubectl get cm base-copy -n apps -o json | jq -e '.data.level == "info"'`,
			pass: true,
		},
		{
			name: "jq -e fails the script when the filter is false",
			ops: `- script:
    content: kubectl get cm base-copy -n apps -o json | jq -e '.metadata.ownerReferences != null'`,
		},
		{
			name: "jq builds a patch that a piped kubectl patch reads from stdin",
			ops: `- script:
    content: |
      kubectl get cm base -n default -o json | jq '{"data": {"level": (.data.level + "-x")}}' | kubectl patch cm base -n default --patch-file=/dev/stdin
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
      data:
        level: info-x`,
			pass: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runScript(t, c.ops)
			require.Empty(t, res.Skipped)
			assert.Equal(t, c.pass, res.Passed, diagnostics(res))
		})
	}
}
