package controller

import (
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/budget"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/conditions"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// process runs one UpdateRequest (ProcessUR). A failure is an event, as a
// Failed UpdateRequest is in Kyverno: retried (identically, here) and dropped.
func (c *Family) process(ur *updateRequest) {
	switch ur.kind {
	case urCleanupRule:
		c.cleanupRule(ur)
		return
	case urDeleteDownstream:
		c.deleteTriggerDownstreams(ur)
		return
	}
	p := c.policies.Get(ur.policy.Key())
	if p == nil {
		return // the policy went before Kyverno got to the request
	}
	rule := p.Rule(ur.rule)
	if rule == nil || rule.Generate == nil {
		return
	}
	var trig resource.Object
	switch {
	case ur.operation() == admission.OpDelete:
		trig = ur.admission.OldObject
	case ur.admission != nil && ur.admission.SubResource != "":
		// A subresource object (PodExecOptions) is not stored: Kyverno
		// uses the request's object as the trigger.
		trig = ur.admission.Object
	default:
		trig = c.findByUID(ur.trigger)
	}
	tref := c.triggerRef(ur.trigger)
	if trig == nil {
		if ur.cause.kind == causeDownstreamDeleted || ur.cause.kind == causeDownstreamChanged {
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, ur.cause.object, p, rule.Name, tref,
				"the trigger named in the downstream's labels no longer exists, so the UpdateRequest fails and nothing is restored")
		}
		return
	}
	v := view{operation: ur.operation(), object: trig}
	if ur.admission != nil {
		v.user = &ur.admission.User
		v.subResource, v.resource = ur.admission.SubResource, ur.admission.Resource
		if ur.operation() != admission.OpDelete {
			v.oldObject = ur.admission.OldObject
		}
	}
	status, reason := c.filterRule(p, rule, v)
	switch status {
	case statusNone:
		if ops := listsOperations(rule); len(ops) > 0 && v.operation == "" {
			if ur.cause.kind != causeGenerateExisting && ur.cause.kind != causePolicyUpdated &&
				ur.cause.kind != causePolicyCreated && ur.cause.kind != causeBackgroundScan {
				c.emit(timeline.ActorKyverno, timeline.ActionSkipped, ur.cause.object, p, rule.Name, tref, reasonNoOperation(ops))
			}
			return
		}
		if ur.cause.kind == causeGenerateExisting {
			return // generateExisting lists candidates loosely; non-matching ones do nothing
		}
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, tref, p, rule.Name, tref,
			"policy does not apply to resource: "+reason)
		return
	case statusFail, statusSkip:
		if ur.cause.kind != causeGenerateExisting && ur.cause.kind != causePolicyUpdated && ur.cause.kind != causeBackgroundScan {
			c.emit(timeline.ActorKyverno, timeline.ActionSkipped, tref, p, rule.Name, tref, reason)
		}
		return
	case statusError:
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, tref, p, rule.Name, tref, reason)
		return
	}
	c.applyRule(p, rule, trig, v, ur)
}

