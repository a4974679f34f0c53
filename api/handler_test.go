package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// brokenScenario has a YAML syntax error on line 8.
const brokenScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: broken
spec:
  steps:
  - try:
    - apply: {resource: [
`

// do sends one request to h and returns the recorded answer.
func do(t *testing.T, h http.Handler, method, target, contentType string, body []byte) *http.Response {
	t.Helper()
	req := httptest.NewRequest(method, target, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Result()
}

func readAll(t *testing.T, res *http.Response) []byte {
	t.Helper()
	b, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	return b
}

// errorOf decodes an error answer.
func errorOf(t *testing.T, res *http.Response) (string, []timeline.Diagnostic) {
	t.Helper()
	var body struct {
		Error       string                `json:"error"`
		Diagnostics []timeline.Diagnostic `json:"diagnostics"`
	}
	require.NoError(t, json.Unmarshal(readAll(t, res), &body))
	return body.Error, body.Diagnostics
}

func marshal(t *testing.T, res *timeline.Result) []byte {
	t.Helper()
	b, err := timeline.Marshal(res)
	require.NoError(t, err)
	return b
}

func jsonBody(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return b
}

func quietLogger(buf io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(buf, nil))
}

func TestRunAnswersTheCLIBytes(t *testing.T) {
	list, err := api.Examples()
	require.NoError(t, err)
	require.NotEmpty(t, list)
	h := api.Handler(api.Options{})
	for _, ex := range list {
		data := []byte(ex.Scenario)
		t.Run(ex.Name+" as YAML text answers timeline.Marshal(engine.Run) byte for byte", func(t *testing.T) {
			want := marshal(t, engine.Run(api.DefaultFile, data, engine.Options{}))
			for _, ct := range []string{"", "text/yaml", "application/yaml; charset=utf-8", "text/plain"} {
				res := do(t, h, http.MethodPost, "/api/v1/run", ct, data)
				require.Equal(t, http.StatusOK, res.StatusCode, "content-type %q", ct)
				assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
				assert.Equal(t, string(want), string(readAll(t, res)), "content-type %q", ct)
			}
		})
		t.Run(ex.Name+" as JSON with an override answers the engine's bytes for that override", func(t *testing.T) {
			yes, no := true, false
			override := &engine.Override{Synchronize: &yes, OrphanDownstreamOnPolicyDelete: &no}
			want := marshal(t, engine.Run("docs/x.yaml", data, engine.Options{Override: override}))
			body := jsonBody(t, map[string]any{"scenario": ex.Scenario, "file": "docs/x.yaml", "override": override})
			res := do(t, h, http.MethodPost, "/api/v1/run", "application/json", body)
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, string(want), string(readAll(t, res)))
		})
	}
}

func TestRunAnswersTheFormatAsked(t *testing.T) {
	list, err := api.Examples()
	require.NoError(t, err)
	data := []byte(list[0].Scenario)
	res := engine.Run(api.DefaultFile, data, engine.Options{})
	v2 := marshal(t, res)
	v1, err := timeline.MarshalV1(timeline.V1(res))
	require.NoError(t, err)
	h := api.Handler(api.Options{})
	tests := []struct {
		name        string
		target      string
		contentType string
		body        []byte
		want        []byte
	}{
		{"no format: v2", "/api/v1/run", "text/yaml", data, v2},
		{"format=v2", "/api/v1/run?format=v2", "text/yaml", data, v2},
		{"format=v1 for readers of the old format", "/api/v1/run?format=v1", "text/yaml", data, v1},
		{`a JSON request's "format"`, "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": list[0].Scenario, "format": "v1"}), v1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, tt.target, tt.contentType, tt.body)
			require.Equal(t, http.StatusOK, res.StatusCode)
			assert.Equal(t, string(tt.want), string(readAll(t, res)))
		})
	}
	for _, target := range []string{"/api/v1/run?format=v3"} {
		res := do(t, h, http.MethodPost, target, "text/yaml", data)
		assert.Equal(t, http.StatusBadRequest, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, `unknown timeline format "v3"`)
	}
	res2 := do(t, h, http.MethodPost, "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": "x", "format": "json"}))
	assert.Equal(t, http.StatusBadRequest, res2.StatusCode)
}

