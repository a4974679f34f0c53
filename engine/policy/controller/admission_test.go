package controller

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

func TestHandleTriggerQueuesAGenerateRequestPerMatchingRule(t *testing.T) {
	tests := []struct {
		name      string
		sync      bool
		extraRule string
		labels    []string
		generated bool
		said      string // an event reason since the namespace's creation
	}{
		{name: "a matching trigger generates", sync: true, generated: true, said: "the rule matched the new trigger"},
		{name: "a trigger the match leaves out generates nothing", extraRule: "    exclude:\n      any:\n      - resources:\n          names: [team]\n"},
		{name: "preconditions that fail skip the rule and say why",
			extraRule: "    preconditions:\n      all:\n      - key: \"{{request.object.metadata.labels.env || ''}}\"\n        operator: Equals\n        value: prod\n",
			said:      "precondition failed"},
		{name: "preconditions that pass generate", generated: true, labels: []string{"env", "prod"},
			extraRule: "    preconditions:\n      all:\n      - key: '{{request.object.metadata.labels.env}}'\n        operator: Equals\n        value: prod\n"},
		{name: "a context entry that cannot load fails the rule",
			extraRule: "    context:\n    - name: cm\n      configMap:\n        name: missing\n        namespace: default\n    preconditions:\n      all:\n      - key: '{{cm.data.x}}'\n        operator: Equals\n        value: y\n",
			said:      "failed to load context"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			h.mustPut(dataPolicy(tt.sync, "", tt.extraRule, ""))
			m := h.mark()
			h.mustPut(namespaceYAML("team", tt.labels...))
			assert.Equal(t, tt.generated, h.get(cmRef("team", "generated")) != nil, h.story(m))
			if tt.said != "" {
				found := false
				for _, e := range h.since(m) {
					found = found || contains(e.Reason, tt.said)
				}
				assert.True(t, found, "%q in\n%s", tt.said, h.story(m))
			}
		})
	}
}

func TestHandleTriggerCleansUpWhenTheTriggerGoesOrStopsMatching(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(dataPolicy(sync, "", "    exclude:\n      any:\n      - resources:\n          selector:\n            matchLabels:\n              skip: \"yes\"\n", ""))
		h.mustPut(namespaceYAML("team"))
		require.NotNil(t, h.get(cmRef("team", "generated")))

		m := h.mark()
		h.edit(nsRef("team"), func(o resource.Object) { o.SetLabels(map[string]string{"skip": "yes"}) })
		if sync {
			assert.Nil(t, h.get(cmRef("team", "generated")), "synchronize: the downstream goes with the match")
			assert.True(t, h.said(m, timeline.ActionDeleted, "no longer matches the rule"), h.story(m))
		} else {
			assert.NotNil(t, h.get(cmRef("team", "generated")))
			assert.True(t, h.said(m, timeline.ActionKept, "synchronize is false, so Kyverno leaves the downstream when its trigger is changed so it no longer matches"), h.story(m))
		}
	}
}

func TestHandleTriggerSkipsKyvernosOwnRequestsWhenTheRuleSaysSo(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	// Every ConfigMap "generated" gets a Secret; the ConfigMaps are Kyverno's own.
	h.mustPut(dataPolicy(true, "", "", ""))
	chained := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: chained
spec:
  rules:
  - name: r
    skipBackgroundRequests: %s
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          names: [generated]
    generate:
      apiVersion: v1
      kind: Secret
      name: chained
      namespace: '{{request.object.metadata.namespace}}'
      data:
        data: {}
`
	h.mustPut(sprintf(chained, "true"))
	h.mustPut(namespaceYAML("a"))
	assert.Nil(t, h.get(secretRef("a", "chained")), "skipBackgroundRequests: Kyverno's writes are no trigger")
	h = newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(sprintf(chained, "false"))
	h.mustPut(namespaceYAML("b"))
	assert.NotNil(t, h.get(secretRef("b", "chained")), "a chain of generated triggers")
}

func TestHandleTriggerStopsAfterTheFirstRuleWithApplyRulesOne(t *testing.T) {
	two := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  applyRules: %s
  rules:
  - name: first
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: first
      namespace: '{{request.object.metadata.name}}'
      data: {}
  - name: second
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: second
      namespace: '{{request.object.metadata.name}}'
      data: {}
`
	for mode, want := range map[string]bool{"One": false, "All": true} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(sprintf(two, mode))
		h.mustPut(namespaceYAML("team"))
		assert.NotNil(t, h.get(cmRef("team", "first")))
		assert.Equal(t, want, h.get(cmRef("team", "second")) != nil, "applyRules: %s", mode)
	}
}

