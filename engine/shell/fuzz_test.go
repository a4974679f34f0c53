package shell_test

import (
	"strconv"
	"testing"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/shell"
)

// FuzzScripts runs arbitrary script content: whatever it is, the run ends
// with a result that is not an internal error (a panic contained).
func FuzzScripts(f *testing.F) {
	f.Add("kubectl get cm base-copy -n apps -o json | jq -e '.data.level == \"info\"'")
	f.Add("if ! kubectl get cm x -n apps 2>/dev/null; then echo absent; exit 1; fi")
	f.Add("set -e\nv=$(kubectl get cm base -n default -o jsonpath='{.data.level}')\nfor i in $(seq 1 3); do [ \"$v\" = info ] && break; sleep 1; done")
	f.Add("while kubectl get cm base -n default >/dev/null; do kubectl delete cm base -n default; done")
	f.Fuzz(func(t *testing.T, content string) {
		res := engine.Run("scripts.yaml", []byte(scriptScenario("- script:\n    content: "+strconv.Quote(content))), engine.Options{Scripts: shell.New})
		if engine.IsInternalError(res) {
			t.Fatalf("internal error: %v", res.Diagnostics)
		}
	})
}
