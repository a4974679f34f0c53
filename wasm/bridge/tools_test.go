package bridge

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func answer(t *testing.T, name, text, options string) ToolAnswer {
	t.Helper()
	var a ToolAnswer
	require.NoError(t, json.Unmarshal(CallTool(name, text, options), &a))
	return a
}

// TestCallTool: the answer carries the tool's result or its error, and an
// unknown tool, oversized text and a panic are errors, never a panic.
func TestCallTool(t *testing.T) {
	t.Cleanup(func() { Tools = nil })
	Tools = map[string]Tool{
		"upper": func(text string, options []byte) (any, error) {
			return map[string]string{"text": strings.ToUpper(text), "options": string(options)}, nil
		},
		"refuse": func(string, []byte) (any, error) { return nil, errors.New("in.yaml:3: no policy") },
		"panic":  func(string, []byte) (any, error) { panic("boom") },
	}
	assert.Equal(t, []string{"panic", "refuse", "upper"}, ToolNames())

	a := answer(t, "upper", "kind: x", `{"a":1}`)
	assert.Empty(t, a.Error)
	assert.Equal(t, map[string]any{"text": "KIND: X", "options": `{"a":1}`}, a.Result)

	a = answer(t, "refuse", "", "")
	assert.Nil(t, a.Result)
	assert.Equal(t, "in.yaml:3: no policy", a.Error)

	a = answer(t, "panic", "", "")
	assert.True(t, strings.HasPrefix(a.Error, "internal error: boom"), a.Error)

	a = answer(t, "export", "", "")
	assert.Equal(t, `this build of genplay has no tool "export" (it has: [panic refuse upper])`, a.Error)

	a = answer(t, "upper", strings.Repeat("x", MaxInput+1), "")
	assert.Contains(t, a.Error, "the limit is")
	assert.Equal(t, "upper", a.Tool)
}