func TestHandleTriggerGeneratesOnDeleteWhenTheMatchListsDelete(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          operations: [DELETE]
    generate:
      apiVersion: v1
      kind: Secret
      name: 'gone-{{request.object.metadata.name}}'
      namespace: default
      data: {}
`)
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n")
	assert.Nil(t, h.get(secretRef("default", "gone-c")), "a CREATE is not in the operations")
	m := h.mark()
	h.remove(cmRef("default", "c"))
	assert.NotNil(t, h.get(secretRef("default", "gone-c")), h.story(m))
	assert.True(t, h.said(m, timeline.ActionCreated, "lists the DELETE operation"), h.story(m))
}

func TestExplainOperationsKeepSaysWhyADownstreamStays(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          operations: [CREATE]
    generate:
      apiVersion: v1
      kind: Secret
      name: 'for-{{request.object.metadata.name}}'
      namespace: default
      synchronize: true
      data: {}
`)
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n")
	require.NotNil(t, h.get(secretRef("default", "for-c")))
	m := h.mark()
	h.remove(cmRef("default", "c"))
	assert.True(t, h.said(m, timeline.ActionKept, "match lists operations [CREATE] without DELETE"), h.story(m))
}

func TestExplainOtherNamespaceSaysANamespacedPolicyIgnoresOtherNamespaces(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("team"))
	h.mustPut(`apiVersion: kyverno.io/v1
kind: Policy
metadata:
  name: p
  namespace: team
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [ConfigMap]
    generate:
      apiVersion: v1
      kind: Secret
      name: 'copy-{{request.object.metadata.name}}'
      namespace: team
      data: {}
`)
	m := h.mark()
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n")
	assert.True(t, h.said(m, timeline.ActionSkipped, "ignored: "), h.story(m))
	assert.Nil(t, h.get(secretRef("team", "copy-c")))
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: team\n")
	assert.NotNil(t, h.get(secretRef("team", "copy-c")), "its own namespace")
}

func TestDownstreamChangedRevertsOrKeepsAnEditedDownstream(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(dataPolicy(sync, "", "", ""))
		h.mustPut(namespaceYAML("team"))
		m := h.mark()
		h.edit(cmRef("team", "generated"), func(o resource.Object) { o["data"] = map[string]any{"key": "edited"} })
		got := h.get(cmRef("team", "generated"))
		if sync {
			assert.Equal(t, map[string]any{"key": "value"}, got["data"], h.story(m))
			assert.True(t, h.said(m, timeline.ActionReverted, "synchronize is true and the downstream was changed"), h.story(m))
		} else {
			assert.Equal(t, map[string]any{"key": "edited"}, got["data"])
			assert.True(t, h.said(m, timeline.ActionKept, "does not watch the downstream: the change stays"), h.story(m))
		}
		m = h.mark()
		h.remove(cmRef("team", "generated"))
		if sync {
			assert.NotNil(t, h.get(cmRef("team", "generated")), "recreated")
			assert.True(t, h.said(m, timeline.ActionRecreated, "the downstream was deleted"), h.story(m))
		} else {
			assert.Nil(t, h.get(cmRef("team", "generated")))
			assert.True(t, h.said(m, timeline.ActionIgnored, "it stays deleted until the rule is next applied"), h.story(m))
		}
	}
}

func TestDownstreamChangedWithoutItsPolicyOrRuleRestoresNothing(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	// The policy goes from the family but its downstream stays.
	p := h.policyKeyed("ClusterPolicy/p")
	h.fam.policies.Delete(p.Key())
	m := h.mark()
	h.remove(cmRef("team", "generated"))
	assert.True(t, h.said(m, timeline.ActionSkipped, `the policy "p" that generated it no longer exists`), h.story(m))

	h = newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	renamed := *h.policyKeyed("ClusterPolicy/p")
	renamed.Spec.Rules = []policy.Rule{{Name: "other"}}
	h.fam.policies.Put(renamed.Key(), &renamed)
	m = h.mark()
	h.remove(cmRef("team", "generated"))
	assert.True(t, h.said(m, timeline.ActionSkipped, `its rule "r" is no longer in the policy`), h.story(m))
}

