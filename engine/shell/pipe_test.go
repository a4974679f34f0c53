package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/shell"
)

func TestGrepTranslatesBasicRegularExpressions(t *testing.T) {
	cases := []struct {
		pattern string
		options map[string]bool
		text    string
		matched bool
	}{
		{"a+b", nil, "a+b\n", true},
		{"a+b", nil, "aab\n", false},
		{"a+b", map[string]bool{"E": true}, "aab\n", true},
		{"x.y", map[string]bool{"F": true}, "xzy\n", false},
		{"warning", map[string]bool{"i": true}, "Warning: hi\n", true},
		{"foo", map[string]bool{"v": true}, "foo\n", false},
	}
	for _, c := range cases {
		opts := c.options
		if opts == nil {
			opts = map[string]bool{}
		}
		opts["q"] = true
		_, code, err := shell.Grep(shell.Stage{Program: "grep", Expr: c.pattern, Options: opts}, c.text)
		require.NoError(t, err)
		assert.Equal(t, c.matched, code == 0, "grep %v %q on %q", c.options, c.pattern, c.text)
	}
}
