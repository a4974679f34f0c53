package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
)

func TestServeHandler(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<!doctype html><title>genplay</title>\n"), 0o644))
	srv := httptest.NewServer(serveHandler(dir, engine.Run))
	t.Cleanup(srv.Close)

	post := func(t *testing.T, file string, body []byte) (int, []byte) {
		t.Helper()
		res, err := http.Post(srv.URL+"/api/v1/run?file="+url.QueryEscape(file), "text/yaml", bytes.NewReader(body))
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, b
	}

	files, err := filepath.Glob("../../site/examples/*.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run("POST /api/v1/run answers "+filepath.Base(file)+" with the bytes of genplay run -o json", func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, 0, runCommand([]string{"-o", "json", file}, nil, &stdout, &stderr), stderr.String())
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			status, body := post(t, file, data)
			require.Equal(t, http.StatusOK, status)
			assert.Equal(t, stdout.String(), string(body))
		})
	}

	for _, file := range files {
		t.Run("POST /api/v1/run?compareVersions=true answers "+filepath.Base(file)+" with the bytes of genplay run --compare-versions -o json", func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := runCommand([]string{"--compare-versions", "-o", "json", file}, nil, &stdout, &stderr)
			require.Contains(t, []int{0, 1}, code, stderr.String())
			data, err := os.ReadFile(file)
			require.NoError(t, err)
			res, err := http.Post(srv.URL+"/api/v1/run?compareVersions=true&file="+url.QueryEscape(file), "text/yaml", bytes.NewReader(data))
			require.NoError(t, err)
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			require.NoError(t, err)
			require.Equal(t, http.StatusOK, res.StatusCode, string(body))
			assert.Contains(t, stdout.String(), `"format": "genplay.versions/v1"`)
			assert.Equal(t, stdout.String(), string(body))
		})
	}

	t.Run("a broken scenario answers 422 naming its line", func(t *testing.T) {
		status, body := post(t, "broken.yaml", []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec:\n  steps: [\n"))
		require.Equal(t, http.StatusUnprocessableEntity, status)
		var e struct {
			Error string `json:"error"`
		}
		require.NoError(t, json.Unmarshal(body, &e))
		assert.True(t, strings.HasPrefix(e.Error, "broken.yaml:"), e.Error)
	})

	t.Run("the site is served at / with its headers and the API's health check at /healthz", func(t *testing.T) {
		res, err := http.Get(srv.URL + "/")
		require.NoError(t, err)
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Contains(t, string(b), "<title>genplay</title>")
		assert.Contains(t, res.Header.Get("Content-Security-Policy"), "'wasm-unsafe-eval'")

		res, err = http.Get(srv.URL + "/healthz")
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusOK, res.StatusCode)
		assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
		assert.Equal(t, "*", res.Header.Get("Access-Control-Allow-Origin"))
	})

	t.Run("an unknown API path is the API's JSON 404, not the site's", func(t *testing.T) {
		res, err := http.Get(srv.URL + "/api/v1/nope")
		require.NoError(t, err)
		res.Body.Close()
		assert.Equal(t, http.StatusNotFound, res.StatusCode)
		assert.Equal(t, "application/json", res.Header.Get("Content-Type"))
	})
}
