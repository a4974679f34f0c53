package bridge

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/internal/scalegen"
)

// reassemble does what the loader does with an answer of RunSince: the
// steps and initial objects it left out come from base's whole answer.
func reassemble(t *testing.T, answer []byte, base map[string]any) map[string]any {
	t.Helper()
	got := decode(t, answer)
	reuse, ok := got["reuse"].(map[string]any)
	if !ok {
		return got
	}
	require.NotNil(t, base, "a reuse names a base the loader holds")
	n := int(reuse["steps"].(float64))
	got["steps"] = append(append([]any{}, base["steps"].([]any)[:n]...), got["steps"].([]any)...)
	if reuse["initial"] == true {
		got["initial"] = base["initial"]
	}
	delete(got, "reuse")
	return got
}

func TestRunSinceSendsOnlyWhatChanged(t *testing.T) {
	before, after := string(scalegen.Scenario(3, 2)), string(scalegen.Scenario(3, 3))
	whole := func(text string) map[string]any {
		out, err := json.Marshal(engine.Run(DefaultFile, []byte(text), engine.Options{}))
		require.NoError(t, err)
		return decode(t, out)
	}

	first := RunSince(before, "", "t1", "")
	want, err := json.Marshal(engine.Run(DefaultFile, []byte(before), engine.Options{}))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(first), "without a base: Run's bytes")
	assert.Equal(t, string(want), string(RunSince(before, "", "t0", "no-such-answer")), "a base the bridge does not remember: the whole answer")

	second := RunSince(after, "", "t2", "t1")
	part := decode(t, second)
	require.Contains(t, part, "reuse")
	reuse := part["reuse"].(map[string]any)
	oldSteps := len(whole(before)["steps"].([]any))
	assert.Equal(t, map[string]any{"base": "t1", "steps": float64(oldSteps), "initial": true}, reuse, "every step of the shorter run is the same")
	assert.Len(t, part["steps"].([]any), 2, "the appended delete and its assert")
	assert.Empty(t, part["initial"])
	assert.Less(t, len(second), len(first)/4)
	assert.Equal(t, whole(after), reassemble(t, second, decode(t, first)), "put back together: the whole answer")

	// An edit in the middle: the steps after it are sent again.
	edited := RunSince(string(scalegen.Scenario(4, 3)), "", "t3", "t2")
	assert.Equal(t, whole(string(scalegen.Scenario(4, 3))), reassemble(t, edited, whole(after)))
	assert.Less(t, int(decode(t, edited)["reuse"].(map[string]any)["steps"].(float64)), oldSteps)

	// The bridge remembers the last few answers only.
	for i := range keepAnswers {
		RunSince(before, "", fmt.Sprint("x", i), "")
	}
	assert.NotContains(t, decode(t, RunSince(after, "", "t9", "t1")), "reuse", "t1 is forgotten")
}