// applyRule generates every target of a rule for one trigger.
func (c *Family) applyRule(p *policy.Policy, rule *policy.Rule, trig resource.Object, v view, ur *updateRequest) {
	ctx := c.withValues(p, trig, requestContext(v, trig))
	if v.operation == admission.OpDelete {
		// On DELETE Kyverno rewrites request.object to request.oldObject,
		// which holds the deleted object.
		ctx["request"].(map[string]any)["object"] = map[string]any(trig)
		ctx["request"].(map[string]any)["oldObject"] = map[string]any(trig)
	}
	tref := trig.Ref()
	if err := c.loadContext(rule.Context, ctx, c.ruleValues(p, rule.Name)); err != nil {
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref, err.Error())
		return
	}
	g := rule.Generate
	if len(g.ForEach) == 0 {
		c.generateTarget(p, rule, g.Target, ctx, trig, ur)
		return
	}
	current := map[resource.Ref]bool{} // the targets of the current elements
	listed := true                     // every list could be read
	for i, fe := range g.ForEach {
		list, err := c.eval.Search(fe.List, ctx)
		if err != nil {
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref,
				fmt.Sprintf("foreach[%d].list %q: %v", i, fe.List, err))
			listed = false
			continue
		}
		elems, ok := list.([]any)
		if !ok {
			if list == nil {
				continue
			}
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref,
				fmt.Sprintf("foreach[%d].list %q is not a list", i, fe.List))
			listed = false
			continue
		}
		if len(elems) > c.core.Options().MaxForEachElements {
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref,
				fmt.Sprintf("foreach[%d].list %q has %d elements; genplay processes at most %d", i, fe.List, len(elems), c.core.Options().MaxForEachElements))
			continue
		}
		for j, el := range elems {
			if err := c.core.Budget().Charge(budget.Evaluation+int64(len(ctx)), "foreach"); err != nil {
				c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref,
					fmt.Sprintf("foreach[%d] element %d: %v", i, j, err))
				return
			}
			if el == nil {
				continue // Kyverno's generateElements skips null elements
			}
			ectx := cloneContext(ctx)
			ectx["element"] = el
			ectx["elementIndex"] = float64(j)
			if err := c.loadContext(fe.Context, ectx, nil); err != nil {
				c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref, err.Error())
				continue
			}
			if fe.Preconditions != nil {
				ok, reason, err := conditions.Evaluate(c.eval, ectx, fe.Preconditions)
				if err != nil {
					c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref, err.Error())
					continue
				}
				if !ok {
					c.emit(timeline.ActorKyverno, timeline.ActionSkipped, &tref, p, rule.Name, &tref,
						fmt.Sprintf("foreach[%d] element %d: %s", i, j, reason))
					continue
				}
			}
			c.generateTarget(p, rule, fe.Target, ectx, trig, ur)
			if rt, err := c.render(fe.Target, ectx); err == nil {
				current[resource.Ref{APIVersion: rt.apiVersion, Kind: rt.kind, Namespace: rt.namespace, Name: rt.name}] = true
			}
		}
	}
	if listed && ur.cause.kind == causeTriggerUpdated {
		c.explainLeftForeach(p, rule, trig, current)
	}
}

// explainLeftForeach says what happens to the downstreams of elements that
// left a foreach list on a trigger update: nothing. Kyverno generates for
// the current elements only and deletes downstreams only when the trigger
// goes or stops matching, so they stay, still labelled.
func (c *Family) explainLeftForeach(p *policy.Policy, rule *policy.Rule, trig resource.Object, current map[resource.Ref]bool) {
	for _, d := range sortedRefs(c.triggerDownstreams(p, rule, triggerOf(trig))) {
		r := d.Ref()
		if current[r] {
			continue
		}
		tref := trig.Ref()
		c.emit(timeline.ActorKyverno, timeline.ActionKept, &r, p, rule.Name, &tref,
			"its element left the foreach list, but the trigger still matches: Kyverno generates for the current elements "+
				"and deletes nothing (whatever synchronize says), so this downstream stays, still labelled")
	}
}

// renderedTarget is a Target after variable substitution.
type renderedTarget struct {
	apiVersion, kind, name, namespace string
	data                              any
	hasData                           bool
	clone                             *policy.Clone
	cloneList                         *policy.CloneList
}

func (c *Family) render(t policy.Target, ctx map[string]any) (renderedTarget, error) {
	var out renderedTarget
	var err error
	str := func(field, s string) string {
		if err != nil {
			return ""
		}
		v, e := c.eval.Substitute(ctx, s)
		if e != nil {
			err = fmt.Errorf("%s: %w", field, e)
			return ""
		}
		if v == nil {
			return ""
		}
		if s, ok := v.(string); ok {
			return s
		}
		return fmt.Sprint(v)
	}
	out.apiVersion = str("apiVersion", t.APIVersion)
	out.kind = str("kind", t.Kind)
	out.name = str("name", t.Name)
	out.namespace = str("namespace", t.Namespace)
	if t.Clone != nil {
		out.clone = &policy.Clone{Namespace: str("clone.namespace", t.Clone.Namespace), Name: str("clone.name", t.Clone.Name)}
	}
	if t.CloneList != nil {
		cl := *t.CloneList
		cl.Namespace = str("cloneList.namespace", cl.Namespace)
		kinds := make([]string, len(cl.Kinds))
		for i, k := range cl.Kinds {
			kinds[i] = str("cloneList.kinds", k)
		}
		cl.Kinds = kinds
		if cl.Selector != nil {
			sel := &policy.LabelSelector{MatchLabels: map[string]string{}}
			for k, v := range cl.Selector.MatchLabels {
				sel.MatchLabels[str("cloneList.selector", k)] = str("cloneList.selector", v)
			}
			for _, r := range cl.Selector.MatchExpressions {
				vals := make([]string, len(r.Values))
				for i, v := range r.Values {
					vals[i] = str("cloneList.selector", v)
				}
				sel.MatchExpressions = append(sel.MatchExpressions, policy.Requirement{Key: str("cloneList.selector", r.Key), Operator: r.Operator, Values: vals})
			}
			cl.Selector = sel
		}
		out.cloneList = &cl
	}
	if err != nil {
		return out, err
	}
	if t.HasData {
		out.hasData = true
		// Substitute returns a copy and leaves t.Data unchanged (its contract;
		// every map and list of the result is new), so no copy is needed here.
		out.data, err = c.eval.Substitute(ctx, t.Data)
		if err != nil {
			return out, fmt.Errorf("data: %w", err)
		}
	}
	return out, nil
}