func TestRunPassesFileAndOverrideToTheEngine(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name        string
		target      string
		contentType string
		body        []byte
		file        string
		override    *engine.Override
	}{
		{"a bare YAML body runs as scenario.yaml with the policies' settings", "/api/v1/run", "text/yaml", []byte("x: 1"), "scenario.yaml", nil},
		{"query parameters name the file and force the settings", "/api/v1/run?file=a.yaml&synchronize=true&orphanDownstreamOnPolicyDelete=false", "", []byte("x: 1"), "a.yaml", &engine.Override{Synchronize: &yes, OrphanDownstreamOnPolicyDelete: &no}},
		{"one query parameter forces one setting", "/api/v1/run?orphanDownstreamOnPolicyDelete=1", "", []byte("x: 1"), "scenario.yaml", &engine.Override{OrphanDownstreamOnPolicyDelete: &yes}},
		{"a JSON body carries the file and the override", "/api/v1/run", "application/json", []byte(`{"scenario": "x: 1", "file": "b.yaml", "override": {"synchronize": false}}`), "b.yaml", &engine.Override{Synchronize: &no}},
		{"JSON fields win over query parameters", "/api/v1/run?file=q.yaml&synchronize=true", "application/json", []byte(`{"scenario": "x: 1", "file": "j.yaml", "override": {"synchronize": false, "orphanDownstreamOnPolicyDelete": true}}`), "j.yaml", &engine.Override{Synchronize: &no, OrphanDownstreamOnPolicyDelete: &yes}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var gotFile string
			var gotData []byte
			var gotOpts engine.Options
			h := api.Handler(api.Options{Run: func(file string, data []byte, opts engine.Options) *timeline.Result {
				gotFile, gotData, gotOpts = file, data, opts
				return &timeline.Result{Format: timeline.FormatVersion, Steps: []timeline.Step{{}}, Passed: true}
			}})
			res := do(t, h, http.MethodPost, tt.target, tt.contentType, tt.body)
			require.Equal(t, http.StatusOK, res.StatusCode, string(readAll(t, res)))
			assert.Equal(t, tt.file, gotFile)
			assert.Equal(t, "x: 1", string(gotData))
			assert.Equal(t, tt.override, gotOpts.Override)
		})
	}
}

func TestRunReportsInputErrorsWithTheLine(t *testing.T) {
	h := api.Handler(api.Options{})
	tests := []struct {
		name        string
		target      string
		contentType string
		body        []byte
		want        string
	}{
		{"a YAML syntax error names scenario.yaml and its line", "/api/v1/run", "text/yaml", []byte(brokenScenario), "scenario.yaml:8:5"},
		{"the file query parameter names the file", "/api/v1/run?file=docs/broken.yaml", "", []byte(brokenScenario), "docs/broken.yaml:8:5"},
		{"a JSON request's file names the file", "/api/v1/run", "application/json", jsonBody(t, map[string]string{"scenario": brokenScenario, "file": "j.yaml"}), "j.yaml:8:5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, tt.target, tt.contentType, tt.body)
			require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
			assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			msg, diags := errorOf(t, res)
			assert.True(t, strings.HasPrefix(msg, tt.want+": "), "error %q starts with %q", msg, tt.want)
			require.NotEmpty(t, diags)
			assert.Equal(t, 8, diags[0].Line)
			assert.Equal(t, "error", diags[0].Severity)
		})
	}

	t.Run("a scenario whose checks fail still answers 200 with its timeline", func(t *testing.T) {
		h := api.Handler(api.Options{Run: func(string, []byte, engine.Options) *timeline.Result {
			return &timeline.Result{Format: timeline.FormatVersion, Steps: []timeline.Step{{Operation: "assert"}},
				Diagnostics: []timeline.Diagnostic{{File: "f", Line: 1, Severity: "error", Message: "late"}}}
		}})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		assert.Equal(t, http.StatusOK, res.StatusCode)
	})
}

