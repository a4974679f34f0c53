package controller

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/gpol/compiler"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Family is the CEL GeneratingPolicy family of one simulated cluster.
type Family struct {
	core  *generate.Controller
	store *cluster.Store
	cfg   generate.FamilyConfig
	// policies are the admitted policies by their key (gpol.Policy.Key).
	policies generate.PolicySet[*entry]
	// exceptions are the CEL PolicyExceptions by namespace/name.
	exceptions map[string]*exception
	// admitted is the policy AdmitPolicy parsed and compiled last, handed to
	// PolicyWritten so that each version compiles once.
	admitted *entry
	watch    *watchManager
	// urSeq numbers UpdateRequests: each is a new object in Kyverno
	// (generateName: ur-), never merged with another.
	urSeq int
}

// entry is one admitted policy version with its compiled programs.
type entry struct {
	p        *gpol.Policy
	compiled *compiler.Policy
	// exceptions caches the policy's compiled exceptions by exception key
	// and resourceVersion.
	exceptions map[string]*compiledException
}

type exception struct {
	e   *gpol.Exception
	key string // namespace/name
	rv  string
}

type compiledException struct {
	rv string
	c  *compiler.Exception
	// err is a compile error: the exception cannot be used.
	err error
}

// New creates the CEL family over core. It registers the kinds Kyverno's
// CRDs serve that the store does not know yet.
func New(core *generate.Controller, cfg generate.FamilyConfig) generate.Family {
	if cfg.Kyverno == "" {
		cfg.Kyverno = upstream.Latest
	}
	f := &Family{
		core: core, store: core.Store(), cfg: cfg,
		exceptions: map[string]*exception{},
	}
	f.watch = newWatchManager(f)
	for _, v := range []string{"v1", "v1beta1", "v1alpha1"} {
		f.store.RegisterKind(cluster.KindInfo{Group: gpol.Group, Version: v, Kind: gpol.KindGeneratingPolicy, Resource: "generatingpolicies"})
		f.store.RegisterKind(cluster.KindInfo{Group: gpol.Group, Version: v, Kind: gpol.KindPolicyException, Resource: "policyexceptions", Namespaced: true})
	}
	for _, v := range []string{"v1", "v1beta1"} {
		f.store.RegisterKind(cluster.KindInfo{Group: gpol.Group, Version: v, Kind: gpol.KindNamespacedGeneratingPolicy,
			Resource: "namespacedgeneratingpolicies", Namespaced: true})
	}
	return f
}

// Name implements generate.Family.
func (f *Family) Name() string { return "GeneratingPolicy" }

// Owns implements generate.Family.
func (f *Family) Owns(obj resource.Object) bool { return gpol.IsPolicy(obj) || gpol.IsException(obj) }

// Override implements generate.Family: a GeneratingPolicy's (or a
// NamespacedGeneratingPolicy's) spec.evaluation.synchronize.enabled and
// spec.evaluation.orphanDownstreamOnPolicyDelete.enabled, this family's
// fields for what a ClusterPolicy sets on its rules. Exceptions have none.
func (f *Family) Override(obj resource.Object, o generate.Override) {
	if !gpol.IsPolicyKind(obj) {
		return
	}
	set := func(field string, v *bool) {
		if v == nil {
			return
		}
		spec, ok := obj["spec"].(map[string]any)
		if !ok {
			return // the policy's validation says what is wrong
		}
		eval, ok := spec["evaluation"].(map[string]any)
		if !ok {
			if spec["evaluation"] != nil {
				return
			}
			eval = map[string]any{}
			spec["evaluation"] = eval
		}
		fv, ok := eval[field].(map[string]any)
		if !ok {
			if eval[field] != nil {
				return
			}
			fv = map[string]any{}
			eval[field] = fv
		}
		fv["enabled"] = *v
	}
	set("synchronize", o.Synchronize)
	set("orphanDownstreamOnPolicyDelete", o.OrphanDownstreamOnPolicyDelete)
}

// RulePos implements generate.Family: this family diagnoses a failure at
// the expression that failed (diag.go), through the core's Diagnose.
func (f *Family) RulePos(policyKey, rule string) (source.Pos, bool) { return source.Pos{}, false }

