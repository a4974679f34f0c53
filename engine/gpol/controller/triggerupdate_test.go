package controller

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// annotatedPolicy generates the ConfigMap "generated" in every Namespace
// labelled opt-in: "true" (a matchCondition), its data the Namespace's
// annotation "quota".
func annotatedPolicy(sync bool) string {
	return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  evaluation:
    synchronize:
      enabled: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
  matchConditions:
  - name: opt-in
    expression: object.metadata.?labels["opt-in"].orValue("") == "true"
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "generated"}, "data": {"quota": object.metadata.?annotations["quota"].orValue("10")}})])
`, sync)
}

func annotate(key, value string) func(resource.Object) {
	return func(o resource.Object) {
		md := o.Metadata()
		a, _ := md["annotations"].(map[string]any)
		if a == nil {
			a = map[string]any{}
		}
		a[key] = value
		md["annotations"] = a
	}
}

func quota(o resource.Object) any { return o["data"].(map[string]any)["quota"] }

func TestTriggerUpdateRewritesTheDownstreamInPlaceFromV1190(t *testing.T) {
	for _, v := range []upstream.Version{upstream.V1_19_0, upstream.V1_19_1} {
		for _, sync := range []bool{true, false} {
			h := newHarness(t, generate.FamilyConfig{Kyverno: v})
			h.mustPut(annotatedPolicy(sync))
			h.mustPut(namespaceYAML("team", "opt-in", "true"))
			before := h.get(cmRef("team", "generated"))
			require.NotNil(t, before)
			m := h.mark()
			h.edit(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team"}, annotate("quota", "50"))
			after := h.get(cmRef("team", "generated"))
			require.NotNil(t, after, h.story(m))
			assert.Equal(t, "50", quota(after), "%s sync=%t: %s", v, sync, h.story(m))
			assert.Equal(t, before.UID(), after.UID(), "%s sync=%t: updated in place", v, sync)
			assert.True(t, h.said(m, timeline.ActionUpdated, "kyverno#16838"), h.story(m))
			assert.False(t, h.said(m, timeline.ActionDeleted, ""), h.story(m))
		}
	}
}

func TestTriggerUpdateRecreatesASynchronizedDownstreamInV1182(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_18_2})
	h.mustPut(annotatedPolicy(true))
	h.mustPut(namespaceYAML("team", "opt-in", "true"))
	before := h.get(cmRef("team", "generated"))
	m := h.mark()
	h.edit(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team"}, annotate("quota", "50"))
	after := h.get(cmRef("team", "generated"))
	require.NotNil(t, after, h.story(m))
	assert.Equal(t, "50", quota(after), h.story(m))
	assert.NotEqual(t, before.UID(), after.UID(), "deleted and created again: a new UID")
	assert.True(t, h.said(m, timeline.ActionDeleted, "before running the policy again"), h.story(m))
	assert.True(t, h.said(m, timeline.ActionRecreated, "Kyverno v1.18.2 and earlier delete a synchronized downstream on a trigger update"), h.story(m))

	// The recreated object is tracked: its deletion is reverted.
	m = h.mark()
	h.remove(cmRef("team", "generated"))
	assert.NotNil(t, h.get(cmRef("team", "generated")), h.story(m))
}

func TestTriggerUpdateLeavesADownstreamWithoutSynchronizeInV1182(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_18_2})
	h.mustPut(annotatedPolicy(false))
	h.mustPut(namespaceYAML("team", "opt-in", "true"))
	before := h.get(cmRef("team", "generated"))
	m := h.mark()
	h.edit(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team"}, annotate("quota", "50"))
	after := h.get(cmRef("team", "generated"))
	assert.Equal(t, "10", quota(after), h.story(m))
	assert.Equal(t, before.ResourceVersion(), after.ResourceVersion(), "not written at all")
	assert.True(t, h.said(m, timeline.ActionKept, "leaves a downstream that exists as it is"), h.story(m))
}

func TestTriggerOutOfTheMatchConditions(t *testing.T) {
	optOut := func(o resource.Object) { o.SetLabels(map[string]string{"opt-in": "false"}) }
	ns := resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team"}

	// v1.19.0 sees the update (its webhook filters CREATE only) and deletes.
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_0})
	h.mustPut(annotatedPolicy(true))
	h.mustPut(namespaceYAML("team", "opt-in", "true"))
	m := h.mark()
	h.edit(ns, optOut)
	assert.Nil(t, h.get(cmRef("team", "generated")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionDeleted, "no longer matches the policy (a matchCondition is false)"), h.story(m))

	// v1.18.2's API server does not send it: the downstream stays, and
	// stays synchronized.
	h = newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_18_2})
	h.mustPut(annotatedPolicy(true))
	h.mustPut(namespaceYAML("team", "opt-in", "true"))
	m = h.mark()
	h.edit(ns, optOut)
	assert.NotNil(t, h.get(cmRef("team", "generated")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionKept, "never saw it: its webhook carries the policy's matchConditions, which are false for it"), h.story(m))
	m = h.mark()
	h.remove(cmRef("team", "generated"))
	assert.NotNil(t, h.get(cmRef("team", "generated")), "still tracked and recreated: %s", h.story(m))

}

// copyOutPolicy copies every ConfigMap labelled copy: "yes" into the
// Namespace "copies", under the trigger's name.
const copyOutPolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  evaluation:
    synchronize:
      enabled: true
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
  matchConditions:
  - name: copy
    expression: object.metadata.?labels["copy"].orValue("") == "yes"
  generate:
  - expression: >-
      generator.Apply("copies", [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": object.metadata.name}, "data": {"from": object.metadata.namespace}})])
`

