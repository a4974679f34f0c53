package bridge_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/wasm/authoring"
	"github.com/genplay/genplay/wasm/bridge"
)

// deleteNetpol is a step that deletes the default-deny example's downstream.
const deleteNetpol = `  - name: %s
    try:
    - delete:
        ref:
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          name: default-deny
          namespace: team-a
`

// deletedTwice is the default-deny example with its downstream deleted
// twice: a ClusterPolicy with synchronize recreates it both times, a
// GeneratingPolicy only the first (kyverno#17265).
func deletedTwice(t *testing.T) string {
	text, err := os.ReadFile("../../site/examples/default-deny-netpol.yaml")
	require.NoError(t, err)
	return string(text) + strings.Replace(deleteNetpol, "%s", "delete the NetworkPolicy", 1) +
		strings.Replace(deleteNetpol, "%s", "delete it again", 1)
}

type toolAnswer struct {
	Tool   string          `json:"tool"`
	Result json.RawMessage `json:"result"`
	Error  string          `json:"error"`
}

func callMigrate(t *testing.T, text, options string) toolAnswer {
	t.Helper()
	var a toolAnswer
	require.NoError(t, json.Unmarshal(bridge.CallTool("migrate", text, options), &a))
	assert.Equal(t, "migrate", a.Tool)
	return a
}

func withMigrate(t *testing.T, families []engine.Family) {
	t.Cleanup(func() { bridge.Tools, bridge.Families = nil, nil })
	bridge.Tools = map[string]bridge.Tool{"migrate": authoring.Migrate}
	bridge.Families = families
}

// TestMigrateTool: the full build's migrate tool answers what the engine
// gives natively (migrate.ConvertScenario), whose steps are what `genplay
// migrate --compare -o json` prints (Comparison.Report), both families
// under the release the options name (v1.19.0 here, whose GeneratingPolicy
// recreates a downstream once, kyverno#17265).
func TestMigrateTool(t *testing.T) {
	families := []engine.Family{controller.New}
	withMigrate(t, families)
	text := deletedTwice(t)
	opts := engine.Options{Families: families, KyvernoVersion: "v1.19.0"}

	latest := callMigrate(t, text, "")
	require.Empty(t, latest.Error)
	var l migrate.ScenarioReport
	require.NoError(t, json.Unmarshal(latest.Result, &l))
	assert.False(t, l.Differs, "under v1.19.1 both families recreate the downstream after each deletion (kyverno#17453)")

	a := callMigrate(t, text, `{"kyvernoVersion":"v1.19.0"}`)
	require.Empty(t, a.Error)
	native, err := migrate.ConvertScenario(bridge.DefaultFile, []byte(text), nil, opts)
	require.NoError(t, err)
	want, err := json.Marshal(native)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(a.Result))

	t.Run("its steps are --compare's", func(t *testing.T) {
		tests, diags := scenario.LoadData(nil, bridge.DefaultFile, []byte(text))
		require.False(t, diags.HasErrors(), diags)
		cli, err := json.Marshal(migrate.Compare(tests[0], opts).Report().Steps)
		require.NoError(t, err)
		var got struct{ Steps []migrate.StepReport }
		require.NoError(t, json.Unmarshal(a.Result, &got))
		again, err := json.Marshal(got.Steps)
		require.NoError(t, err)
		assert.JSONEq(t, string(cli), string(again))
	})

	var r migrate.ScenarioReport
	require.NoError(t, json.Unmarshal(a.Result, &r))
	t.Run("the converted scenario holds the GeneratingPolicy", func(t *testing.T) {
		assert.Contains(t, r.Scenario, "kind: GeneratingPolicy")
		assert.NotContains(t, r.Scenario, "kind: ClusterPolicy")
		assert.Equal(t, migrate.Full, r.Status)
		require.Len(t, r.Policies, 1)
		assert.Equal(t, "ClusterPolicy/default-deny", r.Policies[0].Source)
	})
	t.Run("only the second deletion differs, by family, with each side's steps", func(t *testing.T) {
		var differ []string
		for _, s := range r.Steps {
			if len(s.Diffs) > 0 {
				differ = append(differ, s.StepName+": "+s.Cause)
			}
			assert.NotEmpty(t, s.LegacySteps, s.Summary)
			assert.NotEmpty(t, s.CELSteps, s.Summary)
		}
		assert.Equal(t, []string{"delete it again: family"}, differ)
		assert.True(t, r.Differs)
		last := r.Steps[len(r.Steps)-1]
		assert.Equal(t, "NetworkPolicy team-a/default-deny", last.Diffs[0].Object)
		assert.Equal(t, "delete NetworkPolicy team-a/default-deny", last.CELSteps[0].Summary)
		assert.Contains(t, eventActions(last.LegacySteps), "kyverno recreated")
		assert.NotContains(t, eventActions(last.CELSteps), "kyverno recreated")
	})
	t.Run("an edited converted scenario is the one compared", func(t *testing.T) {
		require.Contains(t, r.Scenario, "enabled: true")
		edited := strings.Replace(r.Scenario, "enabled: true", "enabled: false", 1)
		options, err := json.Marshal(authoring.MigrateOptions{Converted: edited, KyvernoVersion: "v1.19.0"})
		require.NoError(t, err)
		a := callMigrate(t, text, string(options))
		require.Empty(t, a.Error)
		var e migrate.ScenarioReport
		require.NoError(t, json.Unmarshal(a.Result, &e))
		assert.Equal(t, r.Scenario, e.Scenario, "scenario is the converter's")
		differ := 0
		for _, s := range e.Steps {
			if len(s.Diffs) > 0 {
				differ++
			}
		}
		assert.Greater(t, differ, 1, "with synchronize off, the first deletion differs too")
	})
}

// TestMigrateToolErrors: what cannot be converted or compared is an error
// that says why, at its line.
func TestMigrateToolErrors(t *testing.T) {
	withMigrate(t, []engine.Family{controller.New})
	cel, err := os.ReadFile("../../site/examples/default-deny-netpol-cel.yaml")
	require.NoError(t, err)
	text := deletedTwice(t)
	for _, c := range []struct{ name, text, options, want string }{
		{"bad YAML", "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec: [\n", "", "chainsaw-test.yaml:3:"},
		{"no Test", "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n", "", "chainsaw-test.yaml:1:1: no chainsaw Test"},
		{"no ClusterPolicy", string(cel), "", "writes no kyverno.io ClusterPolicy or Policy inline: there is nothing to convert"},
		{"a misspelt option", text, `{"convertd": "x"}`, `options: json: unknown field "convertd"`},
		{"a release genplay does not simulate", text, `{"kyvernoVersion": "v1.17.0"}`, `options: kyvernoVersion: Kyverno v1.17.0 is not simulated`},
		{"a broken converted scenario", text, `{"file": "s.yaml", "converted": "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps: 3\n"}`,
			"the converted scenario: converted-test.yaml:6:3: steps must be a list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := callMigrate(t, c.text, c.options)
			assert.Contains(t, a.Error, c.want)
			assert.Empty(t, a.Result)
		})
	}
	t.Run("the core build's families cannot run it", func(t *testing.T) {
		bridge.Families = nil
		assert.Contains(t, callMigrate(t, text, "").Error, "no CEL engine")
	})
}

func eventActions(steps []migrate.SideStep) []string {
	var out []string
	for _, s := range steps {
		for _, e := range s.Events {
			out = append(out, e.Actor+" "+e.Action)
		}
	}
	return out
}
