package scaffold

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
)

// families are both policy families, as the full build runs them.
var families = []engine.Family{controller.New}

func wrap(t *testing.T, text string) *Result {
	t.Helper()
	res, err := Wrap("policy.yaml", []byte(text), Options{})
	require.NoError(t, err)
	return res
}

// runScenario runs a wrapped scenario with both families.
func runScenario(text string) *timeline.Result {
	return engine.Run(ScenarioFile, []byte(text), engine.Options{Families: families})
}

// generated lists the objects Kyverno created during a run.
func generated(res *timeline.Result) []string {
	var out []string
	for _, s := range res.Steps {
		for _, e := range s.Events {
			if e.Actor == timeline.ActorKyverno && (e.Action == timeline.ActionCreated || e.Action == timeline.ActionRecreated) && e.Object != nil &&
				e.Object.Kind != "ValidatingWebhookConfiguration" {
				out = append(out, e.Object.String())
			}
		}
	}
	return out
}
