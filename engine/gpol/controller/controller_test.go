package controller

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

func parsePolicy(t *testing.T, text string) *gpol.Policy {
	t.Helper()
	docs, diags := source.Parse("p.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	obj, ok := docs[0].Object()
	require.True(t, ok)
	p, diags := gpol.Parse(docs[0], obj)
	require.False(t, diags.HasErrors(), "%v", diags)
	return p
}

const basePolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [%s]
      resources: [namespaces]
  generate:
  - expression: generator.apply(object.metadata.name, [])
`

func TestOnlyALiteralDeleteGeneratesOnDeletion(t *testing.T) {
	for ops, want := range map[string]bool{"CREATE, DELETE": true, `"*"`: false, "CREATE, UPDATE": false} {
		p := parsePolicy(t, sprintf(basePolicy, ops))
		assert.Equal(t, want, listsDelete(p), "operations [%s]", ops)
	}
}

// The API server names a Namespace's own name as the request's namespace:
// on create too (k8s.io/apiserver v0.36.3 endpoints/handlers/create.go:
// "if len(namespace) == 0 && scope.Resource == namespaceGVR").
func TestRequestNamespaceOfANamespaceIsItsName(t *testing.T) {
	ns := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team"}}
	assert.Equal(t, "team", requestNamespace(admission.Request{Operation: admission.OpCreate}, ns, false))
	assert.Equal(t, "team", requestNamespace(admission.Request{Operation: admission.OpUpdate}, ns, false))
	assert.Equal(t, "team", requestNamespace(admission.Request{Operation: admission.OpDelete}, ns, false))
	cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "team"}}
	assert.Equal(t, "team", requestNamespace(admission.Request{Operation: admission.OpCreate}, cm, true))
}

func TestResourceFiltersDropKyvernosDefaults(t *testing.T) {
	assert.True(t, filtered("Event", "team"))
	assert.True(t, filtered("ConfigMap", "kube-system"))
	assert.False(t, filtered("ConfigMap", "team"))
}

func TestTheWatchHashIgnoresStatusAndServerMetadata(t *testing.T) {
	a := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v"},
		"metadata": map[string]any{"name": "c", "resourceVersion": "1", "labels": map[string]any{"l": "1"}}}
	b := a.DeepCopy()
	b.Metadata()["resourceVersion"] = "2"
	b["status"] = map[string]any{"x": "y"}
	assert.True(t, resource.Equal(hashContent(a), hashContent(b)), "a write that changes only server fields is not drift")
	c := a.DeepCopy()
	c.SetLabels(map[string]string{"l": "2"})
	assert.False(t, resource.Equal(hashContent(a), hashContent(c)), "labels are part of the hash: the watcher reverts them")
}

func TestTheWebhookIsBasicOrFineGrainedAsKyvernoRendersIt(t *testing.T) {
	p := parsePolicy(t, sprintf(basePolicy, "CREATE"))
	assert.False(t, fineGrained(p))
	rules := webhookRules(p)
	require.Len(t, rules, 1)
	assert.Equal(t, []any{"CONNECT", "CREATE", "DELETE", "UPDATE"}, rules[0].(map[string]any)["operations"],
		"Kyverno registers every operation whatever the policy lists")
	sel := namespaceSelector(p)
	assert.Len(t, sel["matchExpressions"], 2, "kube-system and kyverno are left out")

	withConditions := parsePolicy(t, sprintf(basePolicy, "CREATE")+`  matchConditions:
  - name: labelled
    expression: has(object.metadata.labels)
`)
	assert.True(t, fineGrained(withConditions), "match conditions in the Kubernetes CEL environment get a webhook of their own")
	withLibrary := parsePolicy(t, sprintf(basePolicy, "CREATE")+`  matchConditions:
  - name: registry
    expression: image(object.spec.image).registry() == "corp"
`)
	assert.False(t, fineGrained(withLibrary), "a Kyverno library keeps the policy on the basic webhook")
}

func TestTriggerFromLabelsIsTriggerFromLabels(t *testing.T) {
	l := map[string]string{
		generate.LabelTriggerGroup: "apps", generate.LabelTriggerVersion: "v1", generate.LabelTriggerKind: "Deployment",
		generate.LabelTriggerNS: "team", generate.LabelTriggerName: "web", generate.LabelTriggerUID: "u-1",
	}
	assert.Equal(t, triggerSpec{gvk: resource.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, namespace: "team", name: "web", uid: "u-1"},
		triggerFromLabels(l))
}

func TestFailedRuleNamesTheEntryTheErrorNames(t *testing.T) {
	assert.Equal(t, "spec.generate[1]", failedRule("failed to evaluate policy: spec.generate[1].expression: boom"))
	assert.Equal(t, "spec.variables[0]", failedRule("spec.variables[0].expression: no such key"))
	assert.Equal(t, "", failedRule("policy not found"))
}

func TestReportsNameGeneratedResourcesAsKyvernoDoes(t *testing.T) {
	assert.Equal(t, "/v1, Kind=ConfigMap", gvkString(resource.GVK{Version: "v1", Kind: "ConfigMap"}))
	assert.Equal(t, "networking.k8s.io/v1, Kind=NetworkPolicy", gvkString(resource.GVK{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}))
}

var sprintf = fmt.Sprintf
