package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

func TestAdmitPolicyIsTheAPIServersAndKyvernosPolicyWebhook(t *testing.T) {
	tests := []struct {
		name, policy string
		err          string // "" admits
		warns        []string
		kyverno      upstream.Version // "": the latest
	}{
		{"a valid policy is admitted with Kyverno v1.19.1's deprecation warning, which names the API version", dataPolicy(true, "", "", ""), "",
			[]string{"kyverno.io/v1 ClusterPolicy is deprecated and will be removed in a future release; migrate to ValidatingPolicy, MutatingPolicy, GeneratingPolicy or ImageValidatingPolicy (policies.kyverno.io), see https://kyverno.io/docs/guides/migration-to-cel/"}, ""},
		{"Kyverno v1.19.0's deprecation warning names the kind and group (kyverno#17362)", dataPolicy(true, "", "", ""), "",
			[]string{"ClusterPolicy (kyverno.io) is deprecated and will be removed in a future release; migrate to ValidatingPolicy, MutatingPolicy, GeneratingPolicy or ImageValidatingPolicy (policies.kyverno.io), see https://kyverno.io/docs/guides/migration-to-cel/"}, upstream.V1_19_0},
		{"Kyverno v1.18.2 admits a legacy policy without a warning (kyverno#16868)", dataPolicy(true, "", "", ""), "", nil, upstream.V1_18_2},
		{"an unknown field is the API server's strict decoding error, before Kyverno sees it", dataPolicy(true, "      synchronise: true\n", "", ""),
			`ClusterPolicy in version "v1" cannot be handled as a ClusterPolicy: strict decoding error: unknown field "spec.rules[0].generate.synchronise"`, nil, ""},
		{"a rule Kyverno's webhook refuses is denied by validate-policy.kyverno.svc", dataPolicy(true, "", "", "  background: true\n  validationFailureAction: Nope\n"),
			`admission webhook "validate-policy.kyverno.svc" denied the request`, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{Kyverno: tt.kyverno})
			adm := h.put(tt.policy)
			if tt.warns == nil && tt.err == "" {
				assert.Empty(t, adm.Warnings)
			}
			if tt.err == "" {
				require.NoError(t, adm.Err)
				require.NotNil(t, h.policyKeyed("ClusterPolicy/p"), "PolicyWritten stored what AdmitPolicy parsed")
			} else {
				require.Error(t, adm.Err)
				assert.Contains(t, adm.Err.Error(), tt.err)
				assert.Nil(t, h.policyKeyed("ClusterPolicy/p"))
				assert.NotEmpty(t, adm.Diagnostics, "the diagnostics point at the YAML")
			}
			for _, w := range tt.warns {
				assert.Contains(t, adm.Warnings, w)
			}
		})
	}
}

func TestAdmitPolicyChecksThePermissionsOfKyvernosServiceAccount(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{Permissions: "kyverno-e2e"})
	adm := h.put(dataPolicy(true, "", "", "") + "") // ConfigMaps: the e2e install may manage them
	require.NoError(t, adm.Err)
	secret := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: q
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: storage.k8s.io/v1
      kind: StorageClass
      name: s
      synchronize: true
      data:
        provisioner: x
`
	adm = h.put(secret)
	require.Error(t, adm.Err)
	assert.Contains(t, adm.Err.Error(), "requires permissions")
}

func TestAdmitPolicyValidatesAnUpdateAgainstTheLivePolicy(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	adm := h.put(dataPolicy(true, "", "", "") + "") // the same again: admitted, an update
	require.NoError(t, adm.Err)
	target := replaceOnce(dataPolicy(true, "", "", ""), "name: generated", "name: renamed")
	adm = h.put(target)
	require.NoError(t, adm.Err, "a new target is allowed")
	assert.Contains(t, adm.Warnings[0], "stale", "with a warning that the old downstreams stay")
	match := replaceOnce(target, "kinds: [Namespace]", "kinds: [Namespace]\n          names: [\"team-*\"]")
	adm = h.put(match)
	require.Error(t, adm.Err, "with synchronize, a generate rule's match may not change")
}

func TestOverrideForcesSynchronizeAndOrphaningOnEveryGenerateRule(t *testing.T) {
	_, obj := doc(t, dataPolicy(false, "", "", ""))
	yes, no := true, false
	h := newHarness(t, generate.FamilyConfig{})
	h.fam.Override(obj, generate.Override{Synchronize: &yes, OrphanDownstreamOnPolicyDelete: &no})
	g, _ := obj.Nested("spec", "rules")
	gen := g.([]any)[0].(map[string]any)["generate"].(map[string]any)
	assert.Equal(t, true, gen["synchronize"])
	assert.Equal(t, false, gen["orphanDownstreamOnPolicyDelete"])
	h.fam.Override(obj, generate.Override{})
	assert.Equal(t, true, gen["synchronize"], "a nil field leaves the policy's value")
}

func TestStatusIsReadyAndPolicyWrittenIgnoresAnotherPolicy(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	st := h.fam.Status(nil)
	assert.Equal(t, "Ready", st["conditions"].([]any)[0].(map[string]any)["type"])
	h.fam.PolicyWritten(nil, resource.Object{"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy", "metadata": map[string]any{"name": "x"}})
	assert.Zero(t, h.fam.policies.Len(), "nothing was admitted")
}

func TestRulePosPointsAtTheFailedRulesGenerateBlock(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	pos, ok := h.fam.RulePos("ClusterPolicy/p", "r")
	require.True(t, ok)
	assert.Equal(t, 12, pos.Line, "the generate block of rule r")
	pos, ok = h.fam.RulePos("ClusterPolicy/p", "gone")
	require.True(t, ok)
	assert.Equal(t, 6, pos.Line, "a rule that is not there: the rules")
	_, ok = h.fam.RulePos("ClusterPolicy/none", "r")
	assert.False(t, ok)
}

func TestPolicyDeletedForgetsThePolicyAndObserveAndRestartDoNothing(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.fam.Observe(generate.WatchEvent{})
	h.fam.Restart()
	require.NotNil(t, h.policyKeyed("ClusterPolicy/p"))
	h.remove(resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "p"})
	assert.Nil(t, h.policyKeyed("ClusterPolicy/p"))
	assert.Equal(t, "ClusterPolicy", h.fam.Name())
}

func TestTheFamilysEventsNameThePolicy(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	require.True(t, h.said(m, timeline.ActionCreated, "the rule matched the new trigger"), h.story(m))
	for _, e := range h.since(m) {
		if e.Action == timeline.ActionCreated {
			assert.Equal(t, "ClusterPolicy/p", e.Policy)
			assert.Equal(t, "r", e.Rule)
		}
	}
}
