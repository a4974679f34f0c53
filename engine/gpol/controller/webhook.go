package controller

import (
	"slices"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// excludedNamespaces are the namespaces the standard install's webhook
// namespaceSelector leaves out (kubernetes.io/metadata.name NotIn).
var excludedNamespaces = []string{"kube-system", "kyverno"}

// filteredKinds are kinds of Kyverno's default resourceFilters that a
// GeneratingPolicy could otherwise see ([Event,*,*], reports, ...).
var filteredKinds = []string{"Event", "ReplicaSet", "EphemeralReport", "ClusterEphemeralReport", "PolicyReport",
	"ClusterPolicyReport", "UpdateRequest", "TokenReview", "SubjectAccessReview", "SelfSubjectAccessReview", "Binding", "Node", "APIService"}

// filtered reports whether Kyverno's resourceFilters drop a request on obj
// (WithFilter; the default ConfigMap also filters kube-system, kube-public,
// kube-node-lease and kyverno, and UpdateRequests are Kyverno's own).
func filtered(kind, namespace string) bool {
	if slices.Contains(filteredKinds, kind) {
		return true
	}
	switch namespace {
	case "kube-system", "kube-public", "kube-node-lease", "kyverno":
		return true
	}
	return false
}

// Admit implements generate.Family: Kyverno's gpol and ngpol webhook
// handlers (handler.Generate, GenerateNamespaced; §3.1). The webhook never
// blocks and never evaluates: it queues one UpdateRequest per policy.
func (f *Family) Admit(req admission.Request) {
	obj := req.Object
	if obj == nil {
		obj = req.OldObject
	}
	if obj == nil || f.policies.Len() == 0 {
		return
	}
	gvk := obj.GVK()
	if req.SubResource != "" {
		gvk = req.Resource
	}
	if f.Owns(obj) {
		return // Kyverno's own CRDs are not generate triggers here
	}
	info, known := f.store.KindInfo(gvk.APIVersion(), gvk.Kind)
	if !known {
		info.Group, info.Version, info.Kind = gvk.Group, gvk.Version, gvk.Kind
		info.Resource = pluralOf(f, gvk)
		info.Namespaced = obj.Namespace() != ""
	}
	ns := requestNamespace(req, obj, info.Namespaced)
	if filtered(gvk.Kind, ns) {
		return
	}
	for _, e := range f.policies.Sorted() {
		p := e.p
		if !p.Spec.Evaluation.AdmissionEnabled {
			continue
		}
		if !webhookMatches(p, info, req.SubResource, obj, ns, f) {
			continue
		}
		if p.Namespaced() && ns == "" {
			continue // GenerateNamespaced: requests without a namespace
		}
		if req.User.Username == admission.BackgroundUser && p.Spec.Evaluation.SkipBackgroundRequests {
			continue
		}
		rc := ruleContext{trigger: triggerOf(obj, req)}
		switch req.Operation {
		case admission.OpDelete:
			switch {
			case listsDelete(p):
				// generate on trigger deletion
			case p.Spec.Evaluation.Synchronize:
				rc.deleteDownstream = true
			default:
				f.keptOnTriggerDelete(e, obj)
				continue
			}
		case admission.OpUpdate:
			rc.synchronize = p.Spec.Evaluation.Synchronize
		}
		r := req
		f.enqueueUR(&updateRequest{policy: urKey(p), contexts: []ruleContext{rc}, admission: &r, cause: causeAdmission})
	}
}

// requestNamespace is request.namespace as the API server sets it: the
// object's namespace, and for a Namespace its own name on UPDATE and DELETE
// (request-info parsing of /namespaces/<name>).
func requestNamespace(req admission.Request, obj resource.Object, namespaced bool) string {
	if obj.Kind() == "Namespace" && obj.APIVersion() == "v1" && req.SubResource == "" {
		if req.Operation == admission.OpCreate {
			return ""
		}
		return obj.Name()
	}
	if !namespaced {
		return ""
	}
	return obj.Namespace()
}

// listsDelete reports whether some resourceRules entry lists the literal
// DELETE operation ("*" does not count, §3.9).
func listsDelete(p *gpol.Policy) bool {
	if p.Spec.MatchConstraints == nil {
		return false
	}
	for _, r := range p.Spec.MatchConstraints.ResourceRules {
		if slices.Contains(r.Operations, admission.OpDelete) {
			return true
		}
	}
	return false
}

// webhookMatches is the API server's choice of sending the request to the
// policy's webhook: the rules with every operation (Kyverno registers
// CREATE, UPDATE, DELETE and CONNECT whatever the policy lists), the
// namespaceSelector merged with the install's exclusions (pinned to the
// policy's namespace for a NamespacedGeneratingPolicy), and the
// objectSelector on the object or the old object.
func webhookMatches(p *gpol.Policy, info cluster.KindInfo, subResource string, obj resource.Object, ns string, f *Family) bool {
	mc := p.Spec.MatchConstraints
	if mc == nil {
		return false
	}
	rules := make([]gpol.ResourceRule, len(mc.ResourceRules))
	for i, r := range mc.ResourceRules {
		r.Operations, r.ResourceNames = []string{"*"}, nil
		rules[i] = r
	}
	a := gpol.Attributes{Operation: gpol.OpCreate, Group: info.Group, Version: info.Version, Resource: info.Resource,
		SubResource: subResource, Kind: obj.GVK(), Name: obj.Name(), Namespace: obj.Namespace(), Object: obj, Namespaced: info.Namespaced}
	if subResource != "" {
		a.Namespace, a.Namespaced = ns, true
	}
	if ok, _ := (&gpol.MatchResources{ResourceRules: rules}).Match(a); !ok {
		return false
	}
	// namespaceSelector: the Namespace object's own labels, else those of
	// the request's namespace; cluster-scoped objects always pass.
	var nsName string
	switch {
	case obj.Kind() == "Namespace" && obj.APIVersion() == "v1":
		nsName = obj.Name()
	case ns != "":
		nsName = ns
	default:
		return true
	}
	if slices.Contains(excludedNamespaces, nsName) {
		return false
	}
	if p.Namespaced() {
		return nsName == p.Namespace
	}
	return true
}

// keptOnTriggerDelete says why nothing happens to what a policy without
// synchronize generated for a deleted trigger.
func (f *Family) keptOnTriggerDelete(e *entry, trig resource.Object) {
	if trig.UID() == "" {
		return
	}
	tref := trig.Ref()
	labels := map[string]string{generate.LabelManagedBy: generate.ValueKyverno, generate.LabelPolicyName: e.p.Name,
		generate.LabelTriggerUID: trig.UID()}
	for _, d := range f.store.List(cluster.Query{Labels: labels}) {
		if _, legacy := d.Label(generate.LabelRuleName); legacy {
			continue
		}
		r := d.Ref()
		f.emit(timeline.ActionKept, &r, e.p, singleRule(e.p), &tref,
			"synchronize is off, so Kyverno does not clean up what the policy generated when its trigger is deleted")
	}
}

// pluralOf guesses the resource of an unknown kind as the REST mapper would.
func pluralOf(f *Family, gvk resource.GVK) string {
	if info, ok := f.store.KindInfo(gvk.APIVersion(), gvk.Kind); ok {
		return info.Resource
	}
	return lowerPlural(gvk.Kind)
}
