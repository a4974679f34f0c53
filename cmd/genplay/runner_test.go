//go:build unix

package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// testIsolated runs scenarios in processes of this test binary, which
// TestMain turns into genplay when GENPLAY_TEST_AS_CLI is set.
func testIsolated(t *testing.T) isolated {
	exe, err := os.Executable()
	require.NoError(t, err)
	return isolated{argv: []string{exe, childCommand}, env: append(os.Environ(), "GENPLAY_TEST_AS_CLI=1")}
}

func TestARunInItsOwnProcessAnswersTheSameBytes(t *testing.T) {
	iso := testIsolated(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "site", "examples", "*.yaml"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		want, err := timeline.Marshal(engine.Run("scenario.yaml", data, engine.Options{Families: families, Scripts: scripts}))
		require.NoError(t, err)
		got, err := timeline.Marshal(iso.run("scenario.yaml", data, engine.Options{}))
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), f)
	}
	override := true
	data, err := os.ReadFile(filepath.Join("..", "..", "site", "examples", "default-deny-netpol.yaml"))
	require.NoError(t, err)
	want, _ := timeline.Marshal(engine.Run("x.yaml", data, engine.Options{Override: &engine.Override{Synchronize: &override}}))
	got, _ := timeline.Marshal(iso.run("x.yaml", data, engine.Options{Override: &engine.Override{Synchronize: &override}}))
	assert.Equal(t, string(want), string(got), "the override reaches the run")
	for _, v := range engine.KyvernoVersions() {
		want, _ = timeline.Marshal(engine.Run("x.yaml", data, engine.Options{KyvernoVersion: v}))
		got, _ = timeline.Marshal(iso.run("x.yaml", data, engine.Options{KyvernoVersion: v}))
		assert.Equal(t, string(want), string(got), "the release reaches the run")
		assert.Contains(t, string(got), `"kyverno": "`+v+`"`)
	}
}

// TestARunWhoseProcessDiesTakesOnlyItsProcessDown stands in for what no
// input should reach: a run's process killed by the runtime's fatal
// out-of-memory error or a stack overflow, or dying for another reason.
// The server answers it (422 with what was exceeded, or 500) and goes on.
func TestARunWhoseProcessDiesTakesOnlyItsProcessDown(t *testing.T) {
	for _, c := range []struct {
		name, script string
		code         int
		want         string
	}{
		{"out of memory", "echo 'fatal error: out of memory' >&2; exit 2", http.StatusUnprocessableEntity, "limit exceeded: the run needed more than the 1024 MiB of memory genplay gives one run"},
		{"a stack overflow", "echo 'runtime: goroutine stack exceeds 1000000000-byte limit' >&2; exit 2", http.StatusUnprocessableEntity, "limit exceeded: the run needed a deeper stack"},
		{"killed", "kill -9 $$", http.StatusInternalServerError, "internal error"},
		{"garbage on stdout", "echo not json", http.StatusInternalServerError, "internal error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			iso := isolated{argv: []string{"/bin/sh", "-c", c.script}}
			h := api.Handler(api.Options{Run: iso.run, Logger: discardLogger()})
			res := httptest.NewRecorder()
			h.ServeHTTP(res, httptest.NewRequest(http.MethodPost, "/api/v1/run", strings.NewReader("x: 1")))
			assert.Equal(t, c.code, res.Code)
			assert.Contains(t, res.Body.String(), c.want)
			// The server still answers.
			ok := httptest.NewRecorder()
			h.ServeHTTP(ok, httptest.NewRequest(http.MethodGet, "/healthz", nil))
			assert.Equal(t, http.StatusOK, ok.Code)
		})
	}
}

func TestARunWhoseClientGoesAwayHasItsProcessKilled(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	// A run that charges no work at all: only killing it stops it.
	iso := isolated{argv: []string{"/bin/sh", "-c", "echo $$ > " + pidFile + "; exec sleep 60"}}
	h := api.Handler(api.Options{Run: iso.run, Timeout: -1, MaxConcurrent: 1})
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL+"/api/v1/run", strings.NewReader("x: 1"))
	_, err := http.DefaultClient.Do(req)
	require.Error(t, err, "the client gave up")
	data, err := os.ReadFile(pidFile)
	require.NoError(t, err, "the run's process started")
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	require.NoError(t, err)
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		require.True(t, time.Now().Before(deadline), "the run's process %d lives on after its client went away", pid)
		time.Sleep(20 * time.Millisecond)
	}
}

func discardLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }
