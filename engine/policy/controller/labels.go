package controller

import (
	"fmt"
	"strconv"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
)

// trigger identifies the resource that caused a generation, as Kyverno
// records it in downstream labels.
type trigger struct {
	GVK       resource.GVK
	Namespace string
	Name      string
	UID       string
}

func triggerOf(obj resource.Object) trigger {
	return trigger{GVK: obj.GVK(), Namespace: obj.Namespace(), Name: obj.Name(), UID: obj.UID()}
}

func (t trigger) ref() resource.Ref {
	return resource.Ref{APIVersion: t.GVK.APIVersion(), Kind: t.GVK.Kind, Namespace: t.Namespace, Name: t.Name}
}

// triggerFromLabels rebuilds a trigger from a downstream's labels
// (Kyverno's TriggerFromLabels); the name is unknown, only the UID is.
func triggerFromLabels(l map[string]string) trigger {
	return triggerFrom(func(k string) string { return l[k] })
}

// downstreamTrigger is triggerFromLabels(d.Labels()) without copying the
// labels (it runs once per downstream on a policy update or deletion).
func downstreamTrigger(d resource.Object) trigger {
	return triggerFrom(func(k string) string { v, _ := d.Label(k); return v })
}

// triggerFrom builds a trigger from the label values label returns.
func triggerFrom(label func(key string) string) trigger {
	return trigger{
		GVK:       resource.GVK{Group: label(generate.LabelTriggerGroup), Version: label(generate.LabelTriggerVersion), Kind: label(generate.LabelTriggerKind)},
		Namespace: label(generate.LabelTriggerNS),
		Name:      label(generate.LabelTriggerName),
		UID:       label(generate.LabelTriggerUID),
	}
}

// policyLabels are the labels that tie a downstream to its rule.
func policyLabels(pol ruleRef) map[string]string {
	l := make(map[string]string, 4)
	putPolicyLabels(pol, func(k, v string) { l[k] = v })
	return l
}

// putPolicyLabels hands each of policyLabels(pol) to put, without a map.
func putPolicyLabels(pol ruleRef, put func(k, v string)) {
	put(generate.LabelManagedBy, generate.ValueKyverno)
	put(generate.LabelPolicyName, pol.policyName)
	put(generate.LabelPolicyNamespace, pol.policyNamespace)
	put(generate.LabelRuleName, pol.rule)
}

// manageLabels stamps a desired downstream with Kyverno's labels
// (ManageLabels): managed-by is always overwritten (1.14+).
//
// Kyverno reads the desired object's labels with unstructured's GetLabels,
// which is NestedStringMap: when any value is not a string (a number a
// variable rendered, null), it returns no map at all, and ManageLabels
// starts from an empty one. So one non-string value drops every label but
// Kyverno's own. manageLabels does the same and returns the first such key
// (in key order), or "" when all values are strings.
//
// It builds the new labels map in place of obj.Labels() + SetLabels (same
// result: a fresh map), with one map instead of four: this runs for every
// generated object. The labels are written one by one rather than through
// putPolicyLabels: a constant goes into the map without being boxed
// (managed-by), and no function value is called per label.
// TestManageLabelsWritesPolicyAndTriggerLabels keeps them in step with
// policyLabels and the trigger's labels.
func manageLabels(obj resource.Object, pol ruleRef, t trigger) (dropped string) {
	md := obj.Metadata()
	old, _ := md["labels"].(map[string]any)
	for k, v := range old {
		if _, ok := v.(string); !ok && (dropped == "" || k < dropped) {
			dropped = k
		}
	}
	if dropped != "" {
		old = nil
	}
	l := make(map[string]any, len(old)+managedLabels)
	for k, v := range old {
		l[k] = v // a string, as it is: boxing it again would allocate
	}
	l[generate.LabelManagedBy] = generate.ValueKyverno
	l[generate.LabelPolicyName] = pol.policyName
	l[generate.LabelPolicyNamespace] = pol.policyNamespace
	l[generate.LabelRuleName] = pol.rule
	l[generate.LabelTriggerGroup] = t.GVK.Group
	l[generate.LabelTriggerVersion] = t.GVK.Version
	l[generate.LabelTriggerKind] = t.GVK.Kind
	l[generate.LabelTriggerNS] = t.Namespace
	l[generate.LabelTriggerUID] = t.UID
	md["labels"] = l
	return dropped
}

// droppedLabelsReason explains manageLabels' dropping the labels of a
// desired object, as the value of key v was not a string.
func droppedLabelsReason(key string, v any) string {
	return fmt.Sprintf("the rule's metadata.labels hold a non-string value (%s: %s), so Kyverno's ManageLabels, which reads the labels with "+
		"unstructured's GetLabels (NestedStringMap: no map at all when any value is not a string), dropped every label: "+
		"the downstream carries only Kyverno's own", key, labelValue(v))
}

func labelValue(v any) string {
	if v == nil {
		return "null"
	}
	if s, ok := v.(float64); ok {
		return strconv.FormatFloat(s, 'f', -1, 64)
	}
	return fmt.Sprint(v)
}

// managedLabels is how many labels manageLabels writes.
const managedLabels = 9

// sourceLabels are the labels a clone downstream carries about its source.
func sourceLabels(src resource.Object) map[string]string {
	g := src.GVK()
	return map[string]string{
		generate.LabelSourceGroup:   g.Group,
		generate.LabelSourceVersion: g.Version,
		generate.LabelSourceKind:    g.Kind,
		generate.LabelSourceNS:      src.Namespace(),
		generate.LabelSourceUID:     src.UID(),
	}
}

// isDownstream reports whether labels mark a Kyverno-generated object.
func isDownstream(l map[string]string) bool { return l[generate.LabelPolicyName] != "" }

// isCloneSource reports whether labels mark a clone source.
func isCloneSource(l map[string]string) bool {
	_, ok := l[generate.LabelCloneSource]
	return ok
}