// generateTarget computes the desired object(s) of one pattern and syncs them.
func (c *Family) generateTarget(p *policy.Policy, rule *policy.Rule, t policy.Target, ctx map[string]any, trig resource.Object, ur *updateRequest) {
	rt, err := c.render(t, ctx)
	if err != nil {
		tref := trig.Ref() // here, not above: its address escapes into the event
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref,
			"variable substitution failed: "+err.Error())
		return
	}
	switch {
	case rt.cloneList != nil:
		for _, src := range c.cloneListSources(rt.cloneList) {
			if src.Namespace() == rt.namespace {
				continue // manageCloneList skips sources already in the target namespace
			}
			src = c.tagSource(p, rule, src)
			c.sync(p, rule, cloneDesired(src, rt.namespace, src.Name()), trig, ur, true)
		}
	case rt.clone != nil && (rt.clone.Name != "" || rt.clone.Namespace != ""):
		sref := resource.Ref{APIVersion: rt.apiVersion, Kind: rt.kind, Namespace: rt.clone.Namespace, Name: rt.clone.Name}
		target := resource.Ref{APIVersion: rt.apiVersion, Kind: rt.kind, Namespace: rt.namespace, Name: rt.name}
		if sref == target {
			return // a self-clone is skipped
		}
		src, err := c.store.Get(sref)
		if err != nil {
			tref := trig.Ref()
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &target, p, rule.Name, &tref,
				fmt.Sprintf("source resource %s not found: the UpdateRequest fails (Kyverno retries it, then drops it)", sref))
			return
		}
		src = c.tagSource(p, rule, src)
		c.sync(p, rule, cloneDesired(src, rt.namespace, rt.name), trig, ur, true)
	default:
		m, isMap := rt.data.(map[string]any)
		if !isMap {
			if rt.hasData && rt.data != nil {
				tref := trig.Ref()
				c.emit(timeline.ActorKyverno, timeline.ActionFailed, &tref, p, rule.Name, &tref, "generate.data is not an object")
				return
			}
			m = map[string]any{}
		}
		desired := resource.Object(m)
		desired["apiVersion"] = rt.apiVersion
		if desired.Kind() == "" {
			desired["kind"] = rt.kind
		}
		md := desired.Metadata()
		md["name"] = rt.name
		if rt.namespace != "" {
			md["namespace"] = rt.namespace
		} else {
			delete(md, "namespace")
		}
		c.sync(p, rule, desired, trig, ur, false)
	}
}

// cloneListSources lists the objects a cloneList copies.
func (c *Family) cloneListSources(cl *policy.CloneList) []resource.Object {
	var out []resource.Object
	for _, k := range cl.Kinds {
		apiVersion, kind, ok := c.resolveKind(k)
		if !ok {
			continue
		}
		for _, obj := range c.store.List(cluster.Query{APIVersion: apiVersion, Kind: kind, Namespace: cl.Namespace}) {
			if cl.Selector == nil || selectorMatches(cl.Selector, obj.Labels()) {
				out = append(out, obj)
			}
		}
	}
	return out
}

