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

// kyvernoSource is Kyverno's source at release v, from the Go module cache
// (go mod download fetches it when it is not there yet).
func kyvernoSource(t *testing.T, v Version) string {
	t.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", "github.com/kyverno/kyverno@"+string(v)).Output()
	var m struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &m)
	}
	if err != nil || m.Dir == "" {
		if os.Getenv("CI") == "true" {
			t.Fatalf("cannot download Kyverno %s's source (%v %s)", v, err, m.Error)
		}
		t.Skipf("Kyverno %s's source is not available (go mod download: %v %s)", v, err, m.Error)
	}
	return m.Dir
}

// TestCitedLinesAreInKyvernosSource checks every place a reason cites, at
// every simulated release: the line holds what the reason says it does,
// and a release without a line does not have the text at all.
func TestCitedLinesAreInKyvernosSource(t *testing.T) {
	for _, r := range Releases {
		dir := kyvernoSource(t, r.Version)
		for name, ref := range refs {
			t.Run(string(r.Version)+"/"+name, func(t *testing.T) {
				data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ref.Path)))
				require.NoError(t, err)
				lines := strings.Split(string(data), "\n")
				line, ok := ref.Lines[r.Version]
				if !ok {
					for i, l := range lines {
						assert.NotContains(t, l, ref.Text, "%s has %q at line %d: add the line for %s", ref.Path, ref.Text, i+1, r.Version)
					}
					return
				}
				require.Less(t, line-1, len(lines))
				if !assert.Contains(t, lines[line-1], ref.Text, "%s line %d at %s", ref.Path, line, r.Version) {
					for i, l := range lines {
						if strings.Contains(l, ref.Text) {
							t.Logf("%q is at line %d", ref.Text, i+1)
						}
					}
				}
			})
		}
	}
}

// TestChangedFilesChanged checks that every registered change names files
// that differ between its release and the one before (the diff -r that
// found it).
func TestChangedFilesChanged(t *testing.T) {
	for _, c := range Changes() {
		prev := Releases[c.Since.index()-1].Version
		before, after := kyvernoSource(t, prev), kyvernoSource(t, c.Since)
		for _, f := range c.Files {
			a, errA := os.ReadFile(filepath.Join(before, filepath.FromSlash(f)))
			b, errB := os.ReadFile(filepath.Join(after, filepath.FromSlash(f)))
			require.NoError(t, errB, "%s names %s, which is not in Kyverno %s", c.ID, f, c.Since)
			assert.True(t, errA != nil || string(a) != string(b), "%s names %s, which is the same in %s and %s", c.ID, f, prev, c.Since)
		}
	}
}

func TestURL(t *testing.T) {
	assert.Equal(t, "https://github.com/kyverno/kyverno/blob/v1.19.1/pkg/background/gpol/dynamic_watcher.go#L508", WatchUpdate.URL("v1.19.1"))
	assert.Equal(t, "https://github.com/kyverno/kyverno/blob/v1.18.2/pkg/cel/libs/context.go", GenerateOwnership.URL("v1.18.2"),
		"a release without the code cites the file")
}

func TestParse(t *testing.T) {
	for in, want := range map[string]Version{"": Latest, "latest": Latest, "v1.19.0": "v1.19.0", "1.18.2": "v1.18.2", " v1.19.1 ": "v1.19.1"} {
		got, err := Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	_, err := Parse("v1.20.0")
	require.Error(t, err)
	assert.Equal(t, "Kyverno v1.20.0 is not simulated: genplay simulates v1.18.2, v1.19.0, v1.19.1 (the default is the latest, v1.19.1)", err.Error())
}

func TestReleasesAreOrderedAndDistinct(t *testing.T) {
	seen := map[Version]bool{}
	for i, r := range Releases {
		assert.False(t, seen[r.Version], "%s twice", r.Version)
		seen[r.Version] = true
		assert.Regexp(t, `^v\d+\.\d+\.\d+$`, string(r.Version))
		assert.NotEmpty(t, r.Summary)
		if i > 0 {
			assert.Less(t, Releases[i-1].Date, r.Date, "releases are oldest first")
		}
	}
	assert.Equal(t, Latest, Releases[len(Releases)-1].Version, "the last release is the latest")
	assert.True(t, Latest.AtLeast("v1.19.0"))
	assert.False(t, Version("v1.18.2").AtLeast("v1.19.0"))
}

func TestChangeSaysBothWays(t *testing.T) {
	c := &Change{ID: "kyverno#16920", Since: "v1.19.1", Before: "delete and recreate them", After: "update them in place"}
	assert.Equal(t, "Kyverno v1.19.0 and earlier delete and recreate them; v1.19.1 and later update them in place (kyverno#16920)", c.Says())
	assert.Equal(t, "https://github.com/kyverno/kyverno/pull/16920", c.URL())
	old := &Change{ID: "kyverno#16838", Since: "v1.19.0", Before: "a", After: "b"}
	assert.Equal(t, "Kyverno v1.18.2 and earlier a; v1.19.0 and later b (kyverno#16838)", old.Says())
	assert.True(t, old.In("v1.19.1"))
	assert.False(t, old.In("v1.18.2"))
}

func TestRegisterRefusesBrokenChanges(t *testing.T) {
	assert.Panics(t, func() {
		Register(Change{ID: "x#1", Since: "v1.20.0", Title: "t", Before: "b", After: "a", Family: FamilyCEL})
	})
	assert.Panics(t, func() {
		Register(Change{ID: "x#2", Since: "v1.18.2", Title: "t", Before: "b", After: "a", Family: FamilyCEL})
	})
	assert.Panics(t, func() { Register(Change{ID: "x#3", Since: "v1.19.0"}) })
}
