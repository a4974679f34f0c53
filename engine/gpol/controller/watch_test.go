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

const noSync = "    synchronize:\n      enabled: false\n"

func TestHandleUpdateRevertsADownstreamOnlyWithSynchronize(t *testing.T) {
	for _, sync := range []bool{true, false} {
		evaluation := ""
		if !sync {
			evaluation = noSync
		}
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(cmPolicy(evaluation, "value", ""))
		h.mustPut(namespaceYAML("team"))
		m := h.mark()
		h.edit(cmRef("team", "generated"), func(o resource.Object) { o["data"] = map[string]any{"key": "edited"} })
		got := h.get(cmRef("team", "generated"))["data"].(map[string]any)["key"]
		if sync {
			assert.Equal(t, "value", got, h.story(m))
			assert.True(t, h.said(m, timeline.ActionReverted, "put back the copy it saved"), h.story(m))
		} else {
			assert.Equal(t, "edited", got)
			assert.True(t, h.said(m, timeline.ActionKept, "not reverted: synchronize is off"), h.story(m))
		}
		m = h.mark()
		h.edit(cmRef("team", "generated"), func(o resource.Object) { o.Metadata()["resourceVersion"] = o.ResourceVersion() })
		assert.False(t, h.said(m, timeline.ActionReverted, ""), "a write that changes nothing is no drift")
	}
}

func TestHandleDeleteRecreatesADeletedDownstreamOnce(t *testing.T) {
	// v1.19.1 tracks the recreated object and recreates it again (kyverno#17453).
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_1})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	for range 3 {
		before := h.get(cmRef("team", "generated")).UID()
		m := h.mark()
		h.remove(cmRef("team", "generated"))
		again := h.get(cmRef("team", "generated"))
		require.NotNil(t, again, h.story(m))
		assert.NotEqual(t, before, again.UID(), "recreated from the cache: a new UID")
		assert.True(t, h.said(m, timeline.ActionRecreated, "which its cache now tracks"), h.story(m))
	}

	// v1.19.0 recreates it once (kyverno#17265).
	h = newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_0})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	first := h.get(cmRef("team", "generated")).UID()
	m := h.mark()
	h.remove(cmRef("team", "generated"))
	again := h.get(cmRef("team", "generated"))
	require.NotNil(t, again, h.story(m))
	assert.NotEqual(t, first, again.UID(), "recreated from the cache: a new UID")
	assert.True(t, h.said(m, timeline.ActionRecreated, "recreated the downstream from its cache"), h.story(m))
	m = h.mark()
	h.remove(cmRef("team", "generated"))
	assert.Nil(t, h.get(cmRef("team", "generated")), "the second deletion is not recreated (kyverno#17265)")
	assert.True(t, h.said(m, timeline.ActionIgnored, "recreated this downstream once"), h.story(m))

	h = newHarness(t, generate.FamilyConfig{})
	h.mustPut(cmPolicy(noSync, "value", ""))
	h.mustPut(namespaceYAML("team"))
	m = h.mark()
	h.remove(cmRef("team", "generated"))
	assert.True(t, h.said(m, timeline.ActionIgnored, "not recreated: synchronize is off"), h.story(m))
}

// copyPolicy generates ConfigMap default/copy-NAME for every ConfigMap NAME
// of namespace src.
const copyPolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: copy
spec:
  evaluation:
    synchronize:
      enabled: %v
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
    namespaceSelector:
      matchLabels:
        kubernetes.io/metadata.name: src
  generate:
  - expression: >-
      generator.Apply("default", [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "copy-" + object.metadata.name}})])
