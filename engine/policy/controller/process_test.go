package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// foreachPolicy generates a ConfigMap per element of the trigger
// ConfigMap's comma-separated data.names.
const foreachPolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: fe
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          names: [list]
    generate:
      synchronize: true
      foreach:
      - list: "request.object.data.names | split(@, ',')"
        preconditions:
          all:
          - key: '{{element}}'
            operator: NotEquals
            value: skip
        apiVersion: v1
        kind: Secret
        name: 'fe-{{element}}'
        namespace: default
        data:
          data: {}
`

func listCM(names string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: list\n  namespace: default\ndata:\n  names: " + names + "\n"
}

func TestApplyRuleGeneratesOneTargetPerForeachElement(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(foreachPolicy)
	m := h.mark()
	h.mustPut(listCM("a,skip,b"))
	assert.NotNil(t, h.get(secretRef("default", "fe-a")), h.story(m))
	assert.NotNil(t, h.get(secretRef("default", "fe-b")))
	assert.Nil(t, h.get(secretRef("default", "fe-skip")))
	assert.True(t, h.said(m, timeline.ActionSkipped, "foreach[0] element 1"), h.story(m))

	m = h.mark()
	h.edit(cmRef("default", "list"), func(o resource.Object) { o["data"] = map[string]any{"names": "a"} })
	assert.NotNil(t, h.get(secretRef("default", "fe-b")), "an element that left the list keeps its downstream")
	assert.True(t, h.said(m, timeline.ActionKept, "its element left the foreach list"), h.story(m))
}

func TestApplyRuleFailsAForeachWhoseListIsNotAList(t *testing.T) {
	for _, tt := range []struct{ list, want string }{
		{"request.object.data.names", "is not a list"},
		{"request.object.data.names | split(@", "foreach[0].list"},
	} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(replaceOnce(foreachPolicy, "request.object.data.names | split(@, ',')", tt.list))
		m := h.mark()
		h.mustPut(listCM("a"))
		assert.True(t, h.said(m, timeline.ActionFailed, tt.want), h.story(m))
	}
}

func TestApplyRuleStopsAtMaxForEachElements(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{}, generate.Options{MaxForEachElements: 2})
	h.mustPut(foreachPolicy)
	m := h.mark()
	h.mustPut(listCM("a,b,c"))
	assert.True(t, h.said(m, timeline.ActionFailed, "has 3 elements; genplay processes at most 2"), h.story(m))
	assert.Nil(t, h.get(secretRef("default", "fe-a")))
}

func TestRenderReportsAVariableItCannotSubstitute(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "name: generated", "name: '{{request.object.metadata.nope}}'"))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	assert.True(t, h.said(m, timeline.ActionFailed, "variable substitution failed: name:"), h.story(m))
}

func TestGenerateTargetFailsDataThatIsNotAnObject(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "      data:\n        data:\n          key: value\n", "      data: '{{request.object.metadata.name}}'\n"))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	assert.True(t, h.said(m, timeline.ActionFailed, "generate.data is not an object"), h.story(m))
}

func TestGenerateTargetClonesASourceAndFailsAMissingOne(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("platform"))
	h.mustPut(clonePolicy(true))
	m := h.mark()
	h.mustPut(namespaceYAML("team-a"))
	assert.True(t, h.said(m, timeline.ActionFailed, "source resource Secret platform/regcred not found"), h.story(m))
	h.mustPut(sprintf(regcred, "djE="))
	h.mustPut(namespaceYAML("team-b"))
	got := h.get(secretRef("team-b", "regcred"))
	require.NotNil(t, got)
	v, _ := got.Label(generate.LabelSourceUID)
	assert.Equal(t, h.get(secretRef("platform", "regcred")).UID(), v, "the clone carries its source's labels")
}

const cloneListPolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: cl
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Namespace]
          names: ["team-*"]
    generate:
      namespace: '{{request.object.metadata.name}}'
      synchronize: true
      cloneList:
        namespace: platform
        kinds: [v1/Secret, ConfigMap]
        selector:
          matchLabels:
            share: "yes"
`

func TestGenerateTargetClonesEverySourceACloneListSelects(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("platform"))
	h.mustPut("apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n  namespace: platform\n  labels:\n    share: \"yes\"\n")
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: platform\n  labels:\n    share: \"yes\"\n")
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: private\n  namespace: platform\n")
	h.mustPut(cloneListPolicy)
	h.mustPut(namespaceYAML("team-a"))
	assert.NotNil(t, h.get(secretRef("team-a", "s")))
	assert.NotNil(t, h.get(cmRef("team-a", "c")))
	assert.Nil(t, h.get(cmRef("team-a", "private")), "not selected")
	// A source in the target namespace is skipped (manageCloneList).
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: team-a\n  labels:\n    share: \"yes\"\n")
}

func TestSyncAdoptsAnExistingObjectOnlyWithSynchronize(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(dataPolicy(sync, "", "", ""))
		h.mustPut(namespaceYAML("team"))
		h.remove(nsRef("team"))
		h.mustPut(namespaceYAML("team"))
		// The same name, written by a user before the trigger updates.
		h.edit(cmRef("team", "generated"), func(o resource.Object) {
			o.SetLabels(nil)
			o["data"] = map[string]any{"key": "mine"}
		})
		m := h.mark()
		h.edit(nsRef("team"), func(o resource.Object) { o.SetLabels(map[string]string{"touch": "1"}) })
		got := h.get(cmRef("team", "generated"))
		if sync {
			assert.Equal(t, map[string]any{"key": "value"}, got["data"], h.story(m))
		} else {
			assert.True(t, h.said(m, timeline.ActionKept, "the downstream exists and synchronize is false"), h.story(m))
		}
	}
}

