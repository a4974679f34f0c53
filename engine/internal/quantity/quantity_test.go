package quantity

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseAndString(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"a plain integer stays plain", "1500", "1500"},
		{"thousands take the k suffix", "2000", "2k"},
		{"a fraction becomes milli", "0.1", "100m"},
		{"milli stays milli", "1500m", "1500m"},
		{"binary suffixes keep binary form", "1.5Gi", "1536Mi"},
		{"small binary values print as decimal", "0.5Ki", "512"},
		{"decimal exponents keep exponent form", "2e3", "2e3"},
		{"negative values keep their sign", "-5k", "-5k"},
		{"zero prints as 0", "0Gi", "0"},
		{"a leading dot is allowed", ".5", "500m"},
		{"a trailing dot is allowed", "5.", "5"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := Parse(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, q.String())
		})
	}
}

func TestParseRejects(t *testing.T) {
	for _, in := range []string{"", "abc", "5x", "1e", "Gi", ".", "1e99999"} {
		t.Run("it rejects "+in, func(t *testing.T) {
			_, err := Parse(in)
			assert.Error(t, err)
		})
	}
}

func TestCmp(t *testing.T) {
	a, _ := Parse("1Gi")
	b, _ := Parse("1024Mi")
	c, _ := Parse("1G")
	assert.Equal(t, 0, a.Cmp(b), "1Gi equals 1024Mi")
	assert.Equal(t, 1, a.Cmp(c), "1Gi is more than 1G")
}
