//go:build js

package variables

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestX509DecodeSaysItRunsOnlyNatively(t *testing.T) {
	_, err := New(Options{}).Search("x509_decode('x')", nil)
	assert.ErrorContains(t, err, "runs only in genplay's native builds")
}
