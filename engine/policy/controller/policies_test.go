package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

var policyRef = resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: "p"}

func TestPolicyUpdatedPropagatesDataOnlyWithSynchronize(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(dataPolicy(sync, "", "", ""))
		h.mustPut(namespaceYAML("team"))
		m := h.mark()
		h.mustPut(replaceOnce(dataPolicy(sync, "", "", ""), "key: value", "key: new"))
		got := h.get(cmRef("team", "generated"))
		if sync {
			assert.Equal(t, "new", got["data"].(map[string]any)["key"], h.story(m))
			assert.True(t, h.said(m, timeline.ActionUpdated, "its data is propagated to every downstream"), h.story(m))
		} else {
			assert.Equal(t, "value", got["data"].(map[string]any)["key"])
			assert.True(t, h.said(m, timeline.ActionKept, "not propagated: synchronize is false"), h.story(m))
		}
	}
}

func TestPolicyUpdatedIgnoresAMetadataOnlyChange(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	m := h.mark()
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "  name: p\n", "  name: p\n  labels:\n    x: z\n"))
	assert.Empty(t, h.since(m), "Kyverno reacts to spec changes only:\n%s", h.story(m))
}

func TestPolicyUpdatedCleansUpARemovedRuleAndUnlabelsAChangedTarget(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	m := h.mark()
	h.mustPut(replaceOnce(dataPolicy(true, "", "", ""), "name: generated", "name: renamed"))
	old := h.get(cmRef("team", "generated"))
	require.NotNil(t, old, "the old downstream stays")
	_, tracked := old.Label(generate.LabelPolicyName)
	assert.False(t, tracked, "without the policy labels")
	assert.True(t, h.said(m, timeline.ActionUnlabelled, "stale target"), h.story(m))
	assert.Nil(t, h.get(cmRef("team", "renamed")), "the new target waits for the trigger's next update (no generateExisting)")

	h = newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	m = h.mark()
	h.mustPut(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: other
    match:
      any:
      - resources:
          kinds: [Pod]
    validate:
      message: x
      pattern:
        metadata:
          name: "?*"
`)
	assert.Nil(t, h.get(cmRef("team", "generated")), "the removed rule's downstreams go:\n%s", h.story(m))
	assert.True(t, h.said(m, timeline.ActionDeleted, "the rule was removed from the policy"), h.story(m))
}

func TestPolicyDeletedDeletesOrOrphansWhatItGenerated(t *testing.T) {
	for _, tt := range []struct {
		name, extra string
		sync        bool
		kept        bool
		said        string
	}{
		{"synchronize deletes", "", true, false, "so Kyverno deletes what the rule generated"},
		{"orphanDownstreamOnPolicyDelete keeps", "      orphanDownstreamOnPolicyDelete: true\n", true, true, "the downstream is orphaned and kept"},
		{"without synchronize nothing is deleted", "", false, true, "Kyverno never deletes what the rule generated"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			h.mustPut(dataPolicy(tt.sync, tt.extra, "", ""))
			h.mustPut(namespaceYAML("team"))
			m := h.mark()
			h.remove(policyRef)
			assert.Equal(t, tt.kept, h.get(cmRef("team", "generated")) != nil, h.story(m))
			assert.True(t, h.said(m, "", tt.said) || saidAny(h, m, tt.said), h.story(m))
		})
	}
}

func saidAny(h *harness, m int, want string) bool {
	for _, e := range h.since(m) {
		if contains(e.Reason, want) {
			return true
		}
	}
	return false
}

func TestHandleGenerateRunsGenerateExistingForTriggersThatWereThere(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("before"))
	m := h.mark()
	h.mustPut(dataPolicy(true, "      generateExisting: true\n", "", ""))
	assert.NotNil(t, h.get(cmRef("before", "generated")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionCreated, "generateExisting is true and the trigger already existed when the policy was created"), h.story(m))

	h.remove(cmRef("before", "generated"))
	m = h.mark()
	h.scan()
	assert.NotNil(t, h.get(cmRef("before", "generated")), "the scan's generateExisting recreates it:\n%s", h.story(m))
}

func TestExplainScanCreatesNothingWithoutGenerateExisting(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(false, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	h.remove(cmRef("team", "generated"))
	m := h.mark()
	h.scan()
	assert.True(t, h.said(m, timeline.ActionSkipped, "the background scan recreates nothing for this trigger"), h.story(m))
}

func TestHandleGenerateSaysAPolicyWithAdmissionOnlyVariablesHasNoBackground(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	m := h.mark()
	h.mustPut(replaceOnce(dataPolicy(true, "", "", "  background: false\n"), "key: value", "key: '{{request.userInfo.username}}'"))
	assert.True(t, h.said(m, timeline.ActionNote, "Kyverno does no background processing for it"), h.story(m))
	h.mustPut(namespaceYAML("team"))
	assert.Equal(t, "kubernetes-admin", h.get(cmRef("team", "generated"))["data"].(map[string]any)["key"], "admission still generates")
}

func TestCanBackgroundProcess(t *testing.T) {
	for _, tt := range []struct {
		name string
		p    string
		want bool
	}{
		{"background true", dataPolicy(true, "", "", ""), true},
		{"background false without user variables", dataPolicy(true, "", "", "  background: false\n"), true},
		{"background false with request.userInfo", replaceOnce(dataPolicy(true, "", "", "  background: false\n"), "key: value", "key: '{{request.userInfo.username}}'"), false},
		{"background false with a subjects filter", replaceOnce(dataPolicy(true, "", "", "  background: false\n"), "kinds: [Namespace]", "kinds: [Namespace]\n        subjects:\n        - kind: User\n          name: alice"), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, obj := doc(t, tt.p)
			p, diags := policy.Parse(d, obj)
			require.False(t, diags.HasErrors(), "%v", diags)
			assert.Equal(t, tt.want, canBackgroundProcess(p))
		})
	}
}

func TestKindsMatchingAndNameMatchesListGenerateExistingCandidates(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	for _, tt := range []struct {
		kind string
		want []string
	}{
		{"Namespace", []string{"Namespace"}},
		{"v1/ConfigMap", []string{"ConfigMap"}},
		{"apps/v1/Deployment", []string{"Deployment"}},
		{"*/Pod", []string{"Pod"}},
		{"Pod/exec", nil},
		{"v2/ConfigMap", nil},
		{"Nope", nil},
	} {
		var got []string
		for _, info := range h.fam.kindsMatching(tt.kind) {
			got = append(got, info.Kind)
		}
		assert.Equal(t, tt.want, got, tt.kind)
	}
	ns := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}}
	cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "team-a"}}
	for _, tt := range []struct {
		rd   policy.ResourceDescription
		obj  resource.Object
		want bool
	}{
		{policy.ResourceDescription{Name: "team-*"}, ns, true},
		{policy.ResourceDescription{Name: "other"}, ns, false},
		{policy.ResourceDescription{Names: []string{"x", "team-?"}}, ns, true},
		{policy.ResourceDescription{Names: []string{"x"}}, ns, false},
		{policy.ResourceDescription{Namespaces: []string{"team-*"}}, ns, true /* a Namespace's own name */},
		{policy.ResourceDescription{Namespaces: []string{"team-*"}}, cm, true},
		{policy.ResourceDescription{Namespaces: []string{"other"}}, cm, false},
	} {
		assert.Equal(t, tt.want, nameMatches(tt.rd, tt.obj), "%+v on %s", tt.rd, tt.obj.Ref())
	}
}

func TestResolveKindReadsTheKindsAPolicyWrites(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	for _, tt := range []struct{ in, apiVersion, kind string }{
		{"Secret", "v1", "Secret"},
		{"v1/Secret", "v1", "Secret"},
		{"apps/v1/Deployment", "apps/v1", "Deployment"},
		{"Nope", "", "Nope"},
	} {
		av, k, _ := h.fam.resolveKind(tt.in)
		assert.Equal(t, [2]string{tt.apiVersion, tt.kind}, [2]string{av, k}, tt.in)
	}
}

func TestProcessUpdateRequestRunsAUsersUpdateRequestAndDeletesIt(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	h.remove(cmRef("team", "generated"))
	ns := h.get(nsRef("team"))
	ur := sprintf(`apiVersion: kyverno.io/v2
kind: UpdateRequest
metadata:
  name: ur
  namespace: kyverno
spec:
  type: generate
  policy: %s
  ruleContext:
  - rule: r
    trigger:
      apiVersion: v1
      kind: Namespace
      name: team
      uid: %s
`, "p", ns.UID())
	m := h.mark()
	h.mustPut(ur)
	assert.NotNil(t, h.get(cmRef("team", "generated")), h.story(m))
	assert.Nil(t, h.get(resource.Ref{APIVersion: "kyverno.io/v2", Kind: "UpdateRequest", Namespace: "kyverno", Name: "ur"}), "completed, so deleted")

	m = h.mark()
	h.mustPut(replaceOnce(ur, "policy: p", "policy: missing"))
	assert.True(t, h.said(m, timeline.ActionFailed, "policy missing not found"), h.story(m))
	failed := h.get(resource.Ref{APIVersion: "kyverno.io/v2", Kind: "UpdateRequest", Namespace: "kyverno", Name: "ur"})
	require.NotNil(t, failed)
	assert.Equal(t, "Failed", failed["status"].(map[string]any)["state"])

	h.remove(failed.Ref())
	m = h.mark()
	h.mustPut(replaceOnce(ur, ns.UID(), "no-such-uid"))
	assert.True(t, h.said(m, timeline.ActionFailed, "with uid no-such-uid not found"), h.story(m))

	ns2, name, ok := cutNamespaced("team/p")
	assert.Equal(t, [3]any{"team", "p", true}, [3]any{ns2, name, ok})
}
