package semver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	for _, ok := range []string{"1.2.3", "0.0.0", "1.2.3-rc.1", "1.2.3+build.5", "1.0.0-alpha-1"} {
		t.Run(ok+" is a version", func(t *testing.T) {
			_, err := Parse(ok)
			assert.NoError(t, err)
		})
	}
	for _, bad := range []string{"", "v1.2.3", "1.2", "01.2.3", "1.2.3-", "1.2.3-01", "a.b.c"} {
		t.Run(bad+" is not a version", func(t *testing.T) {
			_, err := Parse(bad)
			assert.Error(t, err)
		})
	}
}

func TestCompare(t *testing.T) {
	order := []string{"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11", "1.0.0-rc.1", "1.0.0", "1.0.1", "1.1.0", "2.0.0"}
	for i := 1; i < len(order); i++ {
		a, _ := Parse(order[i-1])
		b, _ := Parse(order[i])
		assert.Equal(t, -1, a.Compare(b), "%s < %s", order[i-1], order[i])
		assert.Equal(t, 1, b.Compare(a), "%s > %s", order[i], order[i-1])
	}
}

func TestRange(t *testing.T) {
	tests := []struct {
		name, rng, v string
		want         bool
	}{
		{"a bare version means equal", "1.2.3", "1.2.3", true},
		{"greater than excludes the bound", ">1.2.3", "1.2.3", false},
		{"ANDed comparators bound both sides", ">=1.0.0 <2.0.0", "1.5.0", true},
		{"ORed groups widen the range", "<1.0.0 || >=3.0.0", "3.1.0", true},
		{"ORed groups leave gaps", "<1.0.0 || >=3.0.0", "2.0.0", false},
		{"a wildcard patch matches the minor line", "1.2.x", "1.2.9", true},
		{"a wildcard patch excludes the next minor", "1.2.x", "1.3.0", false},
		{"greater than a wildcard skips the line", ">1.2.x", "1.2.9", false},
		{"an operator may stand apart", "> 1.0.0", "1.0.1", true},
		{"not equal excludes one version", "!=1.0.0", "1.0.0", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := ParseRange(tt.rng)
			require.NoError(t, err)
			v, err := Parse(tt.v)
			require.NoError(t, err)
			assert.Equal(t, tt.want, r(v))
		})
	}
	_, err := ParseRange("not a range")
	assert.Error(t, err)
}
