// Package regen writes a string that matches a regular expression, drawing
// every choice from the caller's random source: Kyverno's random(pattern),
// in JMESPath (ClusterPolicy) and in CEL (GeneratingPolicy), both come from
// goregen, and genplay's families share this one generator, each with its
// own seeded source so that a run replays byte for byte.
package regen

import (
	"errors"
	"regexp/syntax"
	"strings"
)

// MaxRepeat bounds the repetitions drawn for *, + and {n,}, as goregen does
// with its default limit of 10.
const MaxRepeat = 10

// A Source draws an int in [0, n); n > 0. *math/rand/v2.Rand is one.
type Source interface{ IntN(n int) int }

// ErrTooLong ends a pattern whose match would pass the caller's maximum.
var ErrTooLong = errors.New("the pattern's matches are too long")

// anyChar is what . and (?s). draw from: letters and digits, so that a
// random name is a valid Kubernetes name.
const anyChar = "abcdefghijklmnopqrstuvwxyz0123456789"

// Parse parses a pattern as Kyverno's random does (Perl syntax, as Go's
// regexp), simplified for Generate.
func Parse(pattern string) (*syntax.Regexp, error) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, err
	}
	return re.Simplify(), nil
}

// Generate returns a match of re (from Parse) of at most maxLength bytes.
func Generate(src Source, re *syntax.Regexp, maxLength int) (string, error) {
	g := gen{src: src, max: maxLength}
	if err := g.write(re, 0); err != nil {
		return "", err
	}
	return g.b.String(), nil
}

type gen struct {
	src Source
	max int
	b   strings.Builder
}

func (g *gen) write(re *syntax.Regexp, depth int) error {
	if depth > 100 || g.b.Len() > g.max {
		return ErrTooLong
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			g.b.WriteRune(r)
		}
	case syntax.OpCharClass: // uniform over the class's runes
		total := 0
		for i := 0; i+1 < len(re.Rune); i += 2 {
			total += int(re.Rune[i+1]-re.Rune[i]) + 1
		}
		if total == 0 {
			return errors.New("the pattern has an empty character class")
		}
		n := g.src.IntN(total)
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if size := int(re.Rune[i+1]-re.Rune[i]) + 1; n >= size {
				n -= size
				continue
			}
			g.b.WriteRune(re.Rune[i] + rune(n))
			break
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		g.b.WriteByte(anyChar[g.src.IntN(len(anyChar))])
	case syntax.OpCapture:
		return g.write(re.Sub[0], depth+1)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if err := g.write(sub, depth+1); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		return g.write(re.Sub[g.src.IntN(len(re.Sub))], depth+1)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := 0, MaxRepeat
		switch re.Op {
		case syntax.OpPlus:
			lo = 1
		case syntax.OpQuest:
			hi = 1
		case syntax.OpRepeat:
			lo, hi = re.Min, re.Max
			if hi < 0 {
				hi = lo + MaxRepeat
			}
		}
		if lo > g.max {
			return ErrTooLong
		}
		for range lo + g.src.IntN(hi-lo+1) {
			if err := g.write(re.Sub[0], depth+1); err != nil {
				return err
			}
		}
	}
	// Empty matches and anchors (^, $, \b, \B) write nothing.
	return nil
}