// generate.orphaned is not a Kyverno field: the run shows the policy refused
// as a real API server refuses it, at the field's line, with the field the
// author meant (a failed run, answered 200 with its timeline, as the CLI's).
func TestRunRefusesGenerateOrphaned(t *testing.T) {
	h := api.Handler(api.Options{})
	body, err := os.ReadFile("../site/examples/default-deny-netpol.yaml")
	require.NoError(t, err)
	text := string(body)
	require.Contains(t, text, "synchronize: true\n")
	lines := strings.Split(text[:strings.Index(text, "synchronize: true\n")], "\n")
	indent := lines[len(lines)-1]
	text = strings.Replace(text, "synchronize: true\n", "synchronize: true\n"+indent+"orphaned: true\n", 1)
	res := do(t, h, http.MethodPost, "/api/v1/run", "text/yaml", []byte(text))
	require.Equal(t, http.StatusOK, res.StatusCode)
	var out timeline.Result
	require.NoError(t, json.NewDecoder(res.Body).Decode(&out))
	require.NotEmpty(t, out.Diagnostics)
	assert.Equal(t, `strict decoding error: unknown field "spec.rules[0].generate.orphaned"; did you mean "orphanDownstreamOnPolicyDelete"?`, out.Diagnostics[0].Message)
	assert.Equal(t, len(lines)+1, out.Diagnostics[0].Line, "at the orphaned line")
	assert.Equal(t, "error", out.Diagnostics[0].Severity)
}

func TestMalformedRequests(t *testing.T) {
	h := api.Handler(api.Options{})
	tests := []struct {
		name        string
		target      string
		contentType string
		body        []byte
		status      int
		want        string
	}{
		{"an empty body is refused", "/api/v1/run", "text/yaml", nil, 400, "body is empty"},
		{"JSON that does not parse is refused", "/api/v1/run", "application/json", []byte(`{"scenario": `), 400, "parse the JSON body"},
		{"an unknown JSON field is refused", "/api/v1/run", "application/json", []byte(`{"scenario": "x", "synchronise": true}`), 400, "unknown field"},
		{"an unknown override field is refused", "/api/v1/run", "application/json", []byte(`{"scenario": "x", "override": {"sync": true}}`), 400, "unknown field"},
		{"data after the JSON object is refused", "/api/v1/run", "application/json", []byte(`{"scenario": "x"} {}`), 400, "data after the object"},
		{"JSON without a scenario is refused", "/api/v1/run", "application/json", []byte(`{"file": "a.yaml"}`), 400, `needs "scenario"`},
		{"an override that is not a boolean is refused", "/api/v1/run", "application/json", []byte(`{"scenario": "x", "override": {"synchronize": "yes"}}`), 400, "parse the JSON body"},
		{"a query setting that is not a boolean is refused", "/api/v1/run?synchronize=maybe", "", []byte("x: 1"), 400, "want true or false"},
		{"an unknown query parameter is refused", "/api/v1/run?sync=true", "", []byte("x: 1"), 400, "unknown query parameter sync"},
		{"a repeated query parameter is refused", "/api/v1/run?file=a&file=b", "", []byte("x: 1"), 400, "given 2 times"},
		{"a file name with control characters is refused", "/api/v1/run?file=a%0Ab", "", []byte("x: 1"), 400, "printable characters"},
		{"an overlong file name is refused", "/api/v1/run?file=" + strings.Repeat("a", 257), "", []byte("x: 1"), 400, "printable characters"},
		{"a content type that does not parse is refused", "/api/v1/run", "text/yaml; =", []byte("x: 1"), 400, "content-type"},
		{"an image is an unsupported media type", "/api/v1/run", "image/png", []byte("x"), 415, "send the scenario as YAML text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, tt.target, tt.contentType, tt.body)
			require.Equal(t, tt.status, res.StatusCode)
			assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			msg, _ := errorOf(t, res)
			assert.Contains(t, msg, tt.want)
		})
	}
}

