package authoring_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scaffold"
	"github.com/genplay/genplay/wasm/authoring"
	"github.com/genplay/genplay/wasm/bridge"
)

const barePolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: add-quota
spec:
  rules:
  - name: quota
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ResourceQuota
      name: default
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          hard:
            pods: "10"
`

// TestWrapTool: the wrap tool answers what engine/scaffold gives natively,
// the template on request, and refuses a misspelt option.
func TestWrapTool(t *testing.T) {
	t.Cleanup(func() { bridge.Tools = nil })
	bridge.Tools = map[string]bridge.Tool{"wrap": authoring.Wrap}

	native, err := scaffold.Wrap("policy.yaml", []byte(barePolicy), scaffold.Options{})
	require.NoError(t, err)
	want, err := json.Marshal(bridge.ToolAnswer{Tool: "wrap", Result: native})
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(bridge.CallTool("wrap", barePolicy, `{"file":"policy.yaml"}`)))

	template, err := scaffold.WrapFiles(nil, scaffold.Options{})
	require.NoError(t, err)
	want, err = json.Marshal(bridge.ToolAnswer{Tool: "wrap", Result: template})
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(bridge.CallTool("wrap", "", `{"template":true}`)))

	var a bridge.ToolAnswer
	require.NoError(t, json.Unmarshal(bridge.CallTool("wrap", barePolicy, `{"templat":true}`), &a))
	assert.Contains(t, a.Error, `options: json: unknown field "templat"`)
}
