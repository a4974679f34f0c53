package authoring_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/export"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/wasm/authoring"
	"github.com/genplay/genplay/wasm/bridge"
)

// TestExportTool: the export tool answers what engine/export gives natively
// for the same text, and refuses an override (it checks the policies as
// written).
func TestExportTool(t *testing.T) {
	t.Cleanup(func() { bridge.Tools, bridge.Families = nil, nil })
	bridge.Tools = map[string]bridge.Tool{"export": authoring.Export}
	bridge.Families = []engine.Family{controller.New}

	for _, example := range []string{"default-deny-netpol.yaml", "clone-registry-secret-cel.yaml"} {
		text, err := os.ReadFile("../../site/examples/" + example)
		require.NoError(t, err)
		native, err := export.Test(bridge.DefaultFile, text, engine.Options{Families: bridge.Families})
		require.NoError(t, err, example)
		want, err := json.Marshal(bridge.ToolAnswer{Tool: "export", Result: native})
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(bridge.CallTool("export", string(text), "")), example)
		assert.Positive(t, native.Asserts, "%s: the export checks something", example)
	}

	var a bridge.ToolAnswer
	require.NoError(t, json.Unmarshal(bridge.CallTool("export", "kind: x", `{"override":{"synchronize":false}}`), &a))
	assert.Equal(t, "options: export checks the policies as written; it takes no override", a.Error)
}
