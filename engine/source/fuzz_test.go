package source

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParse checks that any input parses without a panic, within the
// limits, into JSON-shaped values, with positioned diagnostics, and the
// same way twice.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"a: 1\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {on: yes, n: 0x1F}\n",
		"a: &a [x, x]\nb: [*a, *a]\n",
		"a: {<<: {b: 1}, c: 2}\n",
		"---\n- [1, 2]\n---\n{\"k\": \"v\"}\n",
		"k: !!binary aGVsbG8=\n",
		"a: 1\na: 2\n",
		"\xff\xfe",
		"k: |\n  text\n  more\n",
		"? complex\n: key\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, diags := Parse("fuzz.yaml", data)
		for _, d := range diags {
			assert.Equal(t, "fuzz.yaml", d.File)
			assert.GreaterOrEqual(t, d.Line, 0)
			assert.NotEmpty(t, d.Message)
		}
		assert.LessOrEqual(t, len(diags), maxParseDiagnostics+1, "diagnostics are capped")
		var values []any
		for _, doc := range docs {
			_, err := json.Marshal(doc.Value)
			require.NoError(t, err, "a document is JSON-shaped")
			values = append(values, doc.Value)
			_ = doc.Pos("metadata", "name")
		}
		again, diags2 := Parse("fuzz.yaml", data)
		require.Equal(t, len(diags), len(diags2))
		require.Len(t, again, len(docs))
		for i := range again {
			assert.Equal(t, values[i], again[i].Value, "the same input parses the same way")
		}
	})
}
