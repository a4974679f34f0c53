package controller

import (
	"errors"
	"fmt"
	"sort"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// watchManager is Kyverno's WatchManager (K:pkg/background/gpol/
// dynamic_watcher.go, §3.6): the background controller's in-memory cache of
// every object a synchronize policy generated, keyed by UID, and a watch per
// kind that reverts, recreates and propagates from it. A restart loses it.
type watchManager struct {
	f *Family
	// cache holds the tracked objects by UID.
	cache map[string]*cached
	// policyRefs lists, per policy key, the kinds it has objects of.
	policyRefs map[string]map[resource.GVK]bool
	// refCount counts, per kind, the policies watching it.
	refCount map[resource.GVK]int
	// byTrigger indexes the cache by policy-name and trigger-uid labels
	// (triggerKey), so that a trigger's objects are found without a scan.
	byTrigger map[string]map[string]bool
}

func triggerKey(policyName, triggerUID string) string { return policyName + "|" + triggerUID }

// put caches an object, replacing the entry of its UID.
func (w *watchManager) put(c *cached) {
	w.drop(c.uid)
	w.cache[c.uid] = c
	k := triggerKey(c.labels[generate.LabelPolicyName], c.labels[generate.LabelTriggerUID])
	if w.byTrigger[k] == nil {
		w.byTrigger[k] = map[string]bool{}
	}
	w.byTrigger[k][c.uid] = true
}

// drop forgets an object.
func (w *watchManager) drop(uid string) {
	c := w.cache[uid]
	if c == nil {
		return
	}
	delete(w.cache, uid)
	k := triggerKey(c.labels[generate.LabelPolicyName], c.labels[generate.LabelTriggerUID])
	delete(w.byTrigger[k], uid)
	if len(w.byTrigger[k]) == 0 {
		delete(w.byTrigger, k)
	}
}

// triggerUIDs returns, in order, the UIDs of the cached objects whose
// labels name the policy key and the trigger.
func (w *watchManager) triggerUIDs(policyKey, triggerUID string) []string {
	set := w.byTrigger[triggerKey(policyKey, triggerUID)]
	uids := make([]string, 0, len(set))
	for u := range set {
		uids = append(uids, u)
	}
	sort.Strings(uids)
	return uids
}

// cached is a metadataCache entry.
type cached struct {
	uid     string
	ref     resource.Ref
	labels  map[string]string
	content any // what the hash covers: labels, annotations and the object without metadata and status
	data    resource.Object
	// invalid is an entry InvalidateDownstreams emptied the hash of: it is
	// neither reverted nor recreated, only deleted when stale (v1.19.1).
	invalid bool
}

func newWatchManager(f *Family) *watchManager {
	return &watchManager{f: f, cache: map[string]*cached{}, policyRefs: map[string]map[resource.GVK]bool{}, refCount: map[resource.GVK]int{},
		byTrigger: map[string]map[string]bool{}}
}

// hashContent is what CalculateResourceHash covers.
func hashContent(obj resource.Object) any {
	body := map[string]any{}
	for k, v := range obj {
		switch k {
		case "metadata", "status", "scale":
			continue
		}
		body[k] = v
	}
	if spec, ok := body["spec"].(map[string]any); ok {
		if _, has := spec["nodeName"]; has {
			s := map[string]any{}
			for k, v := range spec {
				if k != "nodeName" {
					s[k] = v
				}
			}
			body["spec"] = s
		}
	}
	return []any{anyMap(obj.Labels()), anyMap(obj.Annotations()), body}
}

func anyMap(m map[string]string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func newCached(obj resource.Object) *cached {
	data := obj.DeepCopy()
	return &cached{uid: obj.UID(), ref: obj.Ref(), labels: obj.Labels(), content: hashContent(data), data: data}
}

// sortedUIDs returns the cache's UIDs in order, for determinism.
func (w *watchManager) sortedUIDs() []string {
	uids := make([]string, 0, len(w.cache))
	for u := range w.cache {
		uids = append(uids, u)
	}
	sort.Strings(uids)
	return uids
}

// syncWatchers is SyncWatchers: cache the objects a sync policy's Pass
// returned and watch their kinds; drop (and delete) this trigger's objects
// of kinds the policy referenced before and did not produce now (v1.18.2:
// every trigger's, kyverno#17020).
func (w *watchManager) syncWatchers(policyKey string, t triggerSpec, generated []resource.Object, p *gpol.Policy) {
	refs := w.policyRefs[policyKey]
	if refs == nil {
		refs = map[resource.GVK]bool{}
		w.policyRefs[policyKey] = refs
	}
	produced := map[resource.GVK]bool{}
	for _, obj := range generated {
		g := obj.GVK()
		produced[g] = true
		if !refs[g] {
			refs[g] = true
			w.refCount[g]++
		}
		w.put(newCached(obj))
	}
	kinds := make([]resource.GVK, 0, len(refs))
	for g := range refs {
		kinds = append(kinds, g)
	}
	sort.Slice(kinds, func(i, j int) bool {
		return kinds[i].APIVersion()+"/"+kinds[i].Kind < kinds[j].APIVersion()+"/"+kinds[j].Kind
	})
	scoped := scopedCleanup.In(w.f.cfg.Kyverno)
	for _, g := range kinds {
		if produced[g] {
			continue
		}
		if !scoped {
			// v1.18.2: every object of the kind the policy generated, for
			// any trigger, and the policy stops watching the kind.
			for _, uid := range w.sortedUIDs() {
				c := w.cache[uid]
				if c.labels[generate.LabelPolicyName] != policyKey || c.data.GVK() != g {
					continue
				}
				w.deleteCached(c, p, "the policy's evaluation for the trigger "+t.ref().String()+" generated no "+g.Kind+", so Kyverno "+string(w.f.cfg.Kyverno)+
					" deletes every "+g.Kind+" the policy generated, for any trigger: "+scopedCleanup.Says()+upstream.SyncWatchers.Cite(w.f.cfg.Kyverno), scopedCleanup)
			}
			w.unref(policyKey, g)
			continue
		}
		for _, uid := range w.triggerUIDs(policyKey, t.uid) {
			c := w.cache[uid]
			if c.data.GVK() != g {
				continue
			}
			w.deleteCached(c, p, "the policy no longer generates a "+g.Kind+" for this trigger, so Kyverno deletes the one it tracked; the policy's other triggers keep theirs: "+
				scopedCleanup.Says()+upstream.SyncWatchers.Cite(w.f.cfg.Kyverno), scopedCleanup)
		}
		// The kind stays watched while another trigger's object of it is tracked.
		still := false
		for _, c := range w.cache {
			if c.labels[generate.LabelPolicyName] == policyKey && c.data.GVK() == g {
				still = true
				break
			}
		}
		if !still {
			w.unref(policyKey, g)
		}
	}
}

// scopedCleanup is gpol.TriggerScopedCleanup (kyverno#17020): syncWatchers
// switches on it.
var scopedCleanup = gpol.TriggerScopedCleanup

// unref drops a kind from a policy's references, and its watch when no
// policy references it any more.
func (w *watchManager) unref(policyKey string, g resource.GVK) {
	refs := w.policyRefs[policyKey]
	if !refs[g] {
		return
	}
	delete(refs, g)
	w.refCount[g]--
	if w.refCount[g] <= 0 {
		delete(w.refCount, g)
	}
}

// cleanupStale is CleanupStaleDownstreams: after an admission UPDATE with
// synchronize, delete tracked objects of the policy and trigger that were
// not generated this time.
func (w *watchManager) cleanupStale(policyKey string, t triggerSpec, desired []resource.Object, p *gpol.Policy) {
	want := map[resource.Ref]bool{}
	for _, d := range desired {
		want[d.Ref()] = true
	}
	for _, uid := range w.triggerUIDs(policyKey, t.uid) {
		c := w.cache[uid]
		if want[c.ref] {
			continue
		}
		w.deleteCached(c, p, "synchronize is on and the trigger's update no longer renders this downstream, so Kyverno deletes it"+upstream.CleanupStaleDownstreams.Cite(w.f.cfg.Kyverno), nil)
	}
}

// deleteDownstreams is DeleteDownstreams: delete the cached objects of the
// policy (and trigger), by cached name. The cache filter compares the
// policy-name label with the policy key, which for a
// NamespacedGeneratingPolicy (key namespace/name, label name) never matches.
func (w *watchManager) deleteDownstreams(policyKey string, t *triggerSpec, p *gpol.Policy, reason string, ch *upstream.Change) int {
	n := 0
	uids := w.sortedUIDs
	if t != nil {
		uids = func() []string { return w.triggerUIDs(policyKey, t.uid) }
	}
	for _, uid := range uids() {
		c := w.cache[uid]
		if c.labels[generate.LabelPolicyName] != policyKey {
			continue
		}
		w.deleteCached(c, p, reason, ch)
		n++
	}
	if n == 0 && p != nil && p.Namespaced() {
		var tref *resource.Ref
		if t != nil {
			r := t.ref()
			tref = &r
		}
		for _, c := range w.ngpolTracked(p, t) {
			r := c.ref
			w.f.emit(timeline.ActionKept, &r, p, singleRule(p), tref,
				"not deleted: "+reason+", but "+w.ngpolMisses(p)+upstream.DeleteDownstreamsFilter.Cite(w.f.cfg.Kyverno))
		}
	}
	return n
}

// liveDownstreams are the objects the cache tracks for the policy and
// trigger that exist, by reference: what deleteDownstreams is about to
// delete.
func (w *watchManager) liveDownstreams(policyKey string, t triggerSpec) map[resource.Ref]bool {
	out := map[resource.Ref]bool{}
	for _, uid := range w.triggerUIDs(policyKey, t.uid) {
		if c := w.cache[uid]; c.labels[generate.LabelPolicyName] == policyKey {
			if _, err := w.f.store.View(c.ref); err == nil {
				out[c.ref] = true
			}
		}
	}
	return out
}

// invalidateDownstreams is InvalidateDownstreams (v1.19.1, kyverno#16920):
// the policy's cached objects keep their place in the cache, to be deleted
// if they turn out stale, but are no longer reverted or recreated until the
// regeneration caches them again. The cache filter is DeleteDownstreams':
// the policy-name label against the policy key.
func (w *watchManager) invalidateDownstreams(policyKey string) {
	for _, uid := range w.sortedUIDs() {
		if c := w.cache[uid]; c.labels[generate.LabelPolicyName] == policyKey {
			c.invalid = true
		}
	}
}

// ngpolTracked lists the tracked downstreams of a NamespacedGeneratingPolicy
// (of one trigger, or all with t nil) that Kyverno's label filter misses:
// their policy-name label is the policy's name, its key namespace/name.
func (w *watchManager) ngpolTracked(p *gpol.Policy, t *triggerSpec) []*cached {
	uids := w.sortedUIDs()
	if t != nil {
		uids = w.triggerUIDs(p.Name, t.uid)
	}
	var out []*cached
	for _, uid := range uids {
		if c := w.cache[uid]; c.labels[generate.LabelPolicyName] == p.Name && c.ref.Namespace == p.Namespace {
			out = append(out, c)
		}
	}
	return out
}

// ngpolMisses says why Kyverno deletes nothing a NamespacedGeneratingPolicy
// generated when it should (engine/doc.go; GENERATING-POLICY.md §3.6 in the
// project's notes).
func (w *watchManager) ngpolMisses(p *gpol.Policy) string {
	return fmt.Sprintf("Kyverno %s deletes nothing for a NamespacedGeneratingPolicy: it looks its downstreams up by their label "+
		"generate.kyverno.io/policy-name (%q) against the policy's key %q, which never matches (a bug of this release)",
		w.f.cfg.Kyverno, p.Name, p.Namespace+"/"+p.Name)
}

// getDownstreams is GetDownstreams: copies of the policy's cached objects.
func (w *watchManager) getDownstreams(policyKey string) []*cached {
	var out []*cached
	for _, uid := range w.sortedUIDs() {
		if c := w.cache[uid]; c.labels[generate.LabelPolicyName] == policyKey {
			out = append(out, c)
		}
	}
	return out
}

// removeWatchersForPolicy is RemoveWatchersForPolicy.
func (w *watchManager) removeWatchersForPolicy(policyKey string, deleteDownstream bool, p *gpol.Policy, keep, del string) {
	for _, uid := range w.sortedUIDs() {
		c := w.cache[uid]
		if c.labels[generate.LabelPolicyName] != policyKey {
			continue
		}
		_, clone := c.labels[generate.LabelSourceUID]
		switch {
		case deleteDownstream && !clone:
			w.deleteCached(c, p, del, nil)
		default:
			w.drop(uid)
			if keep != "" {
				r := c.ref
				reason := keep
				if deleteDownstream && clone {
					reason = "a clone (it carries generate.kyverno.io/source-uid) is never deleted with its policy, whatever orphanDownstreamOnPolicyDelete says (kyverno#17596)"
				}
				w.f.emit(timeline.ActionKept, &r, p, singleRule(p), nil, reason)
			}
		}
	}
	if deleteDownstream && p != nil && p.Namespaced() {
		for _, c := range w.ngpolTracked(p, nil) {
			if _, clone := c.labels[generate.LabelSourceUID]; clone {
				continue
			}
			r := c.ref
			w.f.emit(timeline.ActionKept, &r, p, singleRule(p), nil,
				"not deleted: the policy was deleted with synchronize on and orphanDownstreamOnPolicyDelete false, but "+w.ngpolMisses(p)+
					upstream.RemoveWatchersFilter.Cite(w.f.cfg.Kyverno))
		}
	}
	for g := range w.policyRefs[policyKey] {
		w.refCount[g]--
		if w.refCount[g] <= 0 {
			delete(w.refCount, g)
		}
	}
	delete(w.policyRefs, policyKey)
}

// deleteCached deletes a tracked object through the API, by name, and
// forgets it.
func (w *watchManager) deleteCached(c *cached, p *gpol.Policy, reason string, ch *upstream.Change) {
	w.drop(c.uid)
	r := c.ref
	// Kyverno deletes by name, without a UID precondition: an object
	// recreated under the cached name (a new UID the cache did not
	// follow, kyverno#17265) goes too.
	if _, err := w.f.store.View(r); err != nil {
		return // already gone
	}
	if err := w.f.core.Delete(admission.UserInfo{Username: admission.BackgroundUser}, r); err != nil {
		return
	}
	w.f.emitChange(ch, timeline.ActionDeleted, &r, p, singleRule(p), nil, reason)
}

// watched reports whether some policy watches the kind.
func (w *watchManager) watched(g resource.GVK) bool { return w.refCount[g] > 0 }

// Observe implements generate.Family: a watch event on a watched kind
// queues the WatchManager's reaction (handleUpdate, handleDelete).
func (f *Family) Observe(ev generate.WatchEvent) {
	if ev.Type == generate.WatchAdded {
		return
	}
	if ev.User.Username != admission.BackgroundUser {
		f.explainUnwatched(ev)
	}
	if !f.watch.watched(ev.Object.GVK()) {
		return
	}
	if err := f.core.MayWatch(ev.Object.GVK()); err != nil {
		if ev.User.Username != admission.BackgroundUser {
			f.explainForbiddenWatch(ev, err)
		}
		return
	}
	f.core.Enqueue(&watchEvent{f: f, w: f.watch, ev: ev})
}

// explainForbiddenWatch says why Kyverno does not react to a user's change
// to what a synchronize policy generated (or to a clone source) when its
// background controller may not watch the kind: its WatchManager's watch
// is refused, so the change never reaches it (real Kyverno v1.19.0 with
// its e2e install, which grants get and list on Secrets but not watch:
// internal/oracle's recordings).
func (f *Family) explainForbiddenWatch(ev generate.WatchEvent, err error) {
	obj := ev.Object
	g := obj.GVK()
	why := "Kyverno's background controller may not watch " + g.Kind + "s (" + err.Error() + "), so the watch its WatchManager starts for them is refused " +
		"and never delivers this change; synchronizing a GeneratingPolicy's downstream needs get, list and watch on its kind " +
		"(a ClusterRole labelled rbac.kyverno.io/aggregate-to-background-controller: \"true\" grants them)"
	if c := f.watch.cache[obj.UID()]; c != nil {
		r, p := c.ref, f.watch.policyOf(c)
		if ev.Type == generate.WatchDeleted {
			f.emit(timeline.ActionIgnored, &r, p, singleRule(p), nil, "not recreated: "+why)
			return
		}
		f.emit(timeline.ActionKept, &r, p, singleRule(p), nil, "not reverted: "+why)
		return
	}
	for _, d := range f.watch.bySource(obj) {
		c := f.watch.cache[d.UID()]
		if c == nil {
			continue
		}
		r, p := c.ref, f.watch.policyOf(c)
		what := "not updated: its clone source " + obj.Ref().String() + " changed, but "
		if ev.Type == generate.WatchDeleted {
			what = "not deleted: its clone source " + obj.Ref().String() + " was deleted, but "
		}
		f.emit(timeline.ActionKept, &r, p, singleRule(p), nil, what+why)
	}
}

// explainUnwatched says why Kyverno lets a user's change to what a policy
// without synchronize generated stand.
func (f *Family) explainUnwatched(ev generate.WatchEvent) {
	obj := ev.Object
	if by, _ := obj.Label(generate.LabelManagedBy); by != generate.ValueKyverno {
		f.explainUnwatchedSource(ev)
		return
	}
	if _, legacy := obj.Label(generate.LabelRuleName); legacy {
		return
	}
	name, ok := obj.Label(generate.LabelPolicyName)
	if !ok {
		return
	}
	p := f.watch.policyNamed(name)
	if p == nil || p.Spec.Evaluation.Synchronize {
		return
	}
	r := obj.Ref()
	if ev.Type == generate.WatchDeleted {
		f.emit(timeline.ActionIgnored, &r, p, singleRule(p), nil, "not recreated: synchronize is off, so Kyverno does not watch what this policy generated; "+
			"it stays deleted until the policy runs again for its trigger (a trigger update, or generateExisting)")
		return
	}
	f.emit(timeline.ActionKept, &r, p, singleRule(p), nil, "not reverted: synchronize is off, so Kyverno does not watch what this policy generated; "+
		"the change stays until the policy runs again for its trigger, which rewrites the downstream")
}

// watchEvent is one watch event waiting for the WatchManager's goroutine.
type watchEvent struct {
	f  *Family
	w  *watchManager // the manager that watched it: a restart drops its events
	ev generate.WatchEvent
}

// Key implements generate.Work.
func (e *watchEvent) Key() string {
	return "watch|" + e.ev.Type + "|" + e.ev.Object.UID() + "|" + e.ev.Object.ResourceVersion()
}

// Run implements generate.Work.
func (e *watchEvent) Run() {
	if e.w != e.f.watch {
		return // the watcher that saw it is gone with its controller
	}
	if e.ev.Type == generate.WatchDeleted {
		e.w.handleDelete(e.ev.Object, e.ev.User)
		return
	}
	e.w.handleUpdate(e.ev.Object, e.ev.User)
}

// handleUpdate reverts a tracked object, or propagates a clone source.
func (w *watchManager) handleUpdate(obj resource.Object, user admission.UserInfo) {
	if c := w.cache[obj.UID()]; c != nil {
		if c.invalid {
			if user.Username != admission.BackgroundUser {
				r := c.ref
				p := w.policyOf(c)
				w.f.emitChange(invalidateOnPolicyUpdate, timeline.ActionKept, &r, p, singleRule(p), nil,
					"not reverted: Kyverno "+string(w.f.cfg.Kyverno)+" invalidated its cached copy when the policy changed, and the policy has not generated this object again"+
						upstream.InvalidateDownstreams.Cite(w.f.cfg.Kyverno))
			}
			return
		}
		if resource.Equal(hashContent(obj), c.content) {
			return
		}
		p := w.policyOf(c)
		next := c.data.DeepCopy()
		md := next.Metadata()
		delete(md, "uid")
		delete(md, "resourceVersion")
		if _, err := w.f.core.Update(admission.UserInfo{Username: admission.BackgroundUser}, next); err == nil {
			r := c.ref
			w.f.emit(timeline.ActionReverted, &r, p, singleRule(p), nil,
				"synchronize is on: Kyverno watches what it generated, saw the change and put back the copy it saved when it generated the downstream"+upstream.WatchUpdate.Cite(w.f.cfg.Kyverno))
		}
		return
	}
	// Not tracked: maybe a clone source.
	for _, d := range w.bySource(obj) {
		c := w.cache[d.UID()]
		if c == nil {
			continue
		}
		next := obj.DeepCopy()
		md := next.Metadata()
		for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "selfLink", "generation", "ownerReferences"} {
			delete(md, k)
		}
		md["name"], md["namespace"] = c.ref.Name, c.ref.Namespace
		if c.ref.Namespace == "" {
			delete(md, "namespace")
		}
		next["apiVersion"], next["kind"] = c.ref.APIVersion, c.ref.Kind
		next.SetLabels(d.Labels())
		delete(next, "status")
		updated, err := w.f.core.Update(admission.UserInfo{Username: admission.BackgroundUser}, next)
		if err != nil {
			continue
		}
		w.put(newCached(updated))
		if updated.ResourceVersion() != d.ResourceVersion() {
			r := c.ref
			sref := obj.Ref()
			w.f.emit(timeline.ActionUpdated, &r, w.policyOf(c), singleRule(w.policyOf(c)), nil, "synchronize is on and its clone source "+sref.String()+
				" changed: Kyverno copies the source's content (the downstream keeps its own labels, kyverno#17595)")
		}
	}
}

// handleDelete recreates a tracked object, or deletes the clones of a
// deleted source.
func (w *watchManager) handleDelete(obj resource.Object, user admission.UserInfo) {
	if by, _ := obj.Label(generate.LabelManagedBy); by != generate.ValueKyverno {
		for _, d := range w.bySource(obj) {
			if c := w.cache[d.UID()]; c != nil {
				w.deleteCached(c, w.policyOf(c), "synchronize is on and its clone source "+obj.Ref().String()+" was deleted, so Kyverno deletes the clone", nil)
			}
		}
		return
	}
	c := w.cache[obj.UID()]
	r := obj.Ref()
	if c == nil {
		if name, ok := obj.Label(generate.LabelPolicyName); ok && user.Username != admission.BackgroundUser && w.knownPolicyName(name) {
			p := w.policyNamed(name)
			if recreateRekeys.In(w.f.cfg.Kyverno) {
				w.f.emit(timeline.ActionIgnored, &r, p, singleRule(p), nil,
					"not recreated: Kyverno's watch cache does not hold this object, so its deletion is not reverted until the policy runs for the trigger again "+
						"(a trigger update or a policy re-sync)"+upstream.WatchDelete.Cite(w.f.cfg.Kyverno))
				return
			}
			w.f.emitChange(recreateRekeys, timeline.ActionIgnored, &r, p, singleRule(p), nil,
				"not recreated: Kyverno "+string(w.f.cfg.Kyverno)+" recreated this downstream once, but its cache still holds the old UID, so this copy is not tracked "+
					"until the policy runs for the trigger again (a trigger update or a policy re-sync): "+recreateRekeys.Says())
		}
		return
	}
	if c.invalid {
		// v1.19.1: an invalidated entry is forgotten, not recreated.
		w.drop(c.uid)
		if user.Username != admission.BackgroundUser {
			p := w.policyOf(c)
			w.f.emitChange(invalidateOnPolicyUpdate, timeline.ActionIgnored, &r, p, singleRule(p), nil,
				"not recreated: Kyverno "+string(w.f.cfg.Kyverno)+" invalidated its cached copy when the policy changed, and the policy has not generated this object again"+
					upstream.InvalidateDownstreams.Cite(w.f.cfg.Kyverno))
		}
		return
	}
	p := w.policyOf(c)
	next := c.data.DeepCopy()
	md := next.Metadata()
	for _, k := range []string{"uid", "resourceVersion", "creationTimestamp", "managedFields", "selfLink", "generation"} {
		delete(md, k)
	}
	delete(next, "status")
	created, err := w.f.core.Create(admission.UserInfo{Username: admission.BackgroundUser}, next)
	if err != nil {
		w.f.emit(timeline.ActionFailed, &r, p, singleRule(p), nil, recreateFailure(r, err))
		return
	}
	if recreateRekeys.In(w.f.cfg.Kyverno) {
		// The recreated object has a new UID: the entry moves to it.
		w.drop(c.uid)
		c.uid = created.UID()
		w.put(c)
		w.f.emitChange(recreateRekeys, timeline.ActionRecreated, &r, p, singleRule(p), nil,
			"synchronize is on: Kyverno's watch saw the deletion and recreated the downstream from its cache (new UID, which its cache now tracks, so a later deletion is recreated too): "+
				recreateRekeys.Says())
		return
	}
	w.f.emitChange(recreateRekeys, timeline.ActionRecreated, &r, p, singleRule(p), nil,
		"synchronize is on: Kyverno's watch saw the deletion and recreated the downstream from its cache (new UID; its cache keeps the old one, "+
			"so a second deletion is not recreated): "+recreateRekeys.Says())
}

// recreateFailure says why the watch's recreate failed. A namespaced
// downstream whose create is NotFound lost its Namespace (the trigger
// Namespace was deleted and took its contents with it): Kyverno's watch
// still tries, and the API server refuses.
func recreateFailure(r resource.Ref, err error) string {
	if r.Namespace != "" && errors.Is(err, cluster.ErrNotFound) {
		return "could not recreate the downstream: its Namespace " + r.Namespace + " is gone, and the API server refuses to create objects in it (" + err.Error() + ")"
	}
	return "could not recreate the downstream: " + err.Error()
}

// recreateRekeys is gpol.RecreateTracked (kyverno#17453): handleDelete
// switches on it.
var recreateRekeys = gpol.RecreateTracked

// bySource lists the objects of obj's kind in every namespace cloned from it.
func (w *watchManager) bySource(obj resource.Object) []resource.Object {
	if obj.UID() == "" {
		return nil
	}
	return w.f.store.List(cluster.Query{APIVersion: obj.APIVersion(), Kind: obj.Kind(), Labels: map[string]string{generate.LabelSourceUID: obj.UID()}})
}

// policyOf finds the policy a cached object's labels name, for events.
func (w *watchManager) policyOf(c *cached) *gpol.Policy {
	return w.policyNamed(c.labels[generate.LabelPolicyName])
}

func (w *watchManager) policyNamed(name string) *gpol.Policy {
	for _, e := range w.f.policies.Sorted() {
		if e.p.Name == name {
			return e.p
		}
	}
	return nil
}

func (w *watchManager) knownPolicyName(name string) bool {
	for _, e := range w.f.policies.Sorted() {
		if e.p.Name == name && e.p.Spec.Evaluation.Synchronize {
			return true
		}
	}
	return false
}

// explainUnwatchedSource says why a change to a clone source reaches no
// clone of a policy without synchronize: nothing watches it.
func (f *Family) explainUnwatchedSource(ev generate.WatchEvent) {
	anyUnsynced := false
	for _, e := range f.policies.Sorted() {
		anyUnsynced = anyUnsynced || !e.p.Spec.Evaluation.Synchronize
	}
	if !anyUnsynced {
		return
	}
	src := ev.Object.Ref()
	for _, d := range f.watch.bySource(ev.Object) {
		name, _ := d.Label(generate.LabelPolicyName)
		p := f.watch.policyNamed(name)
		if p == nil || p.Spec.Evaluation.Synchronize {
			continue
		}
		r := d.Ref()
		what := "change"
		if ev.Type == generate.WatchDeleted {
			what = "deletion"
		}
		f.emit(timeline.ActionKept, &r, p, singleRule(p), nil, "not propagated: synchronize is off, so Kyverno does not watch the clone source "+src.String()+
			"; the "+what+" reaches this clone only when the policy runs again for its trigger")
	}
}

// singleRule names the generate entry of a policy with one: a downstream's
// labels do not say which entry generated it.
func singleRule(p *gpol.Policy) string {
	if p != nil && len(p.Spec.Generate) == 1 {
		return "spec.generate[0]"
	}
	return ""
}
