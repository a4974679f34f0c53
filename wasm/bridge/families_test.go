package bridge

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
)

// TestFamilies: Run passes Families to the engine. Without them (the core
// build) a CEL example is the skip the loader acts on; with them (the full
// build) it is what the engine gives natively, which `genplay run -o json`
// prints.
func TestFamilies(t *testing.T) {
	text, err := os.ReadFile("../../site/examples/default-deny-netpol-cel.yaml")
	require.NoError(t, err)
	t.Cleanup(func() { Families = nil })

	Families = nil
	var core timeline.Result
	require.NoError(t, json.Unmarshal(Run(string(text), ""), &core))
	assert.Contains(t, core.Skipped, "no CEL engine")

	Families = []engine.Family{controller.New}
	native, err := json.Marshal(engine.Run(DefaultFile, text, engine.Options{Families: Families}))
	require.NoError(t, err)
	assert.JSONEq(t, string(native), string(Run(string(text), "")))
}
