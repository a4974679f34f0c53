package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/shell"
)

func TestJSONPatchOperations(t *testing.T) {
	live := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"},
		"data": map[string]any{"a": "1"}, "list": []any{"p", "q"}}
	next, err := shell.ApplyPatch("json", live, []any{
		map[string]any{"op": "add", "path": "/data/b", "value": "2"},
		map[string]any{"op": "remove", "path": "/data/a"},
		map[string]any{"op": "add", "path": "/list/1", "value": "r"},
		map[string]any{"op": "replace", "path": "/list/0", "value": "s"},
		map[string]any{"op": "test", "path": "/data/b", "value": "2"},
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"b": "2"}, next["data"])
	assert.Equal(t, []any{"s", "r", "q"}, next["list"])
	assert.Equal(t, map[string]any{"a": "1"}, live["data"], "the live object is not changed")

	_, err = shell.ApplyPatch("json", live, []any{map[string]any{"op": "test", "path": "/data/a", "value": "2"}})
	assert.Error(t, err, "a failed test operation fails the patch")
}