// ProcessUpdateRequest implements generate.Family: UpdateRequests users
// create are processed as ClusterPolicy/Policy requests (that family's).
func (f *Family) ProcessUpdateRequest(ur resource.Object) bool { return false }

// confineGlobalContext: Kyverno v1.19.1 refuses globalContext.* in a
// NamespacedGeneratingPolicy, at admission and when called (GHSA-59v6-2x73-wfg4:
// a namespace admin could read cluster-wide cached data through it).
var confineGlobalContext = upstream.Register(upstream.Change{
	ID: "kyverno#17455", Since: upstream.V1_19_1, Family: upstream.FamilyCEL,
	Title:  "namespaced policies cannot read the global context",
	Before: "let a NamespacedGeneratingPolicy call globalContext.get",
	After:  "refuse it at admission (\"globalContext.* is not allowed in namespaced policies\") and when called",
	Files:  []string{"pkg/cel/policies/gpol/validate.go", "pkg/cel/compiler/http.go", "pkg/cel/policies/gpol/compiler/compiler.go"},
})

// checkExceptionConditions: Kyverno v1.19.1 compiles a CEL PolicyException's
// matchConditions when it is written and refuses one that does not compile;
// v1.19.0 stored it, and the policies it refers to failed to use it.
var checkExceptionConditions = upstream.Register(upstream.Change{
	ID: "kyverno#17350", Since: upstream.V1_19_1, Family: upstream.FamilyCEL,
	Title:  "a PolicyException's matchConditions are checked when it is written",
	Before: "store a CEL PolicyException whose matchConditions do not compile (the policies it names then fail)",
	After:  "refuse it at admission with the compile error, in an environment of object, oldObject, request and namespaceObject",
	Files:  []string{"pkg/webhooks/celexception/validate.go", "pkg/cel/compiler/policy_exception.go"},
})

// compilerOptions are the compiler's options for this cluster.
func (f *Family) compilerOptions() compiler.Options {
	return compiler.Options{DenyGlobalContextInNamespaced: confineGlobalContext.In(f.cfg.Kyverno)}
}

// AdmitPolicy implements generate.Family: the API server's schema check,
// then Kyverno's policy validation webhook (§1.4).
func (f *Family) AdmitPolicy(obj, old resource.Object, doc *source.Document) generate.PolicyAdmission {
	f.admitted = nil
	if gpol.IsException(obj) {
		e, diags := gpol.ParseException(doc, obj)
		if diags.HasErrors() {
			return generate.PolicyAdmission{Err: schemaError(obj, diags), Diagnostics: diags}
		}
		if checkExceptionConditions.In(f.cfg.Kyverno) {
			if errs := compiler.CheckException(e).Errors(); len(errs) > 0 {
				msgs := make([]string, len(errs))
				for i, d := range errs {
					msgs[i] = d.Message
				}
				msg := msgs[0]
				if len(msgs) > 1 {
					msg = "[" + strings.Join(msgs, ", ") + "]"
				}
				return generate.PolicyAdmission{Err: fmt.Errorf("admission webhook \"kyverno-svc.kyverno.svc\" denied the request: %s", msg),
					Diagnostics: append(diags, errs...), Changes: []string{checkExceptionConditions.ID}}
			}
		}
		return generate.PolicyAdmission{Diagnostics: diags}
	}
	p, diags := gpol.Parse(doc, obj)
	if diags.HasErrors() {
		return generate.PolicyAdmission{Err: schemaError(obj, diags), Diagnostics: diags}
	}
	valid := gpol.Validate(p)
	var schema, webhook source.Diagnostics
	for _, d := range valid {
		if d.Severity != source.SeverityError {
			diags = append(diags, d)
			continue
		}
		if isWebhookMessage(d.Message) {
			webhook = append(webhook, d)
		} else {
			schema = append(schema, d)
		}
	}
	if len(schema) > 0 {
		return generate.PolicyAdmission{Err: invalidError(obj, schema), Diagnostics: append(diags, schema...)}
	}
	compiled, cdiags := compiler.Compile(p, f.compilerOptions())
	if cdiags.HasErrors() {
		webhook = append(cdiags.Errors(), webhook...)
	}
	if len(webhook) > 0 {
		// Kyverno's policy webhook returns each error both as the denial
		// and as an admission warning: kubectl prints a Warning: line first.
		msgs := make([]string, len(webhook))
		for i, d := range webhook {
			msgs[i] = d.Message
		}
		msg := strings.Join(msgs, "; ")
		var changes []string
		if slices.Contains(msgs, compiler.GlobalContextForbidden) {
			changes = []string{confineGlobalContext.ID}
		}
		return generate.PolicyAdmission{
			Err:            fmt.Errorf("admission webhook \"validate-policy.kyverno.svc\" denied the request: %s", msg),
			Warnings:       []string{msg},
			Diagnostics:    append(diags, webhook...),
			Changes:        changes,
			WarningChanges: changes,
		}
	}
	f.admitted = &entry{p: p, compiled: compiled, exceptions: map[string]*compiledException{}}
	return generate.PolicyAdmission{Diagnostics: diags}
}