`

func TestDeleteDownstreamsWhenTheTriggerGoesWithSynchronize(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(namespaceYAML("src"))
		h.mustPut(sprintf(copyPolicy, sync))
		h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: src\n")
		require.NotNil(t, h.get(cmRef("default", "copy-c")))
		m := h.mark()
		h.remove(cmRef("src", "c"))
		if sync {
			assert.Nil(t, h.get(cmRef("default", "copy-c")), h.story(m))
			assert.True(t, h.said(m, timeline.ActionDeleted, "the trigger ConfigMap src/c was deleted"), h.story(m))
		} else {
			assert.NotNil(t, h.get(cmRef("default", "copy-c")))
			assert.True(t, h.said(m, timeline.ActionKept, "does not clean up what the policy generated when its trigger is deleted"), h.story(m))
		}
	}
}

func TestATriggerUpdateRerendersOrDeletesWhatNoLongerMatches(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(replaceOnce(cmPolicy("", "value", "  matchConditions:\n  - name: gen\n    expression: object.metadata.?labels.?gen.orValue('') == 'on'\n"),
		`"data": {"key": "value"}`, `"data": {"key": string(object.metadata.labels.?tier.orValue("none"))}`))
	h.mustPut(namespaceYAML("team", "gen", "on"))
	assert.Equal(t, "none", h.get(cmRef("team", "generated"))["data"].(map[string]any)["key"])
	m := h.mark()
	h.mustPut(namespaceYAML("team", "gen", "on", "tier", "gold"))
	assert.Equal(t, "gold", h.get(cmRef("team", "generated"))["data"].(map[string]any)["key"], h.story(m))
	assert.True(t, h.said(m, timeline.ActionUpdated, "the trigger was updated"), h.story(m))
	m = h.mark()
	h.mustPut(namespaceYAML("team", "gen", "off"))
	assert.Nil(t, h.get(cmRef("team", "generated")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionDeleted, "no longer matches the policy"), h.story(m))
}

func TestPolicyUpdatedRecreatesTrackedDownstreamsOrSaysItDoesNothing(t *testing.T) {
	// v1.19.1 updates them in place (kyverno#16920).
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_1})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	before := h.get(cmRef("team", "generated")).UID()
	m := h.mark()
	h.mustPut(cmPolicy("", "changed", ""))
	got := h.get(cmRef("team", "generated"))
	require.NotNil(t, got, h.story(m))
	assert.Equal(t, "changed", got["data"].(map[string]any)["key"])
	assert.Equal(t, before, got.UID(), "v1.19.1 updates in place (kyverno#16920)")
	assert.True(t, h.said(m, timeline.ActionUpdated, "re-sync"), h.story(m))
	assert.False(t, h.said(m, timeline.ActionDeleted, ""), h.story(m))

	h = newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_0})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	first := h.get(cmRef("team", "generated")).UID()
	m = h.mark()
	h.mustPut(cmPolicy("", "changed", ""))
	got = h.get(cmRef("team", "generated"))
	require.NotNil(t, got, h.story(m))
	assert.Equal(t, "changed", got["data"].(map[string]any)["key"])
	assert.NotEqual(t, first, got.UID(), "1.19.0 deletes and recreates (kyverno#17594)")
	assert.True(t, h.said(m, timeline.ActionRecreated, "re-sync"), h.story(m))

	m = h.mark()
	h.mustPut(cmPolicy(noSync, "changed", ""))
	assert.True(t, h.said(m, "", "synchronize was turned off"), h.story(m))
	m = h.mark()
	h.mustPut(cmPolicy(noSync, "again", ""))
	assert.True(t, h.said(m, timeline.ActionNote, "the policy changed, but synchronize is off"), h.story(m))
	m = h.mark()
	h.mustPut(replaceOnce(cmPolicy(noSync, "again", ""), "  name: p\n", "  name: p\n  labels:\n    l: \"x\"\n"))
	assert.Empty(t, h.since(m), "a metadata change re-syncs nothing:\n%s", h.story(m))
}

func TestBackgroundScanAndRestartResync(t *testing.T) {
	// v1.19.1's scan leaves a downstream the policy renders the same (kyverno#16920).
	h := newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_1})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	before := h.get(cmRef("team", "generated")).UID()
	m := h.mark()
	h.scan()
	assert.Equal(t, before, h.get(cmRef("team", "generated")).UID(), h.story(m))
	assert.False(t, h.said(m, timeline.ActionDeleted, ""), h.story(m))

	// v1.19.0's scan deletes and recreates it (kyverno#17594).
	h = newHarness(t, generate.FamilyConfig{Kyverno: upstream.V1_19_0})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	m = h.mark()
	h.scan()
	assert.True(t, h.said(m, "", "re-sync"), h.story(m))
	uid := h.get(cmRef("team", "generated")).UID()
	m = h.mark()
	h.restart()
	assert.True(t, h.said(m, timeline.ActionNote, "background controller restarted"), h.story(m))
	assert.Equal(t, uid, h.get(cmRef("team", "generated")).UID(), "a cache restore changes nothing")
	m = h.mark()
	h.edit(cmRef("team", "generated"), func(o resource.Object) { o["data"] = map[string]any{"key": "edited"} })
	assert.True(t, h.said(m, timeline.ActionReverted, ""), "tracked again after the restore:\n%s", h.story(m))

	empty := newHarness(t, generate.FamilyConfig{})
	m = empty.mark()
	empty.restart()
	assert.Empty(t, empty.since(m), "no policy: nothing to say")
}

func TestGenerateExistingRunsForTriggersThatWereThere(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("before"))
	m := h.mark()
	h.mustPut(cmPolicy("    synchronize:\n      enabled: true\n    generateExisting:\n      enabled: true\n", "value", ""))
	assert.NotNil(t, h.get(cmRef("before", "generated")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionCreated, "generateExisting is on"), h.story(m))
}

// clonePolicy clones ConfigMap platform/src into every new namespace.
const clonePolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: clone
spec:
  evaluation:
    synchronize:
      enabled: %v
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [namespaces]
  variables:
  - name: src
    expression: resource.Get("v1", "configmaps", "platform", "src")
  generate:
  - expression: generator.Apply(object.metadata.name, [variables.src])
`

