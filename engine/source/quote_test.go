package source

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// needsQuote skips strconv.ParseFloat for strings it cannot accept; the
// answer must stay the one ParseFloat gives.
func TestNeedsQuoteAgreesWithParseFloat(t *testing.T) {
	for _, s := range []string{"abc", "default-deny", "Ingress", "inf", "-Infinity", "+INF", "NaN", "nan", "nano",
		"1e3", "0755", "1_000", "0x1p-2", ".5", "-", "+", "e", "true", "kubernetes.io/metadata.name", "Ñ", "ﬁnal"} {
		t.Run("the answer for "+strconv.Quote(s)+" is ParseFloat's", func(t *testing.T) {
			_, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
			assert.Equal(t, err == nil, needsQuote(s))
		})
	}
	assert.True(t, needsQuote(""), "the empty string is quoted")
	assert.True(t, needsQuote("<<"), "the merge key is quoted")
}
