//go:build unix

package main

import (
	"bytes"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/hostile"
)

func TestFilesThatAreNotRegularAreRefusedWithAClearError(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.yaml")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	zero := filepath.Join(dir, "zero.yaml")
	require.NoError(t, os.Symlink("/dev/zero", zero))
	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("#"), maxFileBytes+1), 0o644))
	for _, c := range []struct{ file, want string }{
		{fifo, "a named pipe (FIFO), not a regular file"},
		{zero, "a device, not a regular file"},
		{big, "the file is larger than 2097152 bytes"},
	} {
		t.Run("run "+filepath.Base(c.file), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, runCommand([]string{c.file}, nil, &stdout, &stderr))
			assert.Contains(t, stderr.String(), c.want)
		})
		t.Run("test "+filepath.Base(c.file), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, 2, testCommand([]string{c.file}, &stdout, &stderr))
			assert.Contains(t, stderr.String(), c.want)
		})
	}
	t.Run("test of a folder holding a FIFO", func(t *testing.T) {
		folder := t.TempDir()
		require.NoError(t, syscall.Mkfifo(filepath.Join(folder, "x.yaml"), 0o600))
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, testCommand([]string{folder}, &stdout, &stderr), "the walk stops with the error, it does not hang")
		assert.Contains(t, stderr.String(), "not a regular file")
	})
	t.Run("a script's kubectl apply -f of a device is an error, not a hang", func(t *testing.T) {
		_, err := boundedFS{os.DirFS("/")}.Open(strings.TrimPrefix(zero, "/"))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "a device, not a regular file")
	})
}

func TestRunningOutOfMemoryIsNotExitStatus2(t *testing.T) {
	// A limit below what the run needs: the watchdog cancels it, and the
	// run reports it with exit status 3, not the runtime's fatal 2.
	old := memoryLimit
	memoryLimit = 24 << 20
	defer func() { memoryLimit = old; debug.SetMemoryLimit(math.MaxInt64) }()
	var data []byte
	for _, in := range hostile.Runaway() {
		if strings.HasPrefix(in.Name, "sort_by") {
			data = in.Data
		}
	}
	file := filepath.Join(t.TempDir(), "oom.yaml")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	var stdout, stderr bytes.Buffer
	code := runCommand([]string{"-o", "json", file}, nil, &stdout, &stderr)
	assert.Equal(t, 3, code)
	assert.Contains(t, stderr.String(), "out of memory")
	assert.Contains(t, stderr.String(), "your input is unchanged in "+file)
}

func TestRunEscapesTerminalControlInUserText(t *testing.T) {
	scenario := "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: \"evil\\e[31m\\u202e\"\nspec:\n  steps:\n  - name: \"step\\a\\rFAKE\"\n    try:\n    - apply:\n        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: \"bad\\e]0;title\\a\"}}\n"
	file := filepath.Join(t.TempDir(), "evil.yaml")
	require.NoError(t, os.WriteFile(file, []byte(scenario), 0o644))
	var stdout, stderr bytes.Buffer
	runCommand([]string{"--no-color", file}, nil, &stdout, &stderr)
	out := stdout.String()
	for _, bad := range []string{"\x1b", "\a", "\r", "\u202e"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, out, `evil\x1b[31m\u202e`)
	assert.Contains(t, out, `step\x07\rFAKE`)
}

func TestPrintable(t *testing.T) {
	assert.Equal(t, "plain é ✓", printable("plain é ✓", false))
	assert.Equal(t, `a\x1bb\x07c\rd\ne\u202ef\u2066\x9b`, printable("a\x1bb\ac\rd\ne\u202ef\u2066\u009b", false))
	assert.Equal(t, "line 1\nline 2\\x1b", printable("line 1\nline 2\x1b", true))
}

func TestServeListsNoDirectories(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<title>genplay</title>"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "assets"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "assets", "a.js"), []byte("x"), 0o644))
	srv := httptest.NewServer(serveHandler(dir))
	defer srv.Close()
	get := func(p string) (int, string) {
		res, err := http.Get(srv.URL + p)
		require.NoError(t, err)
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, body := get("/assets/")
	assert.Equal(t, http.StatusNotFound, code)
	assert.NotContains(t, body, "a.js")
	code, _ = get("/assets/a.js")
	assert.Equal(t, http.StatusOK, code)
	code, body = get("/")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "genplay")
}

var _ = engine.MaxInputBytes