func TestTriggerDeletedWithMatchConditionsOnObject(t *testing.T) {
	for _, v := range upstream.Versions() {
		h := newHarness(t, generate.FamilyConfig{Kyverno: v})
		h.mustPut(copyOutPolicy)
		h.mustPut(namespaceYAML("copies"))
		h.mustPut(namespaceYAML("src"))
		h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: src\n  labels:\n    copy: \"yes\"\n")
		require.NotNil(t, h.get(cmRef("copies", "settings")))
		m := h.mark()
		h.remove(cmRef("src", "settings"))
		if inPlaceOnTriggerUpdate.In(v) {
			assert.Nil(t, h.get(cmRef("copies", "settings")), "%s: %s", v, h.story(m))
			continue
		}
		// v1.18.2: object is null on DELETE, the condition an error, the
		// webhook skipped.
		assert.NotNil(t, h.get(cmRef("copies", "settings")), "%s: %s", v, h.story(m))
		assert.True(t, h.said(m, timeline.ActionKept, "not deleted: the trigger was deleted, but Kyverno v1.18.2 never saw it"), h.story(m))
		assert.True(t, h.said(m, timeline.ActionKept, "no such key"), h.story(m))
	}
}

// kindPolicy generates, in every Namespace, a ConfigMap, or a Secret when
// the Namespace is labelled kind: secret.
const kindPolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
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
  - expression: >-
      generator.Apply(object.metadata.name, [object.metadata.?labels["kind"].orValue("") == "secret" ?
      dyn({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "generated"}, "stringData": {"k": "v"}}) :
      dyn({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "generated"}, "data": {"k": "v"}})])
`

func TestStaleKindCleanupIsScopedToTheTriggerFromV1190(t *testing.T) {
	for _, v := range upstream.Versions() {
		h := newHarness(t, generate.FamilyConfig{Kyverno: v})
		h.mustPut(kindPolicy)
		h.mustPut(namespaceYAML("a"))
		h.mustPut(namespaceYAML("b"))
		require.NotNil(t, h.get(cmRef("b", "generated")))
		m := h.mark()
		h.edit(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "a"}, func(o resource.Object) { o.SetLabels(map[string]string{"kind": "secret"}) })
		assert.NotNil(t, h.get(resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "a", Name: "generated"}), "%s: %s", v, h.story(m))
		assert.Nil(t, h.get(cmRef("a", "generated")), "%s: %s", v, h.story(m))
		if !gpolScoped(v) {
			assert.Nil(t, h.get(cmRef("b", "generated")), "%s deletes the other trigger's ConfigMap too: %s", v, h.story(m))
			assert.True(t, h.said(m, timeline.ActionDeleted, "deletes every ConfigMap the policy generated, for any trigger"), h.story(m))
			continue
		}
		assert.NotNil(t, h.get(cmRef("b", "generated")), "%s keeps the other trigger's ConfigMap: %s", v, h.story(m))
		// ... and keeps it synchronized.
		m = h.mark()
		h.remove(cmRef("b", "generated"))
		assert.NotNil(t, h.get(cmRef("b", "generated")), "%s: %s", v, h.story(m))
	}
}

func gpolScoped(v upstream.Version) bool { return scopedCleanup.In(v) }
