package generate

import (
	"fmt"

	"github.com/genplay/genplay/engine/resource"
)

// Labels Kyverno writes on downstreams and clone sources (SEMANTICS §3).
const (
	LabelManagedBy       = "app.kubernetes.io/managed-by"
	ValueKyverno         = "kyverno"
	LabelPolicyName      = "generate.kyverno.io/policy-name"
	LabelPolicyNamespace = "generate.kyverno.io/policy-namespace"
	LabelRuleName        = "generate.kyverno.io/rule-name"
	LabelTriggerGroup    = "generate.kyverno.io/trigger-group"
	LabelTriggerVersion  = "generate.kyverno.io/trigger-version"
	LabelTriggerKind     = "generate.kyverno.io/trigger-kind"
	LabelTriggerNS       = "generate.kyverno.io/trigger-namespace"
	LabelTriggerUID      = "generate.kyverno.io/trigger-uid"
	LabelTriggerName     = "generate.kyverno.io/trigger-name" // pre-1.11 fallback, read only
	LabelCloneSource     = "generate.kyverno.io/clone-source"
	LabelSourceGroup     = "generate.kyverno.io/source-group"
	LabelSourceVersion   = "generate.kyverno.io/source-version"
	LabelSourceKind      = "generate.kyverno.io/source-kind"
	LabelSourceNS        = "generate.kyverno.io/source-namespace"
	LabelSourceUID       = "generate.kyverno.io/source-uid"
	LabelSourceName      = "generate.kyverno.io/source-name" // pre-1.11 fallback, read only
)

// BackgroundUser is the username of Kyverno's background controller.
const BackgroundUser = "system:serviceaccount:kyverno:kyverno-background-controller"

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
		GVK:       resource.GVK{Group: label(LabelTriggerGroup), Version: label(LabelTriggerVersion), Kind: label(LabelTriggerKind)},
		Namespace: label(LabelTriggerNS),
		Name:      label(LabelTriggerName),
		UID:       label(LabelTriggerUID),
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
	put(LabelManagedBy, ValueKyverno)
	put(LabelPolicyName, pol.policyName)
	put(LabelPolicyNamespace, pol.policyNamespace)
	put(LabelRuleName, pol.rule)
}

// triggerLabels are the labels that tie a downstream to its trigger.
func triggerLabels(t trigger) map[string]string {
	l := make(map[string]string, 5)
	putTriggerLabels(t, func(k, v string) { l[k] = v })
	return l
}

// putTriggerLabels hands each of triggerLabels(t) to put, without a map.
func putTriggerLabels(t trigger, put func(k, v string)) {
	put(LabelTriggerGroup, t.GVK.Group)
	put(LabelTriggerVersion, t.GVK.Version)
	put(LabelTriggerKind, t.GVK.Kind)
	put(LabelTriggerNS, t.Namespace)
	put(LabelTriggerUID, t.UID)
}

// manageLabels stamps a desired downstream with Kyverno's labels
// (ManageLabels): managed-by is always overwritten (1.14+).
//
// It builds the new labels map in place of obj.Labels() + SetLabels (same
// result: a fresh map, non-string values rendered as Labels renders them),
// with one map instead of four: this runs for every generated object. The
// labels are written one by one rather than through putPolicyLabels and
// putTriggerLabels: a constant goes into the map without being boxed
// (managed-by), and no function value is called per label.
// TestManageLabelsWritesPolicyAndTriggerLabels keeps the two in step.
func manageLabels(obj resource.Object, pol ruleRef, t trigger) {
	md := obj.Metadata()
	old, _ := md["labels"].(map[string]any)
	l := make(map[string]any, len(old)+managedLabels)
	for k, v := range old {
		switch s := v.(type) {
		case string:
			l[k] = v // the value as it is: boxing s again would allocate
		case nil:
		default:
			l[k] = fmt.Sprint(s)
		}
	}
	l[LabelManagedBy] = ValueKyverno
	l[LabelPolicyName] = pol.policyName
	l[LabelPolicyNamespace] = pol.policyNamespace
	l[LabelRuleName] = pol.rule
	l[LabelTriggerGroup] = t.GVK.Group
	l[LabelTriggerVersion] = t.GVK.Version
	l[LabelTriggerKind] = t.GVK.Kind
	l[LabelTriggerNS] = t.Namespace
	l[LabelTriggerUID] = t.UID
	md["labels"] = l
}

// managedLabels is how many labels manageLabels writes.
const managedLabels = 9

// sourceLabels are the labels a clone downstream carries about its source.
func sourceLabels(src resource.Object) map[string]string {
	g := src.GVK()
	return map[string]string{
		LabelSourceGroup:   g.Group,
		LabelSourceVersion: g.Version,
		LabelSourceKind:    g.Kind,
		LabelSourceNS:      src.Namespace(),
		LabelSourceUID:     src.UID(),
	}
}

// isDownstream reports whether labels mark a Kyverno-generated object.
func isDownstream(l map[string]string) bool { return l[LabelPolicyName] != "" }

// isCloneSource reports whether labels mark a clone source.
func isCloneSource(l map[string]string) bool {
	_, ok := l[LabelCloneSource]
	return ok
}
