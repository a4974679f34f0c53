package generate

import (
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
	return trigger{
		GVK:       resource.GVK{Group: l[LabelTriggerGroup], Version: l[LabelTriggerVersion], Kind: l[LabelTriggerKind]},
		Namespace: l[LabelTriggerNS],
		Name:      l[LabelTriggerName],
		UID:       l[LabelTriggerUID],
	}
}

// policyLabels are the labels that tie a downstream to its rule.
func policyLabels(pol ruleRef) map[string]string {
	return map[string]string{
		LabelManagedBy:       ValueKyverno,
		LabelPolicyName:      pol.policyName,
		LabelPolicyNamespace: pol.policyNamespace,
		LabelRuleName:        pol.rule,
	}
}

// triggerLabels are the labels that tie a downstream to its trigger.
func triggerLabels(t trigger) map[string]string {
	return map[string]string{
		LabelTriggerGroup:   t.GVK.Group,
		LabelTriggerVersion: t.GVK.Version,
		LabelTriggerKind:    t.GVK.Kind,
		LabelTriggerNS:      t.Namespace,
		LabelTriggerUID:     t.UID,
	}
}

// manageLabels stamps a desired downstream with Kyverno's labels
// (ManageLabels): managed-by is always overwritten (1.14+).
func manageLabels(obj resource.Object, pol ruleRef, t trigger) {
	l := obj.Labels()
	for k, v := range policyLabels(pol) {
		l[k] = v
	}
	for k, v := range triggerLabels(t) {
		l[k] = v
	}
	obj.SetLabels(l)
}

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
