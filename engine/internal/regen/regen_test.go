package regen

import (
	"math/rand/v2"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGenerateMatches: every result matches its pattern, the same seed gives
// the same strings, and the bounds end hostile patterns with an error.
func generate(src Source, pattern string, max int) (string, error) {
	re, err := Parse(pattern)
	if err != nil {
		return "", err
	}
	return Generate(src, re, max)
}

func TestGenerateMatches(t *testing.T) {
	patterns := []string{
		`[a-z]{5}`, `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, `ns-\d{3}`, `(foo|bar)+baz?`, `^x.y$`, `[^a-y]`,
		`a{2,}`, `\w+@\w+\.com`, `(?i)kyverno`, `[[:upper:]]{2}`, `\bword\b`, ``,
	}
	for _, p := range patterns {
		re := regexp.MustCompile(`^(?:` + p + `)$`)
		first := []string{}
		for seed := range uint64(20) {
			s, err := generate(rand.New(rand.NewPCG(seed, 1)), p, 1000)
			require.NoError(t, err, p)
			assert.Regexp(t, re, s, "pattern %q", p)
			first = append(first, s)
		}
		for seed := range uint64(20) {
			s, _ := generate(rand.New(rand.NewPCG(seed, 1)), p, 1000)
			assert.Equal(t, first[seed], s, "the same seed gives the same string for %q", p)
		}
	}
	_, err := generate(rand.New(rand.NewPCG(1, 1)), `(`, 100)
	assert.ErrorContains(t, err, "missing closing )")
	_, err = generate(rand.New(rand.NewPCG(1, 1)), `a{1000}`, 100)
	assert.ErrorIs(t, err, ErrTooLong)
	_, err = generate(rand.New(rand.NewPCG(1, 1)), `a{999}b{999}c{999}d{999}e{999}`, 4000)
	assert.ErrorIs(t, err, ErrTooLong)
}

// TestCharClassIsUniform: each rune of [ab-z] is drawn about equally often,
// not a with half the draws (one of two ranges).
func TestCharClassIsUniform(t *testing.T) {
	src := rand.New(rand.NewPCG(7, 7))
	counts := map[string]int{}
	for range 26000 {
		s, err := generate(src, `[ab-z]`, 10)
		require.NoError(t, err)
		counts[s]++
	}
	assert.Len(t, counts, 26)
	assert.InDelta(t, 1000, counts["a"], 150)
}
