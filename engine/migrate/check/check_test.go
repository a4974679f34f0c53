package check

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

const valid = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      resources: [namespaces]
      operations: [CREATE, UPDATE]
  generate:
  - expression: "generator.apply(object.metadata.name, [])"
`

func TestPolicies(t *testing.T) {
	t.Run("a valid policy has no errors", func(t *testing.T) {
		assert.Empty(t, Policies("p.yaml", valid))
	})
	t.Run("Kyverno's webhook rule on matchConstraints", func(t *testing.T) {
		errs := Policies("p.yaml", "apiVersion: policies.kyverno.io/v1\nkind: GeneratingPolicy\nmetadata:\n  name: p\nspec:\n  generate:\n  - expression: \"true\"\n")
		assert.Equal(t, []string{"p.yaml:5:1: spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required"}, errs)
	})
	t.Run("a CEL error names the line and column", func(t *testing.T) {
		errs := Policies("p.yaml", valid[:len(valid)-len("  - expression: \"generator.apply(object.metadata.name, [])\"\n")]+"  - expression: \"generator.apply([])\"\n")
		if assert.Len(t, errs, 1) {
			assert.Contains(t, errs[0], "p.yaml:13:")
			assert.Contains(t, errs[0], "spec.generate[0].expression")
		}
	})
	t.Run("other documents are not checked", func(t *testing.T) {
		assert.Empty(t, Policies("p.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"))
	})
	t.Run("bad YAML is an error", func(t *testing.T) {
		assert.NotEmpty(t, Policies("p.yaml", "a: [\n"))
	})
}
