package gpol

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/source"
)

// doc parses one YAML document.
func doc(t *testing.T, text string) *source.Document {
	t.Helper()
	docs, diags := source.Parse("policy.yaml", []byte(text))
	require.Empty(t, diags)
	require.Len(t, docs, 1)
	return docs[0]
}

// parse parses a policy that must have no diagnostics.
func parse(t *testing.T, text string) *Policy {
	t.Helper()
	p, diags := Parse(doc(t, text), nil)
	require.Empty(t, diags)
	require.NotNil(t, p)
	return p
}

const minimal = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: netpol
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
  generate:
  - expression: generator.Apply(object.metadata.name, [variables.np])
`