// tagSource labels a clone source with generate.kyverno.io/clone-source,
// updating the source object itself (updateSourceLabel).
func (c *Family) tagSource(p *policy.Policy, rule *policy.Rule, src resource.Object) resource.Object {
	if _, ok := src.Label(generate.LabelCloneSource); ok {
		return src
	}
	l := src.Labels()
	upd := src.DeepCopy()
	l[generate.LabelCloneSource] = ""
	upd.SetLabels(l)
	updated, err := c.core.Update(kyverno, upd)
	if err != nil {
		return src
	}
	r := updated.Ref()
	c.emit(timeline.ActorKyverno, timeline.ActionUpdated, &r, p, rule.Name, nil,
		"labelled the clone source with generate.kyverno.io/clone-source so Kyverno follows its changes")
	return updated
}

// cloneDesired copies a source into the downstream's identity.
func cloneDesired(src resource.Object, namespace, name string) resource.Object {
	d := src.DeepCopy()
	md := d.Metadata()
	for _, k := range []string{"uid", "selfLink", "creationTimestamp", "managedFields", "resourceVersion", "generation"} {
		delete(md, k)
	}
	if src.Namespace() != namespace {
		delete(md, "ownerReferences")
	}
	md["name"] = name
	if namespace != "" {
		md["namespace"] = namespace
	} else {
		delete(md, "namespace")
	}
	l := d.Labels()
	for k, v := range sourceLabels(src) {
		l[k] = v
	}
	d.SetLabels(l)
	return d
}

// serverFields are metadata fields the API server owns; a PUT keeps them.
var serverFields = []string{"uid", "resourceVersion", "creationTimestamp", "generation", "selfLink", "managedFields"}

// sync creates the downstream if it is missing, or updates it when the rule
// synchronizes (SEMANTICS §2 step 4).
func (c *Family) sync(p *policy.Policy, rule *policy.Rule, desired resource.Object, trig resource.Object, ur *updateRequest, clone bool) {
	t := triggerOf(trig)
	tref := trig.Ref()
	rr := refOf(p, rule.Name)
	given, _ := desired.Metadata()["labels"].(map[string]any)
	dropped := manageLabels(desired, rr, t)
	ref := desired.Ref()
	// note says why the labels the rule wrote are missing, once the
	// object is written.
	note := func() {
		if dropped != "" {
			c.emit(timeline.ActorKyverno, timeline.ActionNote, &ref, p, rule.Name, &tref, droppedLabelsReason(dropped, given[dropped]))
		}
	}
	// live is only read below (drifted copies it first; next shares only its
	// server fields, which are strings, and a copy of its status), and never
	// reaches a variable context: the stored object, not a copy.
	live, err := c.store.View(ref)
	if err != nil {
		if !isNotFound(err) {
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &ref, p, rule.Name, &tref, err.Error())
			return
		}
		if p.Spec.UseServerSideApply {
			_, err = c.core.Apply(kyverno, desired)
		} else {
			_, err = c.core.Create(kyverno, desired)
		}
		if err != nil {
			c.emit(timeline.ActorKyverno, timeline.ActionFailed, &ref, p, rule.Name, &tref,
				"could not create the downstream: "+err.Error())
			return
		}
		note()
		action, reason := createReason(rule, ur)
		c.emit(timeline.ActorKyverno, action, &ref, p, rule.Name, &tref, reason)
		return
	}
	if !rule.Generate.Synchronize {
		if ur.cause.kind == causeTriggerUpdated || ur.cause.kind == causeGenerateExisting || ur.cause.kind == causePolicyUpdated {
			if drifted(live, desired) {
				c.emit(timeline.ActorKyverno, timeline.ActionKept, &ref, p, rule.Name, &tref,
					"the downstream exists and synchronize is false, so Kyverno leaves it as it is")
			}
		}
		return
	}
	policyName, _ := live.Label(generate.LabelPolicyName)
	adopted := policyName == "" // !isDownstream(live.Labels()), without the copy
	if p.Spec.UseServerSideApply {
		// A dry run first: Kyverno skips an update that changes nothing.
		if _, changed, err := c.store.Apply(desired.DeepCopy(), generate.FieldManager, true); err == nil && !changed {
			return
		}
		_, err = c.core.Apply(kyverno, desired)
	} else {
		next := desired
		md := next.Metadata()
		lmd := live.Metadata()
		for _, k := range serverFields {
			if v, ok := lmd[k]; ok {
				md[k] = v
			}
		}
		if st, ok := live["status"]; ok {
			if _, has := next["status"]; !has {
				next["status"] = resource.DeepCopyValue(st) // Update takes next over; live is read-only
			}
		}
		if resource.Equal(next, live) {
			return
		}
		_, err = c.core.Update(kyverno, next)
	}
	if err != nil {
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, &ref, p, rule.Name, &tref,
			"could not update the downstream: "+err.Error())
		return
	}
	note()
	action, reason := updateReason(ur, adopted, clone)
	c.emit(timeline.ActorKyverno, action, &ref, p, rule.Name, &tref, reason)
}