func TestDownstreamChangedSaysADownstreamInADeletedNamespaceIsNotRestored(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("src"))
	h.mustPut(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          namespaces: [src]
    generate:
      apiVersion: v1
      kind: Secret
      name: 'copy-{{request.object.metadata.name}}'
      namespace: team
      synchronize: true
      data: {}
`)
	h.mustPut(namespaceYAML("team"))
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: src\n")
	require.NotNil(t, h.get(secretRef("team", "copy-c")))
	m := h.mark()
	h.remove(nsRef("team"))
	assert.True(t, h.said(m, timeline.ActionSkipped, "cannot recreate it in a namespace that is being deleted"), h.story(m))
}

// clonePolicy clones the Secret regcred of namespace platform into every
// new Namespace.
func clonePolicy(sync bool) string {
	return sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: clone
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Namespace]
          names: ["team-*"]
    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: '{{request.object.metadata.name}}'
      synchronize: %v
      clone:
        namespace: platform
        name: regcred
`, sync)
}

const regcred = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: regcred\n  namespace: platform\ndata:\n  k: %s\n"

func TestSourceChangedPropagatesACloneSourcesChanges(t *testing.T) {
	for _, sync := range []bool{true, false} {
		h := newHarness(t, generate.FamilyConfig{})
		h.mustPut(namespaceYAML("platform"))
		h.mustPut(sprintf(regcred, "djE="))
		h.mustPut(clonePolicy(sync))
		h.mustPut(namespaceYAML("team-a"))
		require.NotNil(t, h.get(secretRef("team-a", "regcred")))
		src := h.get(secretRef("platform", "regcred"))
		_, labelled := src.Label(generate.LabelCloneSource)
		assert.True(t, labelled, "tagSource labels the source")

		m := h.mark()
		h.edit(secretRef("platform", "regcred"), func(o resource.Object) { o["data"] = map[string]any{"k": "djI="} })
		got := h.get(secretRef("team-a", "regcred"))
		if sync {
			assert.Equal(t, "djI=", got["data"].(map[string]any)["k"], h.story(m))
			assert.True(t, h.said(m, timeline.ActionUpdated, "the clone source"), h.story(m))
		} else {
			assert.Equal(t, "djE=", got["data"].(map[string]any)["k"])
			assert.True(t, h.said(m, timeline.ActionKept, "the change of the clone source"), h.story(m))
		}
		m = h.mark()
		h.remove(secretRef("platform", "regcred"))
		if sync {
			assert.Nil(t, h.get(secretRef("team-a", "regcred")), h.story(m))
			assert.True(t, h.said(m, timeline.ActionDeleted, "the clone source"), h.story(m))
		} else {
			assert.True(t, h.said(m, timeline.ActionKept, "the deletion of the clone source"), h.story(m))
		}
	}
}

func TestTheNonTriggerPathIgnoresKyvernosOwnWrites(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "", ""))
	h.mustPut(namespaceYAML("team"))
	live := h.get(cmRef("team", "generated"))
	live["data"] = map[string]any{"key": "by kyverno"}
	m := h.mark()
	_, err := h.core.Update(kyverno, live)
	require.NoError(t, err)
	h.core.Reconcile()
	assert.Empty(t, h.since(m), "a write by Kyverno's service account is not a drift to revert")
	assert.Equal(t, map[string]any{"key": "by kyverno"}, h.get(cmRef("team", "generated"))["data"])
}

func TestFilterRuleVerdicts(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(dataPolicy(true, "", "    preconditions:\n      all:\n      - key: \"{{request.object.metadata.labels.env || ''}}\"\n        operator: Equals\n        value: prod\n", ""))
	p := h.policyKeyed("ClusterPolicy/p")
	rule := &p.Spec.Rules[0]
	ns := func(labels map[string]string) resource.Object {
		o := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "n"}}
		if labels != nil {
			o.SetLabels(labels)
		}
		return o
	}
	prod, dev := ns(map[string]string{"env": "prod"}), ns(map[string]string{"env": "dev"})
	cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "n"}}
	for _, tt := range []struct {
		name     string
		v        view
		want     ruleStatus
		wantText string
	}{
		{"a matching object whose preconditions pass", view{operation: admission.OpCreate, object: prod}, statusPass, ""},
		{"a matching object whose preconditions fail", view{operation: admission.OpCreate, object: dev}, statusSkip, "precondition failed"},
		{"preconditions that passed for the old object and fail for the new", view{operation: admission.OpUpdate, object: dev, oldObject: prod}, statusFail, ""},
		{"an object the match does not select", view{operation: admission.OpCreate, object: cm}, statusNone, ""},
		{"no object at all", view{operation: admission.OpDelete}, statusNone, "the object is gone"},
		{"an old object that matched, a new one that does not", view{operation: admission.OpUpdate, object: cm, oldObject: prod}, statusFail, "kind ConfigMap is not one of [Namespace]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, why := h.fam.filterRule(p, rule, tt.v)
			assert.Equal(t, tt.want, got, why)
			assert.Contains(t, why, tt.wantText)
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }
