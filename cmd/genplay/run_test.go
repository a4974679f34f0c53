package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// TestRunPrintsTheTimelineFormatAsked: -o json prints format v2, the
// contract (engine/timeline), and -format v1 the old format, derived from it.
func TestRunPrintsTheTimelineFormatAsked(t *testing.T) {
	file := filepath.Join("..", "..", "site", "examples", "default-deny-netpol.yaml")
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	runJSON := func(args ...string) (int, string, string) {
		var out, errOut bytes.Buffer
		code := run(append(append([]string{"run", "-o", "json"}, args...), "-"), bytes.NewReader(data), &out, &errOut)
		return code, out.String(), errOut.String()
	}
	res := engine.Run("<stdin>", data, engine.Options{Families: families, Scripts: scripts})
	v2, err := timeline.Marshal(res)
	require.NoError(t, err)
	v1, err := timeline.MarshalV1(timeline.V1(res))
	require.NoError(t, err)

	code, out, _ := runJSON()
	assert.Equal(t, 0, code)
	assert.Equal(t, string(v2), out)
	assert.True(t, strings.HasPrefix(out, "{\n  \"format\": \"genplay.timeline/v2\","))
	back, err := timeline.Decode([]byte(out))
	require.NoError(t, err, "the answer reads back")
	assert.Len(t, back.Steps, len(res.Steps))

	code, out, _ = runJSON("-format", "v1")
	assert.Equal(t, 0, code)
	assert.Equal(t, string(v1), out)
	assert.Contains(t, out, `"cluster": [`)

	code, out, errText := runJSON("-format", "v3")
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errText, `-format: unknown timeline format "v3"`)
}
