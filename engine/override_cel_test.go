package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
)

// TestOverrideReachesCELPolicies: Options.Override (the outcome matrix's
// columns) sets a GeneratingPolicy's evaluation fields as it sets a
// ClusterPolicy's rules: with synchronize forced off, a deleted downstream
// stays deleted; forced on, it comes back.
func TestOverrideReachesCELPolicies(t *testing.T) {
	scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cel-override
spec:
  steps:
  - try:
    - apply:
        resource:
` + indent(gpolNetpol(0, true, false, "CREATE"), 10) + `
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
            labels:
              netpol: "on"
  - try:
    - delete:
        ref:
          apiVersion: networking.k8s.io/v1
          kind: NetworkPolicy
          namespace: team-a
          name: default-deny
`
	recreated := func(res *timeline.Result) bool {
		require.True(t, len(res.Steps) >= 2, "%v", res.Diagnostics)
		for _, e := range res.Steps[len(res.Steps)-1].Events {
			if e.Action == timeline.ActionRecreated && e.Object != nil && e.Object.Kind == "NetworkPolicy" {
				return true
			}
		}
		return false
	}
	off, on := false, true
	assert.True(t, recreated(Run("cel.yaml", []byte(scenario), Options{Families: celFamilies})), "as written: synchronize on")
	res := Run("cel.yaml", []byte(scenario), Options{Families: celFamilies, Override: &Override{Synchronize: &off}})
	assert.False(t, recreated(res), "synchronize forced off")
	policy := res.ClusterAfter(0).Objects()
	found := false
	for _, o := range policy {
		if o.Kind() == "GeneratingPolicy" {
			v, _ := o.Nested("spec", "evaluation", "synchronize", "enabled")
			assert.Equal(t, false, v)
			found = true
		}
	}
	assert.True(t, found, "the policy is in the cluster")
	noSync := Run("cel.yaml", []byte(strings.Replace(scenario, "enabled: true", "enabled: false", 1)), Options{Families: celFamilies, Override: &Override{Synchronize: &on}})
	assert.True(t, recreated(noSync), "synchronize forced on")
}
