package api_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
)

// comparison is what `genplay run --compare-versions -o json` prints for a
// scenario (cmd/genplay's TestServeHandler compares the CLI's own bytes).
func comparison(t *testing.T, file string, data []byte, opts engine.Options) string {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	c, stop, _ := engine.CompareVersions(file, data, opts)
	require.Nil(t, stop, "the comparison ran to the end")
	require.NoError(t, enc.Encode(c))
	return buf.String()
}

// countingRun is engine.Run that records the releases it ran.
type countingRun struct {
	mu       sync.Mutex
	releases []string
	limits   engine.Limits
}

func (c *countingRun) run(file string, data []byte, opts engine.Options) *timeline.Result {
	c.mu.Lock()
	c.releases = append(c.releases, opts.KyvernoVersion)
	c.mu.Unlock()
	opts.Limits = c.limits
	return engine.Run(file, data, opts)
}

func (c *countingRun) ran() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.releases
	c.releases = nil
	return out
}

func TestCompareVersionsAnswersTheComparisonOfEveryRelease(t *testing.T) {
	list, err := api.Examples()
	require.NoError(t, err)
	celFamilies := []engine.Family{controller.New}
	runs := &countingRun{}
	h := api.Handler(api.Options{Families: celFamilies, Run: runs.run})
	for _, ex := range list {
		data := []byte(ex.Scenario)
		t.Run(ex.Name, func(t *testing.T) {
			want := comparison(t, "docs/x.yaml", data, engine.Options{Families: celFamilies})
			require.Contains(t, want, `"format": "genplay.versions/v1"`)
			for _, req := range []struct {
				name, target, contentType string
				body                      []byte
			}{
				{"the query parameter", "/api/v1/run?compareVersions=true&file=docs/x.yaml", "text/yaml", data},
				{"the JSON field", "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": ex.Scenario, "file": "docs/x.yaml", "compareVersions": true})},
				{"the JSON field with format v2, the default", "/api/v1/run?format=v2", "application/json", jsonBody(t, map[string]any{"scenario": ex.Scenario, "file": "docs/x.yaml", "compareVersions": true})},
			} {
				res := do(t, h, http.MethodPost, req.target, req.contentType, req.body)
				require.Equal(t, http.StatusOK, res.StatusCode, req.name)
				assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
				assert.Equal(t, want, string(readAll(t, res)), "%s: the bytes of engine.CompareVersions", req.name)
				assert.Equal(t, []string{"v1.19.1", "v1.19.0", "v1.18.2"}, runs.ran(), "%s: one run per release, the latest first", req.name)
			}
		})
	}

	t.Run("the comparison marks the step a release change explains", func(t *testing.T) {
		var c timeline.VersionComparison
		data := []byte(editedCELPolicy(t))
		res := do(t, h, http.MethodPost, "/api/v1/run?compareVersions=1", "text/yaml", data)
		require.Equal(t, http.StatusOK, res.StatusCode)
		require.NoError(t, json.Unmarshal(readAll(t, res), &c))
		assert.Equal(t, engine.KyvernoVersions(), c.Versions)
		var explained []string
		for _, st := range c.Steps {
			if st.Differs {
				explained = append(explained, st.Explained...)
			}
		}
		assert.Contains(t, explained, "kyverno#16920", "the policy edit's step: %+v", c.Steps)
		runs.ran()
	})

	t.Run("compareVersions=false is a run of the latest release", func(t *testing.T) {
		data := []byte(list[0].Scenario)
		res := do(t, h, http.MethodPost, "/api/v1/run?compareVersions=false", "text/yaml", data)
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, string(marshal(t, engine.Run(api.DefaultFile, data, engine.Options{Families: celFamilies}))), string(readAll(t, res)))
		assert.Equal(t, []string{""}, runs.ran())
	})
}

