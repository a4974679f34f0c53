package api_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
)

func TestAnOperationThatNamesAFileIsAnErrorAtItsLine(t *testing.T) {
	scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - error:
        file: missing.yaml
`
	res := do(t, api.Handler(api.Options{}), http.MethodPost, "/api/v1/run", "text/yaml", []byte(scenario))
	require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode, "never 200 passed: true for an operation that could not run")
	msg, diags := errorOf(t, res)
	require.NotEmpty(t, diags)
	assert.Equal(t, 8, diags[0].Line)
	assert.True(t, strings.Contains(msg, "no files can be read"), msg)
}
