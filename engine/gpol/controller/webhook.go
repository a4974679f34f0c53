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
		req, obj, info := req, obj, info
		if version := f.equivalentVersion(p, info, req.SubResource); version != "" {
			// The API server converts the request to the version the
			// webhook registered (matchPolicy Equivalent) before sending it.
			info = convertedInfo(f, info, version)
			req.Object, req.OldObject = convertedTo(req.Object, info), convertedTo(req.OldObject, info)
			obj = convertedTo(obj, info)
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
		if !f.matchConditionsSend(e, req, obj) {
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

// matchConditionsSend is the API server's evaluation of the
// matchConditions Kyverno copies into a fine-grained policy's webhook, for
// the requests where releases differ: an UPDATE or DELETE for a
// synchronize policy. Kyverno v1.18.2 copies them as they are, so a
// trigger updated out of them (or deleted, when they read object, which
// is null then) never reaches Kyverno: false, or an error (the webhook's
// failurePolicy is Ignore), skips the webhook. v1.19.0 wraps them to
// filter CREATE only (kyverno#16838), so Kyverno sees the request and
// evaluates them itself. A CREATE, or a policy without synchronize, gives
// the same outcome either way: the engine evaluates the same conditions.
func (f *Family) matchConditionsSend(e *entry, req admission.Request, obj resource.Object) bool {
	p := e.p
	if inPlaceOnTriggerUpdate.In(f.cfg.Kyverno) || !p.Spec.Evaluation.Synchronize || len(p.Spec.MatchConditions) == 0 || !fineGrained(p) ||
		(req.Operation != admission.OpUpdate && req.Operation != admission.OpDelete) || e.compiled == nil {
		return true
	}
	ur := &updateRequest{policy: urKey(p), admission: &req, cause: causeAdmission, f: f}
	ev := f.newEvaluation(e, ur, ruleContext{trigger: triggerOf(obj, req)}, obj)
	in := ev.input()
	in.NamespaceObject = nil // the API server binds it to null for webhooks
	if req.Operation == admission.OpDelete {
		in.Object = nil
	}
	ok, err := e.compiled.Match(in, &host{ev: ev})
	if ok && err == nil {
		return true
	}
	if req.User.Username == admission.BackgroundUser {
		return false
	}
	why := "false for it"
	if err != nil {
		why = "an error for it (" + err.Error() + "), and the webhook's failurePolicy is Ignore"
	}
	what, kept := "updated", "not updated or deleted"
	if req.Operation == admission.OpDelete {
		what, kept = "deleted", "not deleted"
	}
	tref := obj.Ref()
	labels := map[string]string{generate.LabelManagedBy: generate.ValueKyverno, generate.LabelPolicyName: p.Name, generate.LabelTriggerUID: obj.UID()}
	for _, d := range f.store.List(cluster.Query{Labels: labels}) {
		if _, legacy := d.Label(generate.LabelRuleName); legacy {
			continue
		}
		r := d.Ref()
		f.emitChange(inPlaceOnTriggerUpdate, timeline.ActionKept, &r, p, singleRule(p), &tref,
			kept+": the trigger was "+what+", but Kyverno "+string(f.cfg.Kyverno)+
				" never saw it: its webhook carries the policy's matchConditions, which are "+why+", so the API server did not call Kyverno: "+
				inPlaceOnTriggerUpdate.Says())
	}
	return false
}

// requestNamespace is request.namespace as the API server sets it: the
// object's namespace, and for a Namespace its own name: on UPDATE and
// DELETE from request-info parsing of /namespaces/<name>, on CREATE from
// the create handler (k8s.io/apiserver endpoints/handlers/create.go sets
// the namespace of a namespaces create to the new object's name).
func requestNamespace(req admission.Request, obj resource.Object, namespaced bool) string {
	if obj.Kind() == "Namespace" && obj.APIVersion() == "v1" && req.SubResource == "" {
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
// policy's webhook, in part: the rules with every operation (Kyverno
// registers CREATE, UPDATE, DELETE and CONNECT whatever the policy lists)
// and the install's excluded namespaces (the namespace pinned to the
// policy's own for a NamespacedGeneratingPolicy). The policy's
// namespaceSelector and objectSelector, which Kyverno copies into the
// webhook, are left to the engine step, which checks them with the same
// outcome (engine/doc.go).
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
	a := gpol.Attributes{Operation: admission.OpCreate, Group: info.Group, Version: info.Version, Resource: info.Resource,
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

// equivalentVersion is the version the API server converts a request on
// info's resource to before it calls the webhook that serves p, or "" when
// it sends the request as it is. Kubernetes' webhook dispatcher
// (admission/plugin/webhook/generic, with matchPolicy Equivalent, the
// default) sends a request unchanged when one of the webhook's rules
// matches its group, version and resource; otherwise it looks, rule by rule,
// for another version of the same group and resource that the rule lists
// and the server serves, and converts the object to it. A policy shares its
// webhook, and so its rules, with the policies Kyverno aggregates with it;
// a fine-grained one has its own (renderWebhooks).
func (f *Family) equivalentVersion(p *gpol.Policy, info cluster.KindInfo, subResource string) string {
	if p.Spec.MatchConstraints == nil {
		return ""
	}
	var rules []gpol.ResourceRule
	if fineGrained(p) {
		if p.Spec.MatchConstraints.MatchPolicy == gpol.MatchPolicyExact {
			return ""
		}
		rules = p.Spec.MatchConstraints.ResourceRules
	} else {
		key := webhookGroup(p)
		for _, e := range f.policies.Sorted() {
			q := e.p
			if q.Spec.Evaluation.AdmissionEnabled && q.Spec.MatchConstraints != nil && !fineGrained(q) && webhookGroup(q) == key {
				rules = append(rules, q.Spec.MatchConstraints.ResourceRules...)
			}
		}
	}
	res := info.Resource
	if subResource != "" {
		res += "/" + subResource
	}
	lists := func(list []string, v string) bool { return slices.Contains(list, "*") || slices.Contains(list, v) }
	for _, r := range rules {
		if lists(r.APIGroups, info.Group) && lists(r.APIVersions, info.Version) && lists(r.Resources, res) {
			return ""
		}
	}
	for _, r := range rules {
		if !lists(r.APIGroups, info.Group) || !lists(r.Resources, res) {
			continue
		}
		for _, v := range r.APIVersions {
			if v == "*" || v == info.Version {
				continue
			}
			if other, ok := f.store.KindByResource(info.Group, v, info.Resource); ok && other.Kind == info.Kind {
				return v
			}
		}
	}
	return ""
}

// webhookGroup is the key of the aggregated webhook a policy's rules go to
// (renderWebhooks).
func webhookGroup(p *gpol.Policy) string {
	objSel := selectorJSON(p.Spec.MatchConstraints.ObjectSelector)
	if objSel == nil {
		objSel = map[string]any{}
	}
	prefix := "gpol"
	if p.Namespaced() {
		prefix = "ngpol"
	}
	return prefix + "|" + canonical(namespaceSelector(p)) + "|" + canonical(objSel)
}

// convertedInfo is info in another served version.
func convertedInfo(f *Family, info cluster.KindInfo, version string) cluster.KindInfo {
	if other, ok := f.store.KindByResource(info.Group, version, info.Resource); ok {
		return other
	}
	info.Version = version
	return info
}

// convertedTo is obj converted to info's version: custom resources without
// a conversion webhook change only their apiVersion (conversion strategy
// None); nil stays nil.
func convertedTo(obj resource.Object, info cluster.KindInfo) resource.Object {
	if obj == nil {
		return nil
	}
	out := obj.DeepCopy()
	out["apiVersion"] = info.APIVersion()
	return out
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
