package variables

import (
	"errors"
	"fmt"
	"regexp/syntax"
	"strings"
)

// maxRandomRepeat bounds the repetitions random() draws for * and +.
const maxRandomRepeat = 8

// jpRandom is Kyverno's random(pattern): a string that matches the regular
// expression. Kyverno draws it from a real random source; genplay draws it
// from a generator seeded by the pattern and the number of earlier calls in
// this run, so a scenario replays byte for byte.
func (e *Evaluator) jpRandom(arguments []any) (any, error) {
	pattern, _ := arguments[0].(string)
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return nil, fmt.Errorf("JMESPath function 'random': invalid pattern %q: %w", pattern, err)
	}
	e.mu.Lock()
	e.randomCalls++
	n := e.randomCalls
	e.mu.Unlock()
	g := &randomGen{state: n*0x9e3779b97f4a7c15 ^ fnv(pattern)}
	var b strings.Builder
	if err := g.write(&b, re.Simplify(), 0); err != nil {
		return nil, fmt.Errorf("JMESPath function 'random': %w", err)
	}
	return b.String(), nil
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// randomGen is a splitmix64 generator.
type randomGen struct{ state uint64 }

func (g *randomGen) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (g *randomGen) intn(n int) int { return int(g.next() % uint64(n)) }

var errRandomTooLong = errors.New("the pattern's matches are too long")

func (g *randomGen) write(b *strings.Builder, re *syntax.Regexp, depth int) error {
	if depth > 100 || b.Len() > DefaultMaxOutput {
		return errRandomTooLong
	}
	switch re.Op {
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			b.WriteRune(r)
		}
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return errors.New("the pattern has an empty character class")
		}
		pair := g.intn(len(re.Rune)/2) * 2
		lo, hi := re.Rune[pair], re.Rune[pair+1]
		b.WriteRune(lo + rune(g.intn(int(hi-lo)+1)))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		const alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
		b.WriteByte(alphabet[g.intn(len(alphabet))])
	case syntax.OpCapture:
		return g.write(b, re.Sub[0], depth+1)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if err := g.write(b, sub, depth+1); err != nil {
				return err
			}
		}
	case syntax.OpAlternate:
		return g.write(b, re.Sub[g.intn(len(re.Sub))], depth+1)
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
		count := lo + g.intn(hi-lo+1)
		for range count {
			if err := g.write(b, re.Sub[0], depth+1); err != nil {
				return err
			}
		}
	}
	// Empty matches and anchors (^, $, \b) write nothing.
	return nil
}
