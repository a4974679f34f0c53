package bridge

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
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

// TestKyvernoVersions: the options pick the release a run simulates, and
// compareVersions answers the comparison of every release, the bytes
// `genplay run --compare-versions -o json` prints.
func TestKyvernoVersions(t *testing.T) {
	text, err := os.ReadFile("../../site/examples/default-deny-netpol-cel.yaml")
	require.NoError(t, err)
	t.Cleanup(func() { Families = nil })
	Families = []engine.Family{controller.New}

	for _, v := range engine.KyvernoVersions() {
		var res timeline.Result
		require.NoError(t, json.Unmarshal(Run(string(text), `{"kyvernoVersion":"`+v+`"}`), &res))
		assert.Equal(t, v, res.Kyverno)
		native, err := json.Marshal(engine.Run(DefaultFile, text, engine.Options{Families: Families, KyvernoVersion: v}))
		require.NoError(t, err)
		assert.JSONEq(t, string(native), string(Run(string(text), `{"kyvernoVersion":"`+v+`"}`)))
	}
	var bad timeline.Result
	require.NoError(t, json.Unmarshal(Run(string(text), `{"kyvernoVersion":"v9"}`), &bad))
	require.NotEmpty(t, bad.Diagnostics)
	assert.Contains(t, bad.Diagnostics[0].Message, "Kyverno v9 is not simulated")

	out := Run(string(text), `{"compareVersions":true}`)
	var c timeline.VersionComparison
	require.NoError(t, json.Unmarshal(out, &c))
	assert.Equal(t, timeline.VersionsFormat, c.Format)
	assert.Equal(t, engine.KyvernoVersions(), c.Versions)
	want, stop, _ := engine.CompareVersions(DefaultFile, text, engine.Options{Families: Families})
	require.Nil(t, stop, "the comparison ran to the end")
	native, err := json.Marshal(want)
	require.NoError(t, err)
	assert.JSONEq(t, string(native), string(out))
}

// TestScripts: Run passes Scripts to the engine. Without it (the core
// build) a scenario with a script is the skip the loader acts on; with
// package shell's (the full build) it is what the engine gives natively.
func TestScripts(t *testing.T) {
	text := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scripts
spec:
  steps:
  - try:
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
    - script:
        content: kubectl get namespace team-a -o jsonpath='{.metadata.name}'
        check:
          ($stdout): team-a
`
	t.Cleanup(func() { Scripts = nil })

	Scripts = nil
	var core timeline.Result
	require.NoError(t, json.Unmarshal(Run(text, ""), &core))
	assert.Contains(t, core.Skipped, "has no shell")

	Scripts = shell.New
	var full timeline.Result
	require.NoError(t, json.Unmarshal(Run(text, ""), &full))
	assert.True(t, full.Passed, "%v", full.Diagnostics)
	native, err := json.Marshal(engine.Run(DefaultFile, []byte(text), engine.Options{Scripts: shell.New}))
	require.NoError(t, err)
	assert.JSONEq(t, string(native), string(Run(text, "")))
}
