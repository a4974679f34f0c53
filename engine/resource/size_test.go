package resource

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONSizeIsWhatEncodingJSONWrites(t *testing.T) {
	values := []any{
		nil, true, false, 0.0, -1.5, 1e21, 1e-7, 123456789.0, "", "plain", "quote \" back \\ slash", "\n\t\r\b\f\x01<>&",
		"ünïcödé \u2028\u2029", "bad \xff utf-8",
		map[string]any{}, []any{}, map[string]any{"a": []any{1.0, "x", nil, map[string]any{"b": false}}, "c<": "d"},
		Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "x"}, "data": map[string]any{"k": "v"}},
	}
	for _, v := range values {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, len(b), JSONSize(v, 1<<30), "%#v", v)
	}
}

func TestJSONSizeStopsPastItsLimit(t *testing.T) {
	big := strings.Repeat("x", 1<<20)
	v := map[string]any{}
	for i := 0; i < 2000; i++ { // 2 GB as JSON, one string in memory
		v[strings.Repeat("k", i+1)] = big
	}
	n := JSONSize(v, 3<<20)
	assert.Greater(t, n, 3<<20)
	assert.Less(t, n, 6<<20, "it stopped soon after the limit")
	allocs := testing.AllocsPerRun(10, func() { JSONSize(v, 3<<20) })
	assert.LessOrEqual(t, allocs, 1.0)
}
