package wildcard

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMatch(t *testing.T) {
	tests := []struct {
		name, pattern, s string
		want             bool
	}{
		{"a star matches anything", "*", "s3:GetObject", true},
		{"a star matches the empty string", "*", "", true},
		{"an empty pattern matches only the empty string", "", "x", false},
		{"an empty pattern matches the empty string", "", "", true},
		{"a literal pattern must be equal", "kube-system", "kube-system", true},
		{"matching is case-sensitive", "Prod", "prod", false},
		{"a trailing star matches a prefix alone", "my-bucket/oo*", "my-bucket/oo", true},
		{"a question mark needs exactly one character", "my-?-bucket", "my--bucket", false},
		{"a question mark matches one character", "my-?-bucket", "my-1-bucket", true},
		{"question mark then star means non-empty", "?*", "", false},
		{"question mark then star matches one character", "?*", "a", true},
		{"stars backtrack", "a*b*c", "aXbYbZc", true},
		{"stars backtrack and still fail", "a*b*c", "aXbYbZ", false},
		{"question marks count runes", "?", "é", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Match(tt.pattern, tt.s))
		})
	}
}
