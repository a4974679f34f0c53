package testenv

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorder is a testing.TB that records how a test ended.
type recorder struct {
	testing.TB
	failed, skipped bool
	msg             string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed, r.msg = true, format
	panic(r)
}
func (r *recorder) Skip(args ...any) {
	r.skipped = true
	panic(r)
}

func ended(f func(t testing.TB)) (r *recorder) {
	r = &recorder{}
	defer func() {
		if p := recover(); p != nil && p != r {
			panic(p)
		}
	}()
	f(r)
	return r
}

func TestMissingFailsUnderCIAndSkipsElsewhere(t *testing.T) {
	t.Setenv("CI", "true")
	r := ended(func(t testing.TB) { Missing(t, "site/dist is not built: run make site first") })
	assert.True(t, r.failed)
	assert.False(t, r.skipped)

	t.Setenv("CI", "")
	r = ended(func(t testing.TB) { Missing(t, "site/dist is not built: run make site first") })
	assert.True(t, r.skipped)
	assert.False(t, r.failed)
}

func TestRootHoldsGoMod(t *testing.T) {
	_, err := os.Stat(filepath.Join(Root(t), "go.mod"))
	require.NoError(t, err)
}

func TestConformanceHonoursTheEnvironment(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GENPLAY_CONFORMANCE", dir)
	assert.Equal(t, dir, Conformance(t))

	t.Setenv("GENPLAY_CONFORMANCE", filepath.Join(dir, "absent"))
	t.Setenv("CI", "true")
	r := ended(func(t testing.TB) { Conformance(t) })
	assert.True(t, r.failed, "a missing suite fails under CI")
}