func TestBodyLimits(t *testing.T) {
	h := api.Handler(api.Options{MaxBodyBytes: 1000})
	tests := []struct {
		name        string
		contentType string
		body        []byte
	}{
		{"a YAML body over the limit answers 413", "text/yaml", bytes.Repeat([]byte("#"), 1001)},
		{"a JSON body over the limit answers 413", "application/json", jsonBody(t, map[string]string{"scenario": strings.Repeat("#", 1000)})},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, "/api/v1/run", tt.contentType, tt.body)
			require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
			msg, _ := errorOf(t, res)
			assert.Contains(t, msg, "larger than 1000 bytes")
		})
	}

	t.Run("a body without Content-Length is cut at the limit", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/run", io.MultiReader(strings.NewReader(strings.Repeat("#", 1500))))
		req.ContentLength = -1
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
	})

	t.Run("a JSON scenario over engine.MaxInputBytes answers 413 however large the body limit", func(t *testing.T) {
		h := api.Handler(api.Options{})
		body := jsonBody(t, map[string]string{"scenario": strings.Repeat("#", engine.MaxInputBytes+1)})
		res := do(t, h, http.MethodPost, "/api/v1/run", "application/json", body)
		require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, fmt.Sprintf("the limit is %d", engine.MaxInputBytes))
	})

	t.Run("a YAML body over engine.MaxInputBytes answers 413 with the default limit", func(t *testing.T) {
		h := api.Handler(api.Options{})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", bytes.Repeat([]byte("#"), engine.MaxInputBytes+1))
		require.Equal(t, http.StatusRequestEntityTooLarge, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, fmt.Sprintf("larger than %d bytes", engine.MaxInputBytes), "reading stops at the scenario limit")
	})

	t.Run("a Content-Length over the limit is refused before the body is read", func(t *testing.T) {
		body := &countingReader{r: strings.NewReader(strings.Repeat("#", 2000))}
		req := httptest.NewRequest(http.MethodPost, "/api/v1/run", body)
		req.ContentLength = 2000
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusRequestEntityTooLarge, rec.Code)
		assert.Zero(t, body.n, "bytes read")
	})

	t.Run("a body at the limit is run", func(t *testing.T) {
		ran := false
		h := api.Handler(api.Options{MaxBodyBytes: 1000, Run: func(string, []byte, engine.Options) *timeline.Result {
			ran = true
			return &timeline.Result{Steps: []timeline.Step{{}}}
		}})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", bytes.Repeat([]byte("#"), 1000))
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.True(t, ran)
	})
}

func TestRouting(t *testing.T) {
	h := api.Handler(api.Options{})
	tests := []struct {
		name   string
		method string
		target string
		status int
		allow  string
	}{
		{"GET on the run endpoint is not allowed", http.MethodGet, "/api/v1/run", 405, "POST, OPTIONS"},
		{"POST on the gallery is not allowed", http.MethodPost, "/api/v1/examples", 405, "GET, HEAD, OPTIONS"},
		{"DELETE on the health check is not allowed", http.MethodDelete, "/healthz", 405, "GET, HEAD, OPTIONS"},
		{"an unknown path is not found", http.MethodGet, "/api/v1/nope", 404, ""},
		{"a trailing slash is not found", http.MethodPost, "/api/v1/run/", 404, ""},
		{"the API root is not found", http.MethodGet, "/", 404, ""},
		{"HEAD on the health check answers", http.MethodHead, "/healthz", 200, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, tt.method, tt.target, "", nil)
			require.Equal(t, tt.status, res.StatusCode)
			assert.Equal(t, tt.allow, res.Header.Get("Allow"))
			assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
			if tt.status >= 400 {
				msg, _ := errorOf(t, res)
				assert.NotEmpty(t, msg)
			}
		})
	}

	t.Run("the health check says ok and names the timeline format", func(t *testing.T) {
		res := do(t, h, http.MethodGet, "/healthz", "", nil)
		require.Equal(t, http.StatusOK, res.StatusCode)
		assert.JSONEq(t, `{"status": "ok", "format": "genplay.timeline/v2"}`, string(readAll(t, res)))
	})
}

func TestCORS(t *testing.T) {
	h := api.Handler(api.Options{})
	t.Run("every answer allows any origin, errors included", func(t *testing.T) {
		for _, target := range []string{"/healthz", "/api/v1/examples", "/api/v1/nope"} {
			res := do(t, h, http.MethodGet, target, "", nil)
			assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"), target)
		}
		for _, body := range []string{brokenScenario, ""} {
			res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte(body))
			assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
		}
	})

	t.Run("a preflight for a JSON POST is allowed", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodOptions, "/api/v1/run", nil)
		req.Header.Set("Origin", "https://docs.example.com")
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusNoContent, rec.Code)
		assert.Equal(t, "*", rec.Header().Get("Access-Control-Allow-Origin"))
		assert.Equal(t, "POST, OPTIONS", rec.Header().Get("Access-Control-Allow-Methods"))
		assert.Equal(t, "Content-Type", rec.Header().Get("Access-Control-Allow-Headers"))
		assert.NotEmpty(t, rec.Header().Get("Access-Control-Max-Age"))
		assert.Empty(t, rec.Body.String())
	})

	t.Run("a preflight for an unknown path is not found", func(t *testing.T) {
		req := httptest.NewRequest(http.MethodOptions, "/api/v2/run", nil)
		req.Header.Set("Access-Control-Request-Method", "POST")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusNotFound, rec.Code)
		assert.Empty(t, rec.Header().Get("Access-Control-Allow-Methods"))
	})
}

