package compiler

import (
	"fmt"
	"math/rand/v2"

	"github.com/genplay/genplay/engine/internal/regen"
)

// maxRandomLength bounds the length of one random(pattern) result.
const maxRandomLength = 4096

// generateRandom is random(pattern) of Kyverno's random library, drawn from
// the evaluation's seeded generator (goregen's role in Kyverno).
func generateRandom(rng *rand.Rand, pattern string) (string, error) {
	re, err := regen.Parse(pattern)
	if err != nil {
		return "", fmt.Errorf("failed to parse random pattern %q: %v", pattern, err)
	}
	s, err := regen.Generate(rng, re, maxRandomLength)
	if err == regen.ErrTooLong {
		return "", fmt.Errorf("random pattern produces more than %d characters", maxRandomLength)
	}
	return s, err
}
