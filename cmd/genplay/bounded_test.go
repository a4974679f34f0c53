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
	"runtime"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

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
	srv := httptest.NewServer(serveHandler(dir, engine.Run))
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

// testWithin runs genplay test with args and fails the test, instead of
// hanging, when it takes more than a minute (a FIFO would block forever).
func testWithin(t *testing.T, args []string) (int, string) {
	t.Helper()
	type result struct {
		code   int
		stderr string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := testCommand(args, &stdout, &stderr)
		done <- result{code, stderr.String() + stdout.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stderr
	case <-time.After(time.Minute):
		t.Fatal("genplay test hangs")
		return 0, ""
	}
}

func TestTheFilesAroundATestAreChecked(t *testing.T) {
	scenarioText := "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps:\n  - try:\n    - apply:\n        resource: {apiVersion: v1, kind: Namespace, metadata: {name: a}}\n"
	folder := func(t *testing.T) string {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "chainsaw-test.yaml"), []byte(scenarioText), 0o644))
		return dir
	}
	t.Run("a .chainsaw.yaml that is a FIFO", func(t *testing.T) {
		dir := folder(t)
		require.NoError(t, syscall.Mkfifo(filepath.Join(dir, ".chainsaw.yaml"), 0o600))
		code, out := testWithin(t, []string{dir})
		assert.Equal(t, 2, code)
		assert.Contains(t, out, "a named pipe (FIFO), not a regular file")
	})
	t.Run("a .chainsaw.yaml that links to /dev/zero", func(t *testing.T) {
		dir := folder(t)
		require.NoError(t, os.Symlink("/dev/zero", filepath.Join(dir, ".chainsaw.yaml")))
		code, out := testWithin(t, []string{dir})
		assert.Equal(t, 2, code)
		assert.Contains(t, out, "a device, not a regular file")
	})
	t.Run("a .chainsaw.yaml in the working directory that is a FIFO", func(t *testing.T) {
		dir, cwd := folder(t), t.TempDir()
		require.NoError(t, syscall.Mkfifo(filepath.Join(cwd, ".chainsaw.yaml"), 0o600))
		t.Chdir(cwd)
		code, out := testWithin(t, []string{dir})
		assert.Equal(t, 2, code)
		assert.Contains(t, out, "a named pipe (FIFO), not a regular file")
	})
	t.Run("--config /dev/zero", func(t *testing.T) {
		code, out := testWithin(t, []string{"--config", "/dev/zero", folder(t)})
		assert.Equal(t, 2, code)
		assert.Contains(t, out, "--config: /dev/zero: a device, not a regular file")
	})
	t.Run("--config of a file over the size limit", func(t *testing.T) {
		big := filepath.Join(t.TempDir(), "big.yaml")
		require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("#"), maxFileBytes+1), 0o644))
		code, out := testWithin(t, []string{"--config", big, folder(t)})
		assert.Equal(t, 2, code)
		assert.Contains(t, out, "the file is larger than 2097152 bytes")
	})
	t.Run("a kyverno-test.yaml that names one large file a thousand times", func(t *testing.T) {
		dir := t.TempDir()
		big := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: default\ndata:\n  v: " + strings.Repeat("x", 1_900_000) + "\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "big.yaml"), []byte(big), 0o644))
		test := "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: many\npolicies: [big.yaml]\nresources: [" +
			strings.TrimSuffix(strings.Repeat("big.yaml, ", 1000), ", ") + "]\nresults: []\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "kyverno-test.yaml"), []byte(test), 0o644))
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		code, out := testWithin(t, []string{dir})
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "the files this test names add up to more than 8388608 bytes")
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<30))
	})
}