func TestPanicsAreInternalErrors(t *testing.T) {
	t.Run("a panic in the engine answers 500 internal error, is logged, and the next request is served", func(t *testing.T) {
		var log bytes.Buffer
		calls := 0
		h := api.Handler(api.Options{Logger: quietLogger(&log), Run: func(file string, data []byte, opts engine.Options) *timeline.Result {
			calls++
			if calls == 1 {
				panic("boom in the engine")
			}
			return engine.Run(file, data, opts)
		}})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		require.Equal(t, http.StatusInternalServerError, res.StatusCode)
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
		msg, _ := errorOf(t, res)
		assert.Equal(t, "internal error", msg)
		assert.Contains(t, log.String(), "boom in the engine")
		assert.Contains(t, log.String(), "stack=")

		res = do(t, h, http.MethodPost, "/api/v1/run", "", []byte(brokenScenario))
		assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
	})

	t.Run("a panic in the handler itself answers 500 internal error", func(t *testing.T) {
		var log bytes.Buffer
		h := api.Handler(api.Options{Logger: quietLogger(&log), Examples: func() ([]api.Example, error) {
			panic("boom in the gallery")
		}})
		res := do(t, h, http.MethodGet, "/api/v1/examples", "", nil)
		require.Equal(t, http.StatusInternalServerError, res.StatusCode)
		assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
		msg, _ := errorOf(t, res)
		assert.Equal(t, "internal error", msg)
		assert.Contains(t, log.String(), "boom in the gallery")
		assert.NotContains(t, msg, "boom", "the panic is not shown to the client")
	})

	t.Run("an engine that returns no result is an internal error", func(t *testing.T) {
		h := api.Handler(api.Options{Logger: quietLogger(io.Discard), Run: func(string, []byte, engine.Options) *timeline.Result { return nil }})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		assert.Equal(t, http.StatusInternalServerError, res.StatusCode)
	})
}

func TestBoundedWork(t *testing.T) {
	t.Run("a request that waits too long for a slot answers 503 with Retry-After", func(t *testing.T) {
		release := make(chan struct{})
		started := make(chan struct{}, 1)
		h := api.Handler(api.Options{MaxConcurrent: 1, Timeout: 100 * time.Millisecond, Run: func(string, []byte, engine.Options) *timeline.Result {
			started <- struct{}{}
			<-release
			return &timeline.Result{Steps: []timeline.Step{{}}}
		}})
		first := make(chan int)
		go func() {
			first <- do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1")).StatusCode
		}()
		<-started
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
		assert.Equal(t, "5", res.Header.Get("Retry-After"))
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, "too many runs")
		assert.Equal(t, http.StatusServiceUnavailable, <-first, "the blocked run itself timed out")
		close(release)
	})

	t.Run("a run that outlives the timeout answers 503 and frees its slot when it ends", func(t *testing.T) {
		release := make(chan struct{})
		var mu sync.Mutex
		block := true
		h := api.Handler(api.Options{MaxConcurrent: 1, Timeout: 50 * time.Millisecond, Run: func(string, []byte, engine.Options) *timeline.Result {
			mu.Lock()
			b := block
			mu.Unlock()
			if b {
				<-release
			}
			return &timeline.Result{Steps: []timeline.Step{{}}}
		}})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, "did not finish within 50ms")
		mu.Lock()
		block = false
		mu.Unlock()
		close(release)
		assert.Eventually(t, func() bool {
			return do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1")).StatusCode == http.StatusOK
		}, 2*time.Second, 10*time.Millisecond)
	})

	t.Run("concurrent runs share nothing: each answers its own scenario's bytes", func(t *testing.T) {
		list, err := api.Examples()
		require.NoError(t, err)
		// Room in the queue for every request: this is about isolation, not
		// the queue's bound (the gallery has grown past what 4+32 holds).
		h := api.Handler(api.Options{MaxConcurrent: 4, MaxQueue: 4 * len(list)})
		want := make([][]byte, len(list))
		for i, ex := range list {
			want[i] = marshal(t, engine.Run(api.DefaultFile, []byte(ex.Scenario), engine.Options{}))
		}
		var wg sync.WaitGroup
		got := make([][]byte, 4*len(list))
		status := make([]int, len(got))
		for i := range got {
			wg.Go(func() {
				req := httptest.NewRequest(http.MethodPost, "/api/v1/run", strings.NewReader(list[i%len(list)].Scenario))
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				status[i], got[i] = rec.Code, rec.Body.Bytes()
			})
		}
		wg.Wait()
		for i := range got {
			assert.Equal(t, http.StatusOK, status[i])
			assert.Equal(t, string(want[i%len(list)]), string(got[i]), list[i%len(list)].Name)
		}
	})
}