func TestSyncNotesLabelsManageLabelsDropped(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "      data:\n        data:\n", "      data:\n        metadata:\n          labels:\n            num: 3\n            keep: x\n        data:\n"))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	got := h.get(cmRef("team", "generated"))
	require.NotNil(t, got)
	_, kept := got.Label("keep")
	assert.False(t, kept, "one non-string value drops every label of the rule's")
	assert.True(t, h.said(m, timeline.ActionNote, "non-string value (num: 3)"), h.story(m))
}

func TestSyncWithServerSideApplyKeepsAnotherWritersFields(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", "  useServerSideApply: true\n"))
	h.mustPut(namespaceYAML("team"))
	m := h.mark()
	h.edit(cmRef("team", "generated"), func(o resource.Object) {
		o["data"].(map[string]any)["key"] = "drifted"
		o.Metadata()["annotations"] = map[string]any{"theirs": "x"}
	})
	got := h.get(cmRef("team", "generated"))
	assert.Equal(t, "value", got["data"].(map[string]any)["key"], h.story(m))
	assert.Equal(t, map[string]any{"theirs": "x"}, got.Metadata()["annotations"], "a forced apply takes back its field, another writer's stays")
	m = h.mark()
	h.scan()
	assert.False(t, h.said(m, timeline.ActionReverted, ""), "a scan whose apply changes nothing writes nothing:\n%s", h.story(m))
}

func TestProcessFailsAnUpdateRequestWhoseTriggerIsGone(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	p := h.policyKeyed("ClusterPolicy/p")
	m := h.mark()
	ref := cmRef("team", "generated")
	h.fam.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: "r",
		trigger: trigger{GVK: resource.GVK{Version: "v1", Kind: "Namespace"}, UID: "gone"},
		cause:   cause{kind: causeDownstreamDeleted, object: &ref}})
	h.core.Reconcile()
	assert.True(t, h.said(m, timeline.ActionFailed, "the trigger named in the downstream's labels no longer exists"), h.story(m))

	m = h.mark()
	h.fam.enqueue(&updateRequest{kind: urGenerate, policy: p, rule: "nope", trigger: triggerOf(h.get(nsRef("team")))})
	h.fam.enqueue(&updateRequest{kind: urCleanupRule, policy: p, rule: "nope"})
	h.fam.enqueue(&updateRequest{kind: urDeleteDownstream, policy: p, rule: "nope"})
	h.core.Reconcile()
	assert.Empty(t, h.since(m), "a rule that is not in the policy does nothing")
}

func TestProcessSaysAnOperationsLimitedRuleDoesNothingInTheBackground(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "kinds: [Namespace]", "kinds: [Namespace]\n          operations: [CREATE]"))
	h.mustPut(namespaceYAML("team"))
	m := h.mark()
	h.remove(cmRef("team", "generated"))
	assert.True(t, h.said(m, timeline.ActionSkipped, "Kyverno's background request carries no operation"), h.story(m))
	assert.Nil(t, h.get(cmRef("team", "generated")))
}

func TestCreateAndUpdateReasonsNameTheCause(t *testing.T) {
	p := &updateRequest{}
	for _, tt := range []struct {
		c      cause
		action string
		want   string
	}{
		{cause{kind: causeTriggerCreated}, timeline.ActionCreated, "matched the new trigger"},
		{cause{kind: causeTriggerDeleted}, timeline.ActionCreated, "DELETE operation"},
		{cause{kind: causeSourceChanged}, timeline.ActionCreated, "clone source"},
		{cause{kind: causePolicyUpdated}, timeline.ActionCreated, "re-applied"},
		{cause{kind: causeGenerateExisting, policyEvent: causeBackgroundScan}, timeline.ActionCreated, "background scan"},
		{cause{kind: causeGenerateExisting}, timeline.ActionCreated, "the policy was applied"},
		{cause{kind: causeRuleRemoved}, timeline.ActionCreated, "the rule applied to the trigger"},
	} {
		p.cause = tt.c
		action, reason := createReason(nil, p)
		assert.Equal(t, tt.action, action)
		assert.Contains(t, reason, tt.want)
	}
	for _, tt := range []struct {
		c              cause
		adopted, clone bool
		action, want   string
	}{
		{cause{kind: causeDownstreamChanged}, false, false, timeline.ActionReverted, "downstream was changed"},
		{cause{kind: causeTriggerCreated}, true, false, timeline.ActionUpdated, "adopted it"},
		{cause{kind: causeSourceChanged}, false, false, timeline.ActionUpdated, "clone source"},
		{cause{kind: causePolicyUpdated}, false, false, timeline.ActionUpdated, "data is propagated"},
		{cause{kind: causeBackgroundScan}, false, false, timeline.ActionReverted, "background scan"},
		{cause{kind: causeGenerateExisting}, false, true, timeline.ActionUpdated, "re-cloned"},
		{cause{kind: causeGenerateExisting}, false, false, timeline.ActionUpdated, "re-rendered"},
		{cause{kind: causeRuleRemoved}, false, false, timeline.ActionUpdated, "synchronize is true"},
	} {
		p.cause = tt.c
		action, reason := updateReason(p, tt.adopted, tt.clone)
		assert.Equal(t, tt.action, action)
		assert.Contains(t, reason, tt.want)
	}
}
