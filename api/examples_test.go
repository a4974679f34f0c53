package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/site/examples"
)

func TestExamples(t *testing.T) {
	list, err := api.Examples()
	require.NoError(t, err)
	all, err := examples.All()
	require.NoError(t, err)

	t.Run("the gallery lists every embedded example in gallery order with name, title and description", func(t *testing.T) {
		require.Len(t, list, len(all))
		for i, ex := range list {
			assert.Equal(t, all[i].File, ex.Name+".yaml")
			assert.Equal(t, all[i].Title, ex.Title)
			assert.NotEmpty(t, ex.Description, ex.Name)
			assert.Equal(t, string(all[i].Text), ex.Scenario)
		}
	})

	// As cmd/genplay serve registers it: with the CEL family.
	h := api.Handler(api.Options{Families: []engine.Family{controller.New}})
	t.Run("GET /api/v1/examples answers the gallery as JSON", func(t *testing.T) {
		res := do(t, h, http.MethodGet, "/api/v1/examples", "", nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
		var got []api.Example
		require.NoError(t, json.Unmarshal(readAll(t, res), &got))
		assert.Equal(t, list, got)
	})

	for _, ex := range list {
		t.Run(ex.Name+" passes through the API with no step skipped", func(t *testing.T) {
			res := do(t, h, http.MethodPost, "/api/v1/run", "text/yaml", []byte(ex.Scenario))
			require.Equal(t, http.StatusOK, res.StatusCode)
			var result timeline.Result
			require.NoError(t, json.Unmarshal(readAll(t, res), &result))
			assert.True(t, result.Passed, "passed")
			assert.Empty(t, result.Skipped)
			assert.NotEmpty(t, result.Steps)
			for _, d := range result.Diagnostics {
				assert.NotEqual(t, "error", d.Severity, "%s:%d: %s", d.File, d.Line, d.Message)
			}
		})
	}
}

// TestCELWithoutTheFamily: a handler without the CEL family (the Workers
// build's) answers a CEL example with a skip that says so, not a silent pass.
func TestCELWithoutTheFamily(t *testing.T) {
	all, err := examples.All()
	require.NoError(t, err)
	h := api.Handler(api.Options{})
	seen := 0
	for _, e := range all {
		if !strings.Contains(string(e.Text), "policies.kyverno.io/") {
			continue
		}
		seen++
		res := do(t, h, http.MethodPost, "/api/v1/run", "text/yaml", e.Text)
		require.Equal(t, http.StatusOK, res.StatusCode)
		var result timeline.Result
		require.NoError(t, json.Unmarshal(readAll(t, res), &result))
		assert.Contains(t, result.Skipped, "no CEL engine", e.File)
	}
	assert.GreaterOrEqual(t, seen, 6, "the gallery's CEL examples")
}
