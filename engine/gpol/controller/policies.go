package controller

import (
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// syncReason says why the policy controller syncs a policy.
type syncReason int

const (
	syncAdded syncReason = iota
	syncUpdated
	syncScan
	syncRestart
)

func (r syncReason) cause() cause {
	switch r {
	case syncUpdated:
		return causePolicyUpdated
	case syncScan:
		return causeScan
	case syncRestart:
		return causeRestart
	}
	return causePolicyAdded
}

// policyAdded is addPolicy: enqueue.
func (f *Family) policyAdded(e *entry) { f.enqueueSync(e, syncAdded) }

// policyUpdated is updatePolicy: a spec change enqueues; turning
// synchronize off stops tracking first.
func (f *Family) policyUpdated(prev, e *entry) {
	if resource.Equal(prev.p.Raw["spec"], e.p.Raw["spec"]) {
		return // status-only updates and resyncs are ignored
	}
	if !prev.p.Spec.Evaluation.Synchronize && !e.p.Spec.Evaluation.Synchronize {
		what := "existing downstreams keep their content until the policy next runs for their trigger (a trigger update"
		if e.p.Spec.Evaluation.GenerateExisting {
			what += "; generateExisting is on, so it runs for every existing trigger now)"
		} else {
			what += ", or generateExisting)"
		}
		f.emit(timeline.ActionNote, nil, e.p, "", nil, "the policy changed, but synchronize is off: Kyverno re-syncs nothing; "+what)
	}
	if prev.p.Spec.Evaluation.Synchronize && !e.p.Spec.Evaluation.Synchronize {
		f.watch.removeWatchersForPolicy(urKey(e.p), false, e.p,
			"synchronize was turned off: Kyverno stops watching the downstream and leaves it as it is; it is no longer reverted or recreated"+
				upstream.RemoveWatchersForPolicy.Cite(f.cfg.Kyverno), "")
	}
	f.enqueueSync(e, syncUpdated)
}

// policyDeleted is deletePolicy: drop the watchers; with synchronize and
// orphanDownstreamOnPolicyDelete false, delete the tracked data downstreams.
func (f *Family) policyDeleted(e *entry) {
	ev := e.p.Spec.Evaluation
	del := !ev.OrphanDownstreamOnPolicyDelete
	keep := "the policy was deleted with orphanDownstreamOnPolicyDelete true, so Kyverno only stops tracking its downstreams"
	f.watch.removeWatchersForPolicy(urKey(e.p), del, e.p, keep,
		"the policy was deleted with synchronize on and orphanDownstreamOnPolicyDelete false, so Kyverno deletes the data downstreams it tracked")
	if !ev.Synchronize {
		f.emit(timeline.ActionNote, nil, e.p, "", nil,
			"the policy was deleted; synchronize is off, so Kyverno tracked nothing and keeps everything the policy generated")
	}
}

// policySync is the policy controller's queue entry for one policy.
type policySync struct {
	f      *Family
	key    string
	reason syncReason
}

// Key implements generate.Work: one queued sync per policy.
func (s *policySync) Key() string { return "gpol-sync|" + s.key }

// Run implements generate.Work.
func (s *policySync) Run() {
	if e := s.f.policies.Get(s.key); e != nil {
		s.f.syncPolicy(e, s.reason)
	}
}

func (f *Family) enqueueSync(e *entry, r syncReason) {
	f.core.Enqueue(&policySync{f: f, key: e.p.Key(), reason: r})
}

// generateBatchSize is how many rule contexts one UpdateRequest holds.
const generateBatchSize = 100

// invalidateOnPolicyUpdate is gpol.ResyncInPlace (kyverno#16920), which
// this file and the watch manager switch on.
var invalidateOnPolicyUpdate = gpol.ResyncInPlace

// syncPolicy is syncPolicy for a gpol or ngpol (§3.7).
func (f *Family) syncPolicy(e *entry, r syncReason) {
	p := e.p
	key := urKey(p)
	ev := p.Spec.Evaluation
	// v1.19.1 passes the policy's synchronize into every rule context the
	// policy controller makes; v1.19.0 only the webhook's UPDATE contexts.
	synchronize := ev.Synchronize && invalidateOnPolicyUpdate.In(f.cfg.Kyverno)
	if ev.Synchronize {
		if cached := f.watch.getDownstreams(key); len(cached) > 0 {
			var contexts []ruleContext
			for _, c := range cached {
				contexts = append(contexts, ruleContext{trigger: triggerFromLabels(c.labels), synchronize: synchronize})
			}
			why := "the policy was updated"
			if r == syncScan {
				why = "the periodic background scan requeued the policy"
			}
			if invalidateOnPolicyUpdate.In(f.cfg.Kyverno) {
				f.watch.invalidateDownstreams(key)
			} else {
				f.watch.deleteDownstreams(key, nil, p, "re-sync: "+why+", so Kyverno deletes the downstream before regenerating it: "+
					invalidateOnPolicyUpdate.Says(), invalidateOnPolicyUpdate)
			}
			f.enqueueBatches(key, contexts, r)
		} else {
			var contexts []ruleContext
			for _, t := range f.triggers(p) {
				contexts = append(contexts, ruleContext{trigger: specOf(t), cacheRestore: true, synchronize: synchronize})
			}
			f.enqueueBatches(key, contexts, r)
		}
	}
	if ev.GenerateExisting {
		var contexts []ruleContext
		for _, t := range f.triggers(p) {
			contexts = append(contexts, ruleContext{trigger: specOf(t), generateExisting: true, synchronize: synchronize})
		}
		f.enqueueBatches(key, contexts, r)
	}
}

// enqueueBatches creates UpdateRequests of at most generateBatchSize
// contexts (splitUR).
func (f *Family) enqueueBatches(key string, contexts []ruleContext, r syncReason) {
	for len(contexts) > 0 {
		n := min(len(contexts), generateBatchSize)
		f.enqueueUR(&updateRequest{policy: key, contexts: contexts[:n], cause: r.cause()})
		contexts = contexts[n:]
	}
}

func specOf(obj resource.Object) triggerSpec {
	return triggerSpec{gvk: obj.GVK(), namespace: obj.Namespace(), name: obj.Name(), uid: obj.UID()}
}

// triggerFromLabels is TriggerFromLabels.
func triggerFromLabels(l map[string]string) triggerSpec {
	return triggerSpec{
		gvk:       resource.GVK{Group: l["generate.kyverno.io/trigger-group"], Version: l["generate.kyverno.io/trigger-version"], Kind: l["generate.kyverno.io/trigger-kind"]},
		namespace: l["generate.kyverno.io/trigger-namespace"],
		name:      l["generate.kyverno.io/trigger-name"],
		uid:       l["generate.kyverno.io/trigger-uid"],
	}
}

// triggers is getGpolTriggers: the existing objects of every resourceRules
// group/version/resource, filtered by the crude triggerMatches and, for a
// NamespacedGeneratingPolicy, by its namespace (filterTriggersByNamespace).
func (f *Family) triggers(p *gpol.Policy) []resource.Object {
	mc := p.Spec.MatchConstraints
	if mc == nil {
		return nil
	}
	kinds := f.store.Kinds()
	nsLabels := func(name string) (map[string]string, bool) {
		ns, err := f.store.View(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: name})
		if err != nil {
			return nil, false
		}
		return ns.Labels(), true
	}
	var out []resource.Object
	for _, t := range mc.TriggerTargets() {
		info, ok := t.Kind(kinds)
		if !ok {
			continue
		}
		for _, obj := range f.store.List(cluster.Query{APIVersion: info.APIVersion(), Kind: info.Kind}) {
			if !mc.TriggerCandidate(t, obj, nsLabels) {
				continue
			}
			if p.Namespaced() && obj.Namespace() != p.Namespace && (obj.Kind() != "Namespace" || obj.Name() != p.Namespace) {
				continue
			}
			out = append(out, obj)
		}
	}
	return out
}

// namespaceLabels returns the labels of a Namespace, or nil.
func (f *Family) namespaceLabels(name string) map[string]string {
	ns, err := f.store.View(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: name})
	if err != nil {
		return nil
	}
	return ns.Labels()
}

// namespaced reports whether a kind is namespaced, and whether it is known.
func (f *Family) namespaced(g resource.GVK) (namespaced, known bool) {
	return f.store.Namespaced(g.APIVersion(), g.Kind)
}

// resourceOf is the REST mapper's resource for a kind.
func (f *Family) resourceOf(g resource.GVK) string {
	if info, ok := f.store.KindInfo(g.APIVersion(), g.Kind); ok {
		return info.Resource
	}
	return lowerPlural(g.Kind)
}
