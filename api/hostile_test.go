package api_test

import (
	"bytes"
	"encoding/json"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// post sends a scenario to the run endpoint and returns the status and body.
func post(t *testing.T, h http.Handler, contentType string, body []byte) (int, []byte) {
	t.Helper()
	req := httptest.NewRequest(http.MethodPost, "/api/v1/run", bytes.NewReader(body))
	req.Header.Set("Content-Type", contentType)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	out, err := io.ReadAll(rec.Result().Body)
	require.NoError(t, err)
	return rec.Code, out
}

// TestHostileInputIsAnsweredWithoutA500 sends the engine's hostile-input
// table through the handler, as YAML and as JSON: every answer is JSON,
// an input error is 413 or 422, and nothing is a 500.
func TestHostileInputIsAnsweredWithoutA500(t *testing.T) {
	h := api.Handler(api.Options{Scripts: shell.New, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, in := range hostile.Inputs() {
		t.Run(in.Name, func(t *testing.T) {
			asJSON, err := json.Marshal(map[string]string{"scenario": string(in.Data)})
			require.NoError(t, err)
			for _, form := range []struct {
				contentType string
				body        []byte
			}{{"text/yaml", in.Data}, {"application/json", asJSON}} {
				code, body := post(t, h, form.contentType, form.body)
				assert.NotEqual(t, http.StatusInternalServerError, code, "%s: %s", form.contentType, truncate(body))
				assert.True(t, json.Valid(body), "%s: the answer is JSON", form.contentType)
				switch {
				case form.contentType == "application/json" && !utf8.Valid(in.Data):
					// JSON strings are Unicode: encoding/json replaced the
					// invalid bytes with U+FFFD, so the scenario differs.
				case len(in.Data) == 0:
					assert.Equal(t, http.StatusBadRequest, code, "an empty body is a malformed request")
				case len(in.Data) > engine.MaxInputBytes:
					assert.Equal(t, http.StatusRequestEntityTooLarge, code, form.contentType)
				case in.Want != "" && !in.Anywhere:
					assert.Equal(t, http.StatusUnprocessableEntity, code, form.contentType)
					assert.Contains(t, string(body), jsonText(in.Want), form.contentType)
				default:
					assert.Equal(t, http.StatusOK, code, form.contentType)
				}
			}
		})
	}
}

// jsonText is s as it appears inside a JSON string.
func jsonText(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

func truncate(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "..."
	}
	return string(b)
}

// panickingFS panics when a scenario's script reads a file: a panic deep
// in the engine, which the engine recovers into an internal-error result.
type panickingFS struct{}

func (panickingFS) Open(string) (fs.File, error) { panic("injected: the file system exploded") }

const scriptScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: crash
spec:
  steps:
  - try:
    - script:
        content: kubectl apply -f cm.yaml
`

// TestAnInternalErrorAnswers500AndKeepsTheStackInTheLog injects panics
// below the handler: one the engine recovers, one that reaches the handler.
func TestAnInternalErrorAnswers500AndKeepsTheStackInTheLog(t *testing.T) {
	runs := []struct {
		name string
		run  func(file string, data []byte, opts engine.Options) *timeline.Result
	}{
		{name: "a panic the engine recovers", run: func(file string, data []byte, opts engine.Options) *timeline.Result {
			opts.Files = panickingFS{}
			return engine.Run(file, data, opts)
		}},
		{name: "a panic that reaches the handler", run: func(string, []byte, engine.Options) *timeline.Result {
			panic("injected: the engine exploded")
		}},
	}
	for _, r := range runs {
		t.Run(r.name, func(t *testing.T) {
			var log bytes.Buffer
			h := api.Handler(api.Options{Scripts: shell.New, Run: r.run, Logger: slog.New(slog.NewTextHandler(&log, nil))})
			code, body := post(t, h, "text/yaml", []byte(scriptScenario))
			assert.Equal(t, http.StatusInternalServerError, code)
			assert.JSONEq(t, `{"error": "internal error"}`, string(body))
			assert.NotContains(t, string(body), "goroutine", "no stack in the answer")
			assert.Contains(t, log.String(), "injected: ", "the log has the panic")

			code, _ = post(t, api.Handler(api.Options{Scripts: shell.New}), "text/yaml", []byte(scriptScenario))
			assert.Equal(t, http.StatusOK, code, "without the injection the same scenario runs (and fails: no files)")
		})
	}
}
