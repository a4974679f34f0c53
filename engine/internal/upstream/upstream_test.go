//go:build !js

package upstream

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// kyvernoSource is Kyverno's source at Version, from the Go module cache
// (go mod download fetches it when it is not there yet).
func kyvernoSource(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/kyverno/kyverno@"+Version).Output()
	var m struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	if err != nil || m.Dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot download Kyverno %s's source (%v %s)", Version, err, m.Error)
		}
		t.Skipf("Kyverno %s's source is not available (go mod download: %v %s)", Version, err, m.Error)
	}
	return m.Dir
}

// TestCitedLinesAreInKyvernosSource checks every place a reason cites:
// the line holds what the reason says it does.
func TestCitedLinesAreInKyvernosSource(t *testing.T) {
	dir := kyvernoSource(t)
	for name, r := range map[string]Ref{
		"SyncWatchers": SyncWatchers, "DeleteDownstreamsFilter": DeleteDownstreamsFilter,
		"CleanupStaleDownstreams": CleanupStaleDownstreams, "RemoveWatchersForPolicy": RemoveWatchersForPolicy,
		"RemoveWatchersFilter": RemoveWatchersFilter,
		"WatchUpdate":          WatchUpdate, "GenerateOwnership": GenerateOwnership,
	} {
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(r.Path)))
			require.NoError(t, err)
			lines := strings.Split(string(data), "\n")
			require.Less(t, r.Line-1, len(lines))
			assert.Contains(t, lines[r.Line-1], r.Text, "%s line %d", r.Path, r.Line)
		})
	}
}

func TestURL(t *testing.T) {
	assert.Equal(t, "https://github.com/kyverno/kyverno/blob/"+Version+"/pkg/background/gpol/dynamic_watcher.go#L486", WatchUpdate.URL())
}