func TestTheWatchFollowsACloneSource(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(namespaceYAML("platform"))
		h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: src\n  namespace: platform\ndata:\n  k: v1\n")
		h.mustPut(sprintf(clonePolicy, sync))
		h.mustPut(namespaceYAML("team"))
		clone := h.get(cmRef("team", "src"))
		require.NotNil(t, clone)
		uid, _ := clone.Label(generate.LabelSourceUID)
		assert.Equal(t, h.get(cmRef("platform", "src")).UID(), uid)
		m := h.mark()
		h.edit(cmRef("platform", "src"), func(o resource.Object) { o["data"] = map[string]any{"k": "v2"} })
		got := h.get(cmRef("team", "src"))["data"].(map[string]any)["k"]
		if sync {
			assert.Equal(t, "v2", got, h.story(m))
			assert.True(t, h.said(m, timeline.ActionUpdated, "its clone source"), h.story(m))
		} else {
			assert.Equal(t, "v1", got)
			assert.True(t, h.said(m, timeline.ActionKept, "not propagated: synchronize is off"), h.story(m))
		}
		m = h.mark()
		h.remove(cmRef("platform", "src"))
		if sync {
			assert.Nil(t, h.get(cmRef("team", "src")), h.story(m))
		}
		m = h.mark()
		h.remove(sourcePolicyRef)
		if sync {
			assert.True(t, h.said(m, "", "a clone (it carries generate.kyverno.io/source-uid) is never deleted with its policy") || h.get(cmRef("team", "src")) == nil, h.story(m))
		}
	}
}

var sourcePolicyRef = resource.Ref{APIVersion: "policies.kyverno.io/v1", Kind: "GeneratingPolicy", Name: "clone"}

func TestRemovingTheLastPolicyOfAKindClearsTheWatch(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(cmPolicy("", "value", ""))
	h.mustPut(namespaceYAML("team"))
	h.remove(policyRef)
	m := h.mark()
	h.mustPut(`apiVersion: v1
kind: ConfigMap
metadata:
  name: generated
  namespace: team
data:
  key: by-hand
`)
	assert.Empty(t, h.since(m), "nothing watches it any more:\n%s", h.story(m))
}

func TestHashContentIgnoresServerFields(t *testing.T) {
	a := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"},
		"metadata": map[string]any{"name": "c", "resourceVersion": "1", "uid": "u", "managedFields": []any{}, "labels": map[string]any{"l": "1"}}}
	b := a.DeepCopy()
	b.Metadata()["resourceVersion"] = "9"
	b.Metadata()["generation"] = 4.0
	assert.True(t, resource.Equal(hashContent(a), hashContent(b)))
	b["data"] = map[string]any{"k": "w"}
	assert.False(t, resource.Equal(hashContent(a), hashContent(b)))
}
