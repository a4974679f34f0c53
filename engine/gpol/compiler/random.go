package compiler

import (
	"fmt"
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"unicode"
)

// maxRandomRepeat bounds the repetition of *, + and {n,} in random(pattern),
// as goregen does with its default limit of 10.
const maxRandomRepeat = 10

// maxRandomLength bounds the length of one random(pattern) result.
const maxRandomLength = 4096

// regen generates a string matching a regular expression from a seeded
// generator (the role goregen plays in Kyverno's random library).
type regen struct {
	rng *rand.Rand
	b   strings.Builder
}

func generateRandom(rng *rand.Rand, pattern string) (string, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", fmt.Errorf("failed to parse random pattern %q: %v", pattern, err)
	}
	g := &regen{rng: rng}
	if err := g.gen(re.Simplify()); err != nil {
		return "", err
	}
	return g.b.String(), nil
}

func (g *regen) gen(re *syntax.Regexp) error {
	if g.b.Len() > maxRandomLength {
		return fmt.Errorf("random pattern produces more than %d characters", maxRandomLength)
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			g.b.WriteRune(r)
		}
	case syntax.OpCharClass:
		var total int
		for i := 0; i+1 < len(re.Rune); i += 2 {
			total += int(re.Rune[i+1]-re.Rune[i]) + 1
		}
		if total == 0 {
			return nil
		}
		n := g.rng.IntN(total)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			size := int(re.Rune[i+1]-re.Rune[i]) + 1
			if n < size {
				g.b.WriteRune(re.Rune[i] + rune(n))
				break
			}
			n -= size
		}
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		g.b.WriteRune(rune(' ' + g.rng.IntN(unicode.MaxASCII-' ')))
	case syntax.OpCapture:
		return g.gen(re.Sub[0])
	case syntax.OpConcat:
		for _, s := range re.Sub {
			if err := g.gen(s); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		return g.gen(re.Sub[g.rng.IntN(len(re.Sub))])
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, maxRandomRepeat
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + maxRandomRepeat
			}
		}
		if hi > maxRandomLength {
			return fmt.Errorf("random pattern produces more than %d characters", maxRandomLength)
		}
		n := lo
		if hi > lo {
			n += g.rng.IntN(hi - lo + 1)
		}
		for i := 0; i < n; i++ {
			if err := g.gen(re.Sub[0]); err != nil {
				return err
			}
		}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
	default:
		return fmt.Errorf("random pattern: unsupported %v", re.Op)
	}
	return nil
}
