package migrate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	assert2 "github.com/genplay/genplay/engine/assert"
)

func TestPrecedenceIsTheLowestOperatorOutsideParentheses(t *testing.T) {
	for expr, want := range map[string]int{
		`object.metadata.name`: precPrimary,
		`(a || b)`:             precPrimary,
		`object.metadata.?labels[?'a'].orValue('')`: precPrimary,
		`a.?b == 'x'`:   precRelation,
		`a ? b : c`:     precTernary,
		`a || b && c`:   precOr,
		`a && (b || c)`: precAnd,
		`'a || b' == x`: precRelation,
		`"it's" + x`:    precAdditive,
		`-1`:            precUnary,
		`x - 1`:         precAdditive,
		`!x`:            precUnary,
		`'a' in list`:   precRelation,
		`index(x)`:      precPrimary,
		`a * b`:         precMultiplicative,
	} {
		assert.Equal(t, want, precedence(expr), expr)
	}
}

func TestJoinsUseOnlyTheParenthesesPrecedenceNeeds(t *testing.T) {
	assert.Equal(t, "a == 1 && b == 2", celAnd("(a == 1)", "b == 2"))
	assert.Equal(t, "(a || b) && c", celAnd("a || b", "c"))
	assert.Equal(t, "(a && b) || c", celOr("a && b", "c"))
	assert.Equal(t, "x", celAnd("((x))"))
	assert.Equal(t, "!(a == b)", celNot("a == b"))
	assert.Equal(t, "!x.y", celNot("(x.y)"))
	assert.Equal(t, "(a) + (b)", unwrap("(a) + (b)"), "parentheses that do not enclose the whole stay")
	assert.Equal(t, "')' == x", unwrap("(')' == x)"))
}

func TestAnExpressionChainsawWouldReadAsItsOwnIsWrittenOverLines(t *testing.T) {
	for _, expr := range []string{"(a || b) && (c || d)", "(x ? 1 : 2) == (y)"} {
		out := yexpr(expr, "  ")
		var m map[string]string
		require.NoError(t, yaml.Unmarshal([]byte("k: "+out+"\n"), &m))
		v := m["k"]
		assert.True(t, assert2.ReadLiterally(v), "%q is read literally", v)
		assert.Equal(t, strings.Join(strings.Fields(expr), " "), strings.Join(strings.Fields(v), " "), "the same expression")
	}
	assert.Equal(t, `"a && b"`, yexpr("a && b", "  "), "one line when chainsaw reads it literally")
}
