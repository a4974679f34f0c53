package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

func TestAdmitPolicyIsTheAPIServersSchemaThenKyvernosWebhook(t *testing.T) {
	for _, tt := range []struct {
		name, policy, err string
		warned            bool
	}{
		{"a valid policy is admitted", cmPolicy("", "value", ""), "", false},
		{"an unknown field is a strict decoding error", replaceOnce(cmPolicy("", "value", ""), "  evaluation:\n", "  evaluation:\n    nope: 1\n"),
			`GeneratingPolicy in version "v1" cannot be handled as a GeneratingPolicy: strict decoding error: unknown field`, false},
		{"a missing required field is the API server's Invalid", replaceOnce(cmPolicy("", "value", ""), "  generate:\n", "  generate:\n  - {}\n"),
			`is invalid`, false},
		{"a CEL compile error is Kyverno's webhook's denial and its warning",
			replaceOnce(cmPolicy("", "value", ""), "generator.apply(", "generator.nope("),
			`admission webhook "validate-policy.kyverno.svc" denied the request`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			adm := h.put(tt.policy)
			if tt.err == "" {
				require.NoError(t, adm.Err)
				assert.Equal(t, 1, h.fam.policies.Len())
				return
			}
			require.Error(t, adm.Err)
			assert.Contains(t, adm.Err.Error(), tt.err)
			assert.Equal(t, tt.warned, len(adm.Warnings) > 0)
			assert.NotEmpty(t, adm.Diagnostics)
			assert.Zero(t, h.fam.policies.Len())
		})
	}
}

func TestAdmitPolicyIsKyvernosWebhookForWhatTheSchemaAllows(t *testing.T) {
	for _, tt := range []struct{ name, policy, err string }{
		{"a policy without resource rules", `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  matchConstraints: {}
  generate:
  - expression: "true"
`, "a matchConstraints with at least one resource rule is required"},
		{"http in a namespaced policy", `apiVersion: policies.kyverno.io/v1
kind: NamespacedGeneratingPolicy
metadata:
  name: p
  namespace: default
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [configmaps]
  generate:
  - expression: dyn(http.get("http://x")) != null
`, "http.* is not allowed in namespaced policies"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			adm := h.put(tt.policy)
			require.Error(t, adm.Err)
			assert.Contains(t, adm.Err.Error(), `admission webhook "validate-policy.kyverno.svc" denied the request`)
			assert.Contains(t, adm.Err.Error(), tt.err)
		})
	}
}

func TestStatusSaysWhetherAdmissionIsEnabled(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(cmPolicy("    admission:\n      enabled: false\n", "value", ""))
	live := h.get(policyRef)
	require.NotNil(t, live)
	conds, _ := live.Nested("status", "conditionStatus", "conditions")
	require.Len(t, conds, 1, "admission disabled: no WebhookConfigured condition")
	assert.Equal(t, "RBACPermissionsGranted", conds.([]any)[0].(map[string]any)["type"])
	assert.Nil(t, h.fam.Status(resource.Object{"apiVersion": "policies.kyverno.io/v1", "kind": "PolicyException", "metadata": map[string]any{"name": "x"}}),
		"an exception has no status")
}

func TestOverrideSetsTheEvaluationFields(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	yes, no := true, false
	obj := resource.Object{"apiVersion": "policies.kyverno.io/v1", "kind": "GeneratingPolicy", "spec": map[string]any{}}
	h.fam.Override(obj, generate.Override{Synchronize: &yes, OrphanDownstreamOnPolicyDelete: &no})
	assert.Equal(t, map[string]any{"synchronize": map[string]any{"enabled": true}, "orphanDownstreamOnPolicyDelete": map[string]any{"enabled": false}},
		obj["spec"].(map[string]any)["evaluation"])
	bad := resource.Object{"apiVersion": "policies.kyverno.io/v1", "kind": "GeneratingPolicy", "spec": map[string]any{"evaluation": "x"}}
	h.fam.Override(bad, generate.Override{Synchronize: &yes})
	assert.Equal(t, "x", bad["spec"].(map[string]any)["evaluation"], "a malformed field is left for validation to report")
	ex := resource.Object{"apiVersion": "policies.kyverno.io/v1", "kind": "PolicyException", "spec": map[string]any{}}
	h.fam.Override(ex, generate.Override{Synchronize: &yes})
	assert.Empty(t, ex["spec"], "an exception has nothing to override")
	_, ok := h.fam.RulePos("GeneratingPolicy/p", "")
	assert.False(t, ok, "this family diagnoses its failures itself")
	assert.False(t, h.fam.ProcessUpdateRequest(resource.Object{}))
	assert.Equal(t, "GeneratingPolicy", h.fam.Name())
}

