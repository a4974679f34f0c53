package assert_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/assert"
)

func TestLiteralIsReadBackAsTheSameText(t *testing.T) {
	for _, s := range []string{"plain", "(object.metadata.name == 'x')", "(a) && (b)", `\escaped\`, "~.x", "a -> b",
		"(jp;x)", "(multi\nline)", "(", "()"} {
		lit := assert.Literal(s)
		require.Equal(t, s, assert.ParseTemplate(lit).Statement, "templating reads %q back", lit)
		require.False(t, assert.ParseTemplate(lit).IsProjection(), lit)
		e := assert.ParseExpression(lit)
		require.Equal(t, s, e.Statement, "an assertion reads %q back", lit)
		require.False(t, e.IsProjection() || e.Foreach || e.Binding != "", lit)
	}
	require.Equal(t, "plain", assert.Literal("plain"))
	require.Equal(t, `\(a)\`, assert.Literal("(a)"))
}
