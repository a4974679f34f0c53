//go:build js

package compiler

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestX509DecodeCompilesAndSaysItRunsOnlyNatively(t *testing.T) {
	_, err := evalIn(t, "", `x509.decode(object.pem)`, Input{Object: map[string]any{"pem": "x"}}, newHost())
	assert.ErrorContains(t, err, "runs only in genplay's native builds")
}
