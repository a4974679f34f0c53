package variables

import (
	"fmt"

	"github.com/genplay/genplay/engine/internal/regen"
)

// jpRandom is Kyverno's random(pattern): a string that matches the regular
// expression. Kyverno draws it from a real random source; genplay draws it
// from a generator seeded by the pattern and the number of earlier calls in
// this run, so a scenario replays byte for byte.
func (e *Evaluator) jpRandom(arguments []any) (any, error) {
	pattern, _ := arguments[0].(string)
	re, err := regen.Parse(pattern)
	if err != nil {
		return nil, fmt.Errorf("JMESPath function 'random': invalid pattern %q: %w", pattern, err)
	}
	e.mu.Lock()
	e.randomCalls++
	n := e.randomCalls
	e.mu.Unlock()
	s, err := regen.Generate(&splitmix{state: n*0x9e3779b97f4a7c15 ^ fnv(pattern)}, re, DefaultMaxOutput)
	if err != nil {
		return nil, fmt.Errorf("JMESPath function 'random': %w", err)
	}
	return s, nil
}

func fnv(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// splitmix is a splitmix64 generator, a regen.Source.
type splitmix struct{ state uint64 }

func (g *splitmix) next() uint64 {
	g.state += 0x9e3779b97f4a7c15
	z := g.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (g *splitmix) IntN(n int) int { return int(g.next() % uint64(n)) }
