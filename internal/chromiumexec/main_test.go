//go:build !js

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A small js/wasm program that prints its arguments and exits with 3.
const program = `package main

import (
	"fmt"
	"os"
)

func main() {
	fmt.Println("args:", os.Args[1:])
	fmt.Println("second line")
	os.Exit(3)
}
`

// TestRunsAWasmProgramInChromium builds a js/wasm program and this command,
// runs the program in headless Chromium through it, and checks what the
// program printed and its exit code.
func TestRunsAWasmProgramInChromium(t *testing.T) {
	browser := os.Getenv("CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	if _, err := exec.LookPath(browser); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("chromium is not installed (CI=true): %v", err)
		}
		t.Skipf("chromium is not installed at %s: %v", browser, err)
	}
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "main.go"), []byte(program), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/hello\n\ngo 1.26\n"), 0o644))
	wasm := filepath.Join(dir, "hello.wasm")
	build := exec.Command("go", "build", "-o", wasm, ".")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "GOFLAGS=")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)

	runner := filepath.Join(dir, "chromiumexec")
	out, err = exec.Command("go", "build", "-o", runner, ".").CombinedOutput()
	require.NoError(t, err, "%s", out)

	cmd := exec.Command(runner, wasm, "-x", "two words")
	stdout, err := cmd.Output()
	var exit *exec.ExitError
	require.ErrorAs(t, err, &exit, "the program's exit code comes back")
	assert.Equal(t, 3, exit.ExitCode())
	assert.Equal(t, "args: [-x two words]\nsecond line\n", string(stdout))
	assert.NotContains(t, strings.ToLower(string(exit.Stderr)), "chromiumexec:", "no error of the runner's own")
}
