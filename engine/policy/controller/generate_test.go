package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
)

func TestLabelsTieADownstreamToItsRuleAndTrigger(t *testing.T) {
	trig := resource.Object{"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "team-a", "uid": "u-1"}}
	ds := resource.Object{"metadata": map[string]any{"labels": map[string]any{
		generate.LabelManagedBy: "Helm", "app": "web"}}}
	manageLabels(ds, ruleRef{policyName: "p", rule: "r"}, triggerOf(trig))
	assert.Equal(t, map[string]string{
		"app": "web", generate.LabelManagedBy: generate.ValueKyverno, generate.LabelPolicyName: "p", generate.LabelPolicyNamespace: "", generate.LabelRuleName: "r",
		generate.LabelTriggerGroup: "apps", generate.LabelTriggerVersion: "v1", generate.LabelTriggerKind: "Deployment",
		generate.LabelTriggerNS: "team-a", generate.LabelTriggerUID: "u-1",
	}, ds.Labels(), "managed-by is overwritten (1.14+), the user's labels stay")
	got := triggerFromLabels(ds.Labels())
	assert.Equal(t, trigger{GVK: resource.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "team-a", UID: "u-1"}, got,
		"the trigger comes back from the labels, without its name")
}

func TestCloneDesired(t *testing.T) {
	src := resource.Object{"apiVersion": "v1", "kind": "Secret", "data": map[string]any{"k": "dg=="},
		"metadata": map[string]any{"name": "regcred", "namespace": "platform", "uid": "u-9", "resourceVersion": "7",
			"creationTimestamp": "2024-01-01T00:00:00Z", "generation": float64(1),
			"labels":          map[string]any{generate.LabelCloneSource: "", "team": "platform"},
			"ownerReferences": []any{map[string]any{"kind": "ConfigMap", "name": "owner", "uid": "u-1"}}}}
	t.Run("across namespaces it drops server fields and ownerReferences and adds source labels", func(t *testing.T) {
		d := cloneDesired(src, "team-a", "regcred")
		md := d.Metadata()
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "generation", "ownerReferences"} {
			assert.NotContains(t, md, k)
		}
		assert.Equal(t, "team-a", d.Namespace())
		assert.Equal(t, map[string]string{generate.LabelCloneSource: "", "team": "platform", generate.LabelSourceGroup: "", generate.LabelSourceVersion: "v1",
			generate.LabelSourceKind: "Secret", generate.LabelSourceNS: "platform", generate.LabelSourceUID: "u-9"}, d.Labels())
		assert.Equal(t, "regcred", src.Name(), "the source is not modified")
		assert.Contains(t, src.Metadata(), "uid")
	})
	t.Run("within one namespace it keeps ownerReferences", func(t *testing.T) {
		d := cloneDesired(src, "platform", "copy")
		assert.Contains(t, d.Metadata(), "ownerReferences")
	})
}
