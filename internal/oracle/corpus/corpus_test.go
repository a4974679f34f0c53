package corpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteSavesTheScenarioWithWhereItComesFrom(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(Env, dir)
	Write(t, "migrate-data/policy-deleted/sync-true-orphan-false", "genplay migrate of cases/x.yaml", "kind: Test\n")
	b, err := os.ReadFile(filepath.Join(dir, "migrate-data-policy-deleted-sync-true-orphan-false.yaml"))
	require.NoError(t, err)
	assert.Equal(t, "genplay migrate of cases/x.yaml", From(string(b)))
	assert.Equal(t, "", From("kind: Test\n"), "a file Write did not write comes from nowhere")
}

func TestWriteDoesNothingWithoutTheFolder(t *testing.T) {
	t.Setenv(Env, "")
	dir := t.TempDir()
	t.Chdir(dir)
	Write(t, "x", "y", "kind: Test\n")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}
