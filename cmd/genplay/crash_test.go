package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// panickingFS panics when a scenario's script reads a file: a panic deep
// below the engine's facade, reached through its public Options.
type panickingFS struct{}

func (panickingFS) Open(string) (fs.File, error) { panic("injected: the file system exploded") }

const crashScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: crash
spec:
  steps:
  - try:
    - apply:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: before-the-crash, namespace: default}}
    - script:
        content: kubectl apply -f cm.yaml
`

// TestAnInternalErrorExitsThreeAndKeepsTheInput injects panics below the
// CLI and checks it reports an internal error with exit code 3 and says
// where the user's input is.
func TestAnInternalErrorExitsThreeAndKeepsTheInput(t *testing.T) {
	injections := []struct {
		name   string
		engine func(file string, data []byte, opts engine.Options) *timeline.Result
		// recovered: the engine recovered the panic itself and answered a
		// result (printed) rather than the panic reaching the CLI.
		recovered bool
	}{
		{name: "a panic that reaches the CLI", engine: func(string, []byte, engine.Options) *timeline.Result {
			panic("injected: the engine exploded")
		}},
		{name: "a panic the engine recovers deep in a script", recovered: true,
			engine: func(file string, data []byte, opts engine.Options) *timeline.Result {
				opts.Files = panickingFS{}
				return engine.Run(file, data, opts)
			}},
	}
	for _, inj := range injections {
		for _, output := range []string{"text", "json"} {
			t.Run(inj.name+", from a file, with -o "+output, func(t *testing.T) {
				runEngine = inj.engine
				t.Cleanup(func() { runEngine = engine.Run })
				t.Chdir(t.TempDir()) // a relative path, as scripts resolve files against it
				file := "crash.yaml"
				require.NoError(t, os.WriteFile(file, []byte(crashScenario), 0o600))
				var stdout, stderr bytes.Buffer
				code := run([]string{"run", "-o", output, file}, strings.NewReader(""), &stdout, &stderr)
				assert.Equal(t, 3, code)
				assert.Contains(t, stderr.String(), "internal error")
				assert.Contains(t, stderr.String(), "your input is unchanged in "+file)
				if inj.recovered {
					assert.Contains(t, stdout.String()+stderr.String(), "injected: the file system exploded")
				}
				got, err := os.ReadFile(file)
				require.NoError(t, err)
				assert.Equal(t, crashScenario, string(got))
			})
		}
		t.Run(inj.name+", from standard input", func(t *testing.T) {
			runEngine = inj.engine
			t.Cleanup(func() { runEngine = engine.Run })
			t.Setenv("TMPDIR", t.TempDir())
			var stdout, stderr bytes.Buffer
			code := run([]string{"run", "-"}, strings.NewReader(crashScenario), &stdout, &stderr)
			assert.Equal(t, 3, code)
			m := regexp.MustCompile(`your input was saved to (\S+)`).FindStringSubmatch(stderr.String())
			require.Len(t, m, 2, "stderr names the saved input: %s", stderr.String())
			saved, err := os.ReadFile(m[1])
			require.NoError(t, err)
			assert.Equal(t, crashScenario, string(saved), "nothing the user typed is lost")
		})
	}
	t.Run("without an injected panic the same scenario is an ordinary failure", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "crash.yaml")
		require.NoError(t, os.WriteFile(file, []byte(crashScenario), 0o600))
		var stdout, stderr bytes.Buffer
		code := run([]string{"run", file}, strings.NewReader(""), &stdout, &stderr)
		assert.Equal(t, 1, code, "no files for scripts: the step fails: %s", stdout.String())
		assert.NotContains(t, stdout.String()+stderr.String(), "internal error")
	})
}
