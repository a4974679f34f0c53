package wildcard

import "strings"

// Match reports whether s matches pattern. An empty pattern matches only the
// empty string; "*" matches everything.
func Match(pattern, s string) bool {
	if pattern == "*" {
		return true
	}
	if !Contains(pattern) {
		return pattern == s
	}
	p, t := []rune(pattern), []rune(s)
	// Iterative matching with a single backtrack point for the last star:
	// O(len(p)*len(t)) in the worst case, never exponential.
	pi, ti := 0, 0
	star, mark := -1, 0
	for ti < len(t) {
		switch {
		case pi < len(p) && (p[pi] == '?' || p[pi] == t[ti]):
			pi++
			ti++
		case pi < len(p) && p[pi] == '*':
			star, mark = pi, ti
			pi++
		case star >= 0:
			pi = star + 1
			mark++
			ti = mark
		default:
			return false
		}
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// Contains reports whether s holds a wildcard character.
func Contains(s string) bool { return strings.ContainsAny(s, "*?") }

// Any reports whether some pattern matches s.
func Any(patterns []string, s string) bool {
	for _, p := range patterns {
		if Match(p, s) {
			return true
		}
	}
	return false
}
