package controller

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
)

// TestManageLabelsWritesPolicyAndTriggerLabels compares manageLabels with
// what it stands for: the labels as unstructured's GetLabels reads them
// (none at all when a value is not a string), policyLabels and
// triggerLabels merged over them, written back with SetLabels.
func TestManageLabelsWritesPolicyAndTriggerLabels(t *testing.T) {
	olds := []map[string]any{
		nil,
		{},
		{"app": "web", generate.LabelManagedBy: "Helm", generate.LabelRuleName: "stale"},
		{"n": float64(3), "b": true, "gone": nil, "s": ""},
		{"s": "", "gone": nil},
	}
	refs := []ruleRef{{policyName: "p", rule: "r"}, {policyName: "p", policyNamespace: "ns", rule: ""}}
	trigs := []trigger{
		{},
		{GVK: resource.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "team-a", Name: "web", UID: "u-1"},
	}
	for _, old := range olds {
		for _, rr := range refs {
			for _, tr := range trigs {
				desired := func() resource.Object {
					md := map[string]any{"name": "d"}
					if old != nil {
						md["labels"] = resource.DeepCopyValue(old)
					}
					return resource.Object{"metadata": md}
				}
				got, want := desired(), desired()
				dropped := manageLabels(got, rr, tr)
				l := want.Labels()
				wantDropped := ""
				for _, k := range []string{"b", "gone", "n"} { // the non-string keys, in order
					if _, ok := old[k]; ok && wantDropped == "" {
						wantDropped = k
					}
				}
				if wantDropped != "" {
					l = map[string]string{}
				}
				assert.Equal(t, wantDropped, dropped)
				for k, v := range policyLabels(rr) {
					l[k] = v
				}
				for k, v := range triggerLabels(tr) {
					l[k] = v
				}
				want.SetLabels(l)
				assert.Equal(t, want, got, "labels %v, %+v, %+v", old, rr, tr)
				assert.Equal(t, fmt.Sprintf("%#v", want.Metadata()["labels"]), fmt.Sprintf("%#v", got.Metadata()["labels"]))
			}
		}
	}
}

// triggerLabels are the labels that tie a downstream to its trigger.
func triggerLabels(t trigger) map[string]string {
	return map[string]string{
		generate.LabelTriggerGroup:   t.GVK.Group,
		generate.LabelTriggerVersion: t.GVK.Version,
		generate.LabelTriggerKind:    t.GVK.Kind,
		generate.LabelTriggerNS:      t.Namespace,
		generate.LabelTriggerUID:     t.UID,
	}
}
