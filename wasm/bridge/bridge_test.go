package bridge

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

func ptr(b bool) *bool { return &b }

func TestParseOptions(t *testing.T) {
	tests := []struct {
		name    string
		json    string
		file    string
		opts    engine.Options
		wantErr string
	}{
		{name: "no options use the default file and no override", json: "", file: DefaultFile},
		{name: "an empty object is no options", json: "{}", file: DefaultFile},
		{name: "a file name is kept", json: `{"file":"x.yaml"}`, file: "x.yaml"},
		{name: "null overrides leave the policy's values", json: `{"override":{"synchronize":null,"orphanDownstreamOnPolicyDelete":null}}`,
			file: DefaultFile, opts: engine.Options{Override: &engine.Override{}}},
		{name: "both overrides are passed on", json: `{"override":{"synchronize":true,"orphanDownstreamOnPolicyDelete":false}}`,
			file: DefaultFile, opts: engine.Options{Override: &engine.Override{Synchronize: ptr(true), OrphanDownstreamOnPolicyDelete: ptr(false)}}},
		{name: "the Kyverno release is passed on", json: `{"kyvernoVersion":"v1.19.0"}`, file: DefaultFile, opts: engine.Options{KyvernoVersion: "v1.19.0"}},
		{name: "an unknown option is an error", json: `{"overide":{}}`, wantErr: `unknown field "overide"`},
		{name: "a wrong type is an error", json: `{"override":{"synchronize":"yes"}}`, wantErr: "options:"},
		{name: "trailing data is an error", json: `{} {}`, wantErr: "trailing data"},
		{name: "broken JSON is an error", json: `{`, wantErr: "options:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			file, opts, err := ParseOptions(tt.json)
			if tt.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.file, file)
			assert.Equal(t, tt.opts, opts)
		})
	}
}

func decode(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	require.NoError(t, json.Unmarshal(data, &v), "output must be JSON: %s", data)
	return v
}

func TestRun(t *testing.T) {
	const scenario = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps: []\n"

	t.Run("the output is the engine's result as JSON", func(t *testing.T) {
		want, err := json.Marshal(engine.Run(DefaultFile, []byte(scenario), engine.Options{}))
		require.NoError(t, err)
		assert.JSONEq(t, string(want), string(Run(scenario, "")))
	})

	t.Run("the override reaches the engine", func(t *testing.T) {
		var got engine.Options
		restore := runEngine
		t.Cleanup(func() { runEngine = restore })
		runEngine = func(file string, data []byte, opts engine.Options) *timeline.Result {
			got = opts
			return &timeline.Result{Format: timeline.FormatVersion}
		}
		Run(scenario, `{"override":{"synchronize":false}}`)
		require.NotNil(t, got.Override)
		assert.Equal(t, ptr(false), got.Override.Synchronize)
		assert.Nil(t, got.Override.OrphanDownstreamOnPolicyDelete)
	})

	t.Run("bad options come back as a diagnostic", func(t *testing.T) {
		out := decode(t, Run(scenario, `{"nope":1}`))
		assert.Equal(t, timeline.FormatVersion, out["format"])
		diags := out["diagnostics"].([]any)
		require.Len(t, diags, 1)
		assert.Contains(t, diags[0].(map[string]any)["message"], "nope")
	})

	t.Run("oversized input is refused before parsing", func(t *testing.T) {
		out := decode(t, Run(strings.Repeat("a", MaxInput+1), ""))
		assert.Contains(t, out["diagnostics"].([]any)[0].(map[string]any)["message"], "limit")
	})

	t.Run("a panic in the engine becomes an internal error", func(t *testing.T) {
		restore := runEngine
		t.Cleanup(func() { runEngine = restore })
		runEngine = func(string, []byte, engine.Options) *timeline.Result { panic("boom") }
		out := decode(t, Run(scenario, ""))
		msg := out["diagnostics"].([]any)[0].(map[string]any)["message"].(string)
		assert.True(t, strings.HasPrefix(msg, "internal error: boom"), msg)
		assert.Equal(t, "error", out["diagnostics"].([]any)[0].(map[string]any)["severity"])
	})
}