func TestNoTimeout(t *testing.T) {
	t.Run("a negative timeout lets a run take its time", func(t *testing.T) {
		h := api.Handler(api.Options{Timeout: -1, Run: func(string, []byte, engine.Options) *timeline.Result {
			time.Sleep(20 * time.Millisecond)
			return &timeline.Result{Steps: []timeline.Step{{}}}
		}})
		res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
		assert.Equal(t, http.StatusOK, res.StatusCode)
	})

	t.Run("a client that goes away abandons the wait", func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		h := api.Handler(api.Options{Timeout: -1, Run: func(string, []byte, engine.Options) *timeline.Result {
			<-release
			return &timeline.Result{Steps: []timeline.Step{{}}}
		}})
		ctx, cancel := context.WithCancel(context.Background())
		req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/api/v1/run", strings.NewReader("x: 1"))
		rec := httptest.NewRecorder()
		time.AfterFunc(20*time.Millisecond, cancel)
		h.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
		assert.Contains(t, rec.Body.String(), "abandoned")
	})
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

func TestCurlDataBinaryIsAccepted(t *testing.T) {
	data, err := os.ReadFile("../engine/testdata/scenarios/netpol-sync.yaml")
	require.NoError(t, err)
	res := do(t, api.Handler(api.Options{}), http.MethodPost, "/api/v1/run", "application/x-www-form-urlencoded", data)
	require.Equal(t, http.StatusOK, res.StatusCode, "curl --data-binary @file sends the file raw under this content type")
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	want, err := timeline.Marshal(engine.Run(api.DefaultFile, data, engine.Options{}))
	require.NoError(t, err)
	assert.Equal(t, string(want), string(body))
}

func TestRunSimulatesTheKyvernoVersionAskedAndSaysWhich(t *testing.T) {
	list, err := api.Examples()
	require.NoError(t, err)
	ex := list[0]
	h := api.Handler(api.Options{})
	for _, tt := range []struct {
		name, target string
		body         []byte
		ct, want     string
	}{
		{"the default is the latest", "/api/v1/run", []byte(ex.Scenario), "text/yaml", engine.KyvernoVersion},
		{"a query parameter picks a release", "/api/v1/run?kyvernoVersion=v1.19.0", []byte(ex.Scenario), "text/yaml", "v1.19.0"},
		{"a JSON field picks a release, written as users write it", "/api/v1/run", jsonBody(t, map[string]any{"scenario": ex.Scenario, "kyvernoVersion": "1.18.2"}), "application/json", "v1.18.2"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := do(t, h, http.MethodPost, tt.target, tt.ct, tt.body)
			require.Equal(t, http.StatusOK, res.StatusCode)
			body := readAll(t, res)
			var got timeline.Result
			require.NoError(t, json.Unmarshal(body, &got))
			assert.Equal(t, tt.want, got.Kyverno, "the answer echoes the release")
			assert.Equal(t, string(marshal(t, engine.Run(api.DefaultFile, []byte(ex.Scenario), engine.Options{KyvernoVersion: tt.want}))), string(body))
		})
	}
	for _, target := range []string{"/api/v1/run?kyvernoVersion=v1.17.0"} {
		res := do(t, h, http.MethodPost, target, "text/yaml", []byte(ex.Scenario))
		require.Equal(t, http.StatusBadRequest, res.StatusCode)
		msg, _ := errorOf(t, res)
		assert.Contains(t, msg, "kyvernoVersion: Kyverno v1.17.0 is not simulated: genplay simulates v1.18.2, v1.19.0, v1.19.1")
	}
	res := do(t, h, http.MethodPost, "/api/v1/run", "application/json", jsonBody(t, map[string]any{"scenario": ex.Scenario, "kyvernoVersion": "2"}))
	require.Equal(t, http.StatusBadRequest, res.StatusCode)
	msg, _ := errorOf(t, res)
	assert.Contains(t, msg, "kyvernoVersion: Kyverno 2 is not simulated")
}
