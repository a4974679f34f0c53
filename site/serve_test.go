//go:build !js

package site

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHandlerHeaders pins the headers genplay serve sends by path, the
// ones netlify.toml sets: a documentation page on another origin reads the
// wasm from /assets/ (fetch needs Access-Control-Allow-Origin) and
// includes /embed.js.
func TestHandlerHeaders(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"index.html", "embed.js", "wasm_exec.js", "assets/genplay-0123.wasm", "assets/embed-AB.js", "docs/synchronize.html"} {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644))
	}
	srv := httptest.NewServer(Handler(dir))
	t.Cleanup(srv.Close)
	for _, tt := range []struct {
		path, cors, cache string
	}{
		{"/assets/genplay-0123.wasm", "*", "public, max-age=31536000, immutable"},
		{"/assets/embed-AB.js", "*", "public, max-age=31536000, immutable"},
		{"/embed.js", "*", "no-cache"},
		{"/", "", "no-cache"},
		{"/index.html", "", "no-cache"},
		{"/wasm_exec.js", "", "no-cache"},
		{"/docs/synchronize.html", "", ""},
	} {
		t.Run(tt.path, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, srv.URL+tt.path, nil)
			require.NoError(t, err)
			req.Header.Set("Origin", "http://docs.example")
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			require.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tt.cors, resp.Header.Get("Access-Control-Allow-Origin"), "Access-Control-Allow-Origin")
			assert.Equal(t, tt.cache, resp.Header.Get("Cache-Control"), "Cache-Control")
			assert.Equal(t, CSP, resp.Header.Get("Content-Security-Policy"))
		})
	}
}