// isWebhookMessage tells a check of Kyverno's policy webhook from a CRD
// schema check among gpol.Validate's diagnostics.
func isWebhookMessage(msg string) bool {
	return strings.HasPrefix(msg, "spec.matchConstraints: Required value: a matchConstraints") ||
		strings.Contains(msg, "not allowed in namespaced policies")
}

// schemaError words a parse failure as the API server does: unknown fields
// are a strict decoding error, the rest an invalid object.
func schemaError(obj resource.Object, diags source.Diagnostics) error {
	errs := diags.Errors()
	msgs := make([]string, len(errs))
	for i, d := range errs {
		msgs[i] = d.Message
	}
	if len(msgs) > 0 && strings.Contains(msgs[0], "unknown field") {
		_, version := resource.SplitAPIVersion(obj.APIVersion())
		return fmt.Errorf("%s in version %q cannot be handled as a %s: strict decoding error: %s", obj.Kind(), version, obj.Kind(),
			strings.TrimPrefix(strings.Join(msgs, ", "), "strict decoding error: "))
	}
	return invalidError(obj, errs)
}

// invalidError is the API server's Invalid error for schema violations,
// which kubectl prints from its details: `The GeneratingPolicy "x" is
// invalid: ...`.
func invalidError(obj resource.Object, diags source.Diagnostics) error {
	causes := make([]cluster.FieldError, len(diags))
	for i, d := range diags {
		causes[i] = fieldError(d.Message)
	}
	return cluster.Invalid(obj.Kind(), obj.Name(), causes)
}

// fieldError reads a field error back from its message,
// "spec.generate: Required value[: detail]".
func fieldError(msg string) cluster.FieldError {
	field, rest, _ := strings.Cut(msg, ": ")
	typ, detail, _ := strings.Cut(rest, ": ")
	return cluster.FieldError{Field: field, Type: typ, Detail: detail}
}

// Status implements generate.Family: the conditions Kyverno's
// policy-status controller writes (§1.3).
func (f *Family) Status(obj resource.Object) map[string]any {
	if !gpol.IsPolicy(obj) {
		return nil
	}
	admission := true
	if e := f.admitted; e != nil && e.p.Key() == policyKeyOf(obj) {
		admission = e.p.Spec.Evaluation.AdmissionEnabled
	}
	return gpol.StatusReady(f.core.Clock().Stamp(), admission)
}

// policyKeyOf is gpol.Policy.Key for a stored object.
func policyKeyOf(obj resource.Object) string {
	if obj.Kind() == gpol.KindNamespacedGeneratingPolicy {
		return gpol.KindNamespacedGeneratingPolicy + "/" + obj.Namespace() + "/" + obj.Name()
	}
	return gpol.KindGeneratingPolicy + "/" + obj.Name()
}

