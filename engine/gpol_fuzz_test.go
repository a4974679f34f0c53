package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
)

// FuzzCELScenario runs a scenario whose GeneratingPolicy's generate
// expression is the fuzzer's text over a trigger Namespace, its deletion
// and a downstream edit: whatever the expression, the run never panics,
// ends, and replays byte for byte.
func FuzzCELScenario(f *testing.F) {
	for _, seed := range []string{
		`generator.apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "x"}})])`,
		`generator.apply(object.metadata.name, [resource.get("v1", "secrets", "default", "src")])`,
		`generator.apply("", resource.list("v1", "configmaps", "default"))`,
		`generator.apply(object.metadata.name, [dyn({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": object.metadata.name}})])`,
		`lists.range(100000).all(i, generator.apply(string(i), []))`,
		`generator.apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap"})])`,
		`1 == 1`, `(`, `http.get("http://example.com") == null`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		if len(expr) > 2000 {
			return
		}
		quoted := "'" + strings.ReplaceAll(strings.ReplaceAll(expr, "\n", " "), "'", "''") + "'"
		scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: fuzz
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: fuzz
          spec:
            evaluation:
              synchronize:
                enabled: true
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE, UPDATE]
                resources: [namespaces]
            generate:
            - expression: ` + quoted + `
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team
    - delete:
        ref:
          apiVersion: v1
          kind: ConfigMap
          namespace: team
          name: x
    - delete:
        ref:
          apiVersion: v1
          kind: Namespace
          name: team
`
		run := func() []byte {
			res := Run("fuzz.yaml", []byte(scenario), Options{Families: celFamilies})
			require.False(t, IsInternalError(res), "%v", res.Diagnostics)
			out, err := timeline.Marshal(res)
			require.NoError(t, err)
			return out
		}
		require.Equal(t, string(run()), string(run()), "the same input gives the same bytes")
	})
}
