package bridge

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInjectFault(t *testing.T) {
	const scenario = "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\nspec:\n  steps: []\n"
	message := func(out []byte) string {
		diags, _ := decode(t, out)["diagnostics"].([]any)
		if len(diags) == 0 {
			return ""
		}
		return diags[0].(map[string]any)["message"].(string)
	}

	t.Run("an unknown fault is refused and arms nothing", func(t *testing.T) {
		err := InjectFault("segfault")
		require.Error(t, err)
		assert.Contains(t, err.Error(), `unknown fault "segfault"`)
		assert.Empty(t, message(Run(scenario, "")))
	})

	t.Run("an injected panic becomes an internal error for one run only", func(t *testing.T) {
		require.NoError(t, InjectFault(string(FaultPanic)))
		assert.True(t, strings.HasPrefix(message(Run(scenario, "")), "internal error: injected fault: panic"))
		assert.Empty(t, message(Run(scenario, "")), "the next run is normal")
	})

	t.Run("an injected exit ends the program", func(t *testing.T) {
		if runtime.GOOS == "js" {
			t.Skip("needs a subprocess")
		}
		if os.Getenv("GENPLAY_FAULT_CHILD") == "1" {
			_ = InjectFault(string(FaultExit))
			Run(scenario, "")
			os.Exit(0) // not reached when the fault works
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestInjectFault$/exit")
		cmd.Env = append(os.Environ(), "GENPLAY_FAULT_CHILD=1")
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "the child must die: %s", out)
		assert.Contains(t, string(out), "panic: injected fault: exit")
	})
}