// PolicyWritten implements generate.Family.
func (f *Family) PolicyWritten(old, obj resource.Object) {
	if gpol.IsException(obj) {
		e, diags := gpol.ParseException(nil, obj)
		if diags.HasErrors() {
			return
		}
		e.Raw = obj
		key := obj.Namespace() + "/" + obj.Name()
		f.exceptions[key] = &exception{e: e, key: key, rv: obj.ResourceVersion()}
		if !f.cfg.PolicyExceptions && old == nil {
			r := obj.Ref()
			f.emit(timeline.ActionNote, &r, nil, "", nil,
				"PolicyExceptions are off (Kyverno's --enablePolicyException is false, as in the Helm chart), so Kyverno ignores this exception; "+
					"genplay run --policy-exceptions turns them on (Kyverno's conformance suite, and genplay test, run with them on)")
		}
		return
	}
	e := f.admitted
	f.admitted = nil
	if e == nil || e.p.Key() != policyKeyOf(obj) {
		return
	}
	e.p.Raw = obj
	prev := f.policies.Get(e.p.Key())
	f.policies.Put(e.p.Key(), e)
	if prev == nil || !resource.Equal(prev.p.Raw["spec"], e.p.Raw["spec"]) {
		f.renderWebhooks()
	}
	if prev == nil {
		f.policyAdded(e)
		return
	}
	f.policyUpdated(prev, e)
}

// PolicyDeleted implements generate.Family.
func (f *Family) PolicyDeleted(obj resource.Object) {
	if gpol.IsException(obj) {
		delete(f.exceptions, obj.Namespace()+"/"+obj.Name())
		return
	}
	key := policyKeyOf(obj)
	e := f.policies.Get(key)
	if e == nil {
		return
	}
	f.policies.Delete(key)
	f.renderWebhooks()
	f.policyDeleted(e)
}

// policyByURKey finds a policy by an UpdateRequest's spec.policy: the name
// of a GeneratingPolicy, namespace/name of a NamespacedGeneratingPolicy.
func (f *Family) policyByURKey(k string) *entry {
	if ns, name, ok := strings.Cut(k, "/"); ok {
		return f.policies.Get(gpol.KindNamespacedGeneratingPolicy + "/" + ns + "/" + name)
	}
	return f.policies.Get(gpol.KindGeneratingPolicy + "/" + k)
}

// urKey is the UpdateRequest's spec.policy for p, which is also the
// WatchManager's policy key.
func urKey(p *gpol.Policy) string {
	if p.Namespaced() {
		return p.Namespace + "/" + p.Name
	}
	return p.Name
}

// Restart implements generate.Family: the background controller's memory
// (the WatchManager's cache and watches, the field manager's record is in
// the API server and stays) is lost; on startup the policy controller sees
// every policy as added (§3.7, §3.8 "background controller restart").
func (f *Family) Restart() {
	f.watch = newWatchManager(f)
	if f.policies.Len() == 0 {
		return
	}
	f.emit(timeline.ActionNote, nil, nil, "", nil,
		"Kyverno's background controller restarted: its watch cache of generated objects is gone; every GeneratingPolicy is synced as on startup "+
			"(policies with synchronize get cache-restore UpdateRequests that re-track existing downstreams without changing them)")
	for _, e := range f.policies.Sorted() {
		f.enqueueSync(e, syncRestart)
	}
}

// BackgroundScan implements generate.Family: the periodic requeue of every
// policy (requeuePolicies).
func (f *Family) BackgroundScan() {
	for _, e := range f.policies.Sorted() {
		f.enqueueSync(e, syncScan)
	}
}

// emit records one event of Kyverno's.
func (f *Family) emit(action string, obj *resource.Ref, p *gpol.Policy, rule string, trig *resource.Ref, reason string) {
	f.emitChange(nil, action, obj, p, rule, trig, reason)
}

// emitChange records one event of Kyverno's that a change between
// releases decided (ch; nil when every release does the same).
func (f *Family) emitChange(ch *upstream.Change, action string, obj *resource.Ref, p *gpol.Policy, rule string, trig *resource.Ref, reason string) {
	e := timeline.Event{Actor: timeline.ActorKyverno, Action: action, Object: obj, Rule: rule, Trigger: trig, Reason: reason}
	if p != nil {
		e.Policy = p.Key()
	}
	if ch != nil {
		e.VersionChanges = []string{ch.ID}
	}
	f.core.Emit(e)
}