// drifted reports whether live differs from desired outside server fields.
func drifted(live, desired resource.Object) bool {
	a := live.DeepCopy()
	for _, k := range serverFields {
		delete(a.Metadata(), k)
	}
	delete(a, "status")
	b := desired.DeepCopy()
	delete(b, "status")
	return !resource.Equal(a, b)
}

func createReason(rule *policy.Rule, ur *updateRequest) (string, string) {
	obj := ""
	if ur.cause.object != nil {
		obj = " " + ur.cause.object.String()
	}
	switch ur.cause.kind {
	case causeTriggerCreated:
		return timeline.ActionCreated, "the rule matched the new trigger"
	case causeTriggerUpdated:
		if rule.Generate.Synchronize {
			return timeline.ActionCreated, "the rule matched the updated trigger and the downstream was missing"
		}
		return timeline.ActionCreated, "the rule matched the updated trigger and the downstream was missing: Kyverno creates a missing downstream whenever the rule is re-applied, even with synchronize: false"
	case causeTriggerDeleted:
		return timeline.ActionCreated, "the rule's match lists the DELETE operation, so deleting the trigger generates"
	case causeDownstreamDeleted:
		return timeline.ActionRecreated, "synchronize is true and the downstream was deleted"
	case causeDownstreamChanged:
		return timeline.ActionRecreated, "synchronize is true and the downstream changed"
	case causeSourceChanged:
		return timeline.ActionCreated, "synchronize is true and the clone source" + obj + " changed"
	case causePolicyCreated, causePolicyUpdated, causeBackgroundScan:
		return timeline.ActionCreated, "synchronize is true and the policy was re-applied to the downstream's trigger"
	case causeGenerateExisting:
		when := map[causeKind]string{causePolicyCreated: "the policy was created", causePolicyUpdated: "the policy was updated",
			causeBackgroundScan: "the periodic background scan ran"}[ur.cause.policyEvent]
		if when == "" {
			when = "the policy was applied"
		}
		return timeline.ActionCreated, "generateExisting is true and the trigger already existed when " + when
	}
	return timeline.ActionCreated, "the rule applied to the trigger"
}

func updateReason(ur *updateRequest, adopted, clone bool) (string, string) {
	if ur.cause.kind == causeDownstreamChanged {
		return timeline.ActionReverted, "synchronize is true and the downstream was changed"
	}
	if adopted {
		return timeline.ActionUpdated, "an object with the downstream's name already existed; synchronize is true, so Kyverno adopted it: overwrote it with the rule's content and added its labels"
	}
	obj := ""
	if ur.cause.object != nil {
		obj = " " + ur.cause.object.String()
	}
	switch ur.cause.kind {
	case causeTriggerCreated, causeTriggerUpdated:
		return timeline.ActionUpdated, "synchronize is true and the rule was re-applied to the trigger"
	case causeSourceChanged:
		return timeline.ActionUpdated, "synchronize is true and the clone source" + obj + " changed"
	case causePolicyCreated, causePolicyUpdated:
		return timeline.ActionUpdated, "synchronize is true and the policy changed: its data is propagated to every downstream"
	case causeBackgroundScan:
		return timeline.ActionReverted, "synchronize is true and the periodic background scan re-applied the rule"
	case causeGenerateExisting:
		if clone {
			return timeline.ActionUpdated, "generateExisting is true and synchronize is true: the downstream was re-cloned"
		}
		return timeline.ActionUpdated, "generateExisting is true and synchronize is true: the downstream was re-rendered"
	}
	return timeline.ActionUpdated, "synchronize is true"
}