// editedCELPolicy is the CEL default-deny example with one more step
// that edits the GeneratingPolicy: v1.19.0 deletes and recreates the
// synchronized downstream (kyverno#17594), v1.19.1 updates it in place
// (kyverno#16920).
func editedCELPolicy(t *testing.T) string {
	t.Helper()
	list, err := api.Examples()
	require.NoError(t, err)
	for _, ex := range list {
		if ex.Name != "default-deny-netpol-cel" {
			continue
		}
		start := strings.Index(ex.Scenario, "  - name: create the policy\n")
		end := strings.Index(ex.Scenario, "  - name: create a namespace\n")
		require.True(t, start > 0 && end > start, "the example's steps")
		step := strings.Replace(ex.Scenario[start:end], "create the policy", "edit the policy", 1)
		edited := strings.Replace(step, `"policyTypes": ["Ingress", "Egress"]`, `"policyTypes": ["Ingress"]`, 1)
		require.NotEqual(t, step, edited, "the example's NetworkPolicy names its policyTypes")
		return ex.Scenario + edited
	}
	t.Fatal("no default-deny-netpol-cel example")
	return ""
}

func TestCompareVersionsRefusesWhatContradictsIt(t *testing.T) {
	runs := &countingRun{}
	h := api.Handler(api.Options{Run: runs.run})
	scenario := "x: 1"
	for _, tt := range []struct {
		name, target, contentType string
		body                      []byte
		want                      string
	}{
		{"with kyvernoVersion, as query parameters", "/api/v1/run?compareVersions=true&kyvernoVersion=v1.19.0", "text/yaml", []byte(scenario),
			"compareVersions runs the scenario under every release genplay simulates (v1.18.2, v1.19.0, v1.19.1); kyvernoVersion v1.19.0 picks one: give one or the other"},
		{"with kyvernoVersion, as JSON fields", "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": scenario, "compareVersions": true, "kyvernoVersion": "1.18.2"}),
			"kyvernoVersion v1.18.2 picks one"},
		{"with kyvernoVersion, one a query parameter and one a JSON field", "/api/v1/run?kyvernoVersion=v1.19.1", "application/json", jsonBody(t, map[string]any{"scenario": scenario, "compareVersions": true}),
			"give one or the other"},
		{"with format=v1", "/api/v1/run?compareVersions=true&format=v1", "text/yaml", []byte(scenario),
			"compareVersions answers a comparison (genplay.versions/v1) whose steps hold the events of the current timeline: format v1 (genplay.timeline/v1, the old timeline) does not apply to it; leave format out"},
		{`with "format": "v1"`, "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": scenario, "compareVersions": true, "format": "v1"}),
			"format v1 (genplay.timeline/v1, the old timeline) does not apply"},
		{"not a boolean", "/api/v1/run?compareVersions=all", "text/yaml", []byte(scenario), `query parameter compareVersions="all": want true or false`},
		{"not a JSON boolean", "/api/v1/run", "application/json", []byte(`{"scenario": "x: 1", "compareVersions": "yes"}`), "parse the JSON body"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, tt.target, tt.contentType, tt.body)
			require.Equal(t, http.StatusBadRequest, res.StatusCode)
			msg, _ := errorOf(t, res)
			assert.Contains(t, msg, tt.want)
			assert.Empty(t, runs.ran(), "nothing ran")
		})
	}
	t.Run("the unknown query parameter's message lists compareVersions", func(t *testing.T) {
		res := do(t, h, http.MethodPost, "/api/v1/run?compare=true", "text/yaml", []byte(scenario))
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, "compareVersions")
	})
}

func TestCompareVersionsOfInputThatCannotRunCostsOneRun(t *testing.T) {
	runs := &countingRun{}
	h := api.Handler(api.Options{Run: runs.run})
	plain := do(t, h, http.MethodPost, "/api/v1/run", "text/yaml", []byte(brokenScenario))
	require.Equal(t, http.StatusUnprocessableEntity, plain.StatusCode)
	want := string(readAll(t, plain))
	runs.ran()
	res := do(t, h, http.MethodPost, "/api/v1/run?compareVersions=true", "text/yaml", []byte(brokenScenario))
	require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
	assert.Equal(t, want, string(readAll(t, res)), "the answer of a run without compareVersions")
	assert.Equal(t, []string{"v1.19.1"}, runs.ran(), "the latest release's run only")
}