func TestPolicyWrittenGeneratesForNewTriggersAndPolicyDeletedStops(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(cmPolicy("", "value", ""))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	got := h.get(cmRef("team", "generated"))
	require.NotNil(t, got, h.story(m))
	assert.Equal(t, "value", got["data"].(map[string]any)["key"])
	assert.True(t, h.said(m, timeline.ActionCreated, "generator.apply created it for the trigger"), h.story(m))
	v, _ := got.Label(generate.LabelTriggerName)
	assert.Equal(t, "team", v, "the CEL family's labels name the trigger")

	m = h.mark()
	h.remove(policyRef)
	assert.Nil(t, h.get(cmRef("team", "generated")), h.story(m))
	assert.True(t, h.said(m, "", "the policy was deleted with synchronize on and orphanDownstreamOnPolicyDelete false"), h.story(m))
	h.mustPut(namespaceYAML("later"))
	assert.Nil(t, h.get(cmRef("later", "generated")), "a deleted policy generates nothing")
}

func TestPolicyDeletedKeepsWhatItGeneratedWhenOrphaningOrWithoutSynchronize(t *testing.T) {
	for _, tt := range []struct{ name, evaluation, said string }{
		{"orphanDownstreamOnPolicyDelete", "    synchronize:\n      enabled: true\n    orphanDownstreamOnPolicyDelete:\n      enabled: true\n", "only stops tracking"},
		{"no synchronize", "    synchronize:\n      enabled: false\n", "tracked nothing and keeps everything"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			h.mustPut(cmPolicy(tt.evaluation, "value", ""))
			h.mustPut(namespaceYAML("team"))
			m := h.mark()
			h.remove(policyRef)
			assert.NotNil(t, h.get(cmRef("team", "generated")))
			assert.True(t, h.said(m, "", tt.said), h.story(m))
		})
	}
}

func TestExceptionsAreIgnoredUnlessEnabledAndSkipOrPassTheTrigger(t *testing.T) {
	exception := `apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata:
  name: ex
  namespace: default
spec:
  policyRefs:
  - name: p
    kind: GeneratingPolicy
  matchConditions:
  - name: team
    expression: object.metadata.name == 'exempt'
`
	h := newHarness(t, generate.FamilyConfig{})
	m := h.mark()
	h.mustPut(exception)
	assert.True(t, h.said(m, timeline.ActionNote, "PolicyExceptions are off"), h.story(m))
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("exempt"))
	assert.NotNil(t, h.get(cmRef("exempt", "generated")), "exceptions off: generated anyway")

	h = newHarness(t, generate.FamilyConfig{PolicyExceptions: true})
	h.mustPut(exception)
	h.mustPut(cmPolicy("", "value", ""))
	m = h.mark()
	h.mustPut(namespaceYAML("exempt"))
	assert.Nil(t, h.get(cmRef("exempt", "generated")), h.story(m))
	h.mustPut(namespaceYAML("other"))
	assert.NotNil(t, h.get(cmRef("other", "generated")))
	h.remove(resource.Ref{APIVersion: "policies.kyverno.io/v1", Kind: "PolicyException", Namespace: "default", Name: "ex"})
	h.mustPut(namespaceYAML("exempt2"))
	assert.NotNil(t, h.get(cmRef("exempt2", "generated")))
}

func TestRenderWebhooksWritesKyvernosValidatingWebhookConfiguration(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	ref := resource.Ref{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration", Name: webhookConfigName}
	h.mustPut(cmPolicy("", "value", ""))
	vwc := h.get(ref)
	require.NotNil(t, vwc)
	hooks := vwc["webhooks"].([]any)
	require.Len(t, hooks, 1)
	assert.Equal(t, "gpol.validate.kyverno.svc-ignore", hooks[0].(map[string]any)["name"])

	h.mustPut(replaceOnce(cmPolicy("", "value", ""), "  name: p\n", "  name: fine\n") + "  webhookConfiguration:\n    timeoutSeconds: 5\n")
	vwc = h.get(ref)
	names := []string{}
	for _, w := range vwc["webhooks"].([]any) {
		names = append(names, w.(map[string]any)["name"].(string))
	}
	assert.Equal(t, []string{"gpol.validate.kyverno.svc-ignore", "gpol.validate.kyverno.svc-ignore-finegrained-fine"}, names,
		"a timeout gives a policy its own fine-grained webhook")

	h.remove(policyRef)
	h.remove(resource.Ref{APIVersion: "policies.kyverno.io/v1", Kind: "GeneratingPolicy", Name: "fine"})
	assert.Nil(t, h.get(ref), "no policy, no configuration")
}
