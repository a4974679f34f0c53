package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/genplay/genplay/internal/oracle"
)

// observer watches the live cluster's objects in scope: everything but the
// pristine cluster's objects (by UID) and what oracle.InScope leaves out.
type observer struct {
	k         *kube
	resources []apiResource
	baseline  map[string]bool // UIDs of the pristine cluster's objects
}

func newObserver(ctx context.Context, k *kube, baseline map[string]bool) (*observer, error) {
	o := &observer{k: k, baseline: baseline}
	return o, o.rediscover(ctx)
}

// skipResource are resources never in scope (lists saved per poll).
func skipResource(r apiResource) bool {
	probe := map[string]any{"apiVersion": r.GroupVersion, "kind": r.Kind, "metadata": map[string]any{"name": "x"}}
	return !oracle.InScope(probe)
}

func (o *observer) rediscover(ctx context.Context) error {
	all, err := o.k.discover(ctx)
	if err != nil {
		return err
	}
	o.resources = o.resources[:0]
	for _, r := range all {
		if !skipResource(r) {
			o.resources = append(o.resources, r)
		}
	}
	return nil
}

// state is one poll of the cluster.
type state struct {
	objects     []object // in scope
	urs         []string // UpdateRequests (names), whatever their state
	unready     []string // policies Kyverno has not reported ready
	terminating []string // objects being deleted (namespaces being finalized)
}

func (s state) fingerprint() string {
	var b strings.Builder
	for _, o := range s.objects {
		m := meta(o)
		fmt.Fprintf(&b, "%s %s %s\n", objectKey(o), str(m, "uid"), str(m, "resourceVersion"))
	}
	fmt.Fprintf(&b, "%v %v %v", s.urs, s.unready, s.terminating)
	return b.String()
}

func (o *observer) poll(ctx context.Context) (state, error) {
	var s state
	for _, r := range o.resources {
		items, err := o.k.list(ctx, r)
		if err != nil {
			if isNotFound(err) { // a CRD went: its kind is no longer served
				_ = o.rediscover(ctx)
				return o.poll(ctx)
			}
			return s, fmt.Errorf("list %s: %w", r.Resource, err)
		}
		for _, it := range items {
			m := meta(it)
			if o.baseline[str(m, "uid")] || !oracle.InScope(it) {
				continue
			}
			s.objects = append(s.objects, it)
			if m["deletionTimestamp"] != nil {
				s.terminating = append(s.terminating, objectKey(it))
			}
			if notReady(it) {
				s.unready = append(s.unready, objectKey(it))
			}
		}
	}
	sort.Slice(s.objects, func(i, j int) bool { return objectKey(s.objects[i]) < objectKey(s.objects[j]) })
	var urs struct{ Items []object }
	if err := o.k.get(ctx, "/apis/kyverno.io/v2/namespaces/kyverno/updaterequests", &urs); err != nil {
		return s, fmt.Errorf("list updaterequests: %w", err)
	}
	for _, u := range urs.Items {
		s.urs = append(s.urs, str(meta(u), "name"))
	}
	sort.Strings(s.urs)
	// A CRD installed by a scenario: list its kind from now on.
	for _, it := range s.objects {
		if str(it, "kind") == "CustomResourceDefinition" {
			if !o.serves(it) {
				_ = o.rediscover(ctx)
				break
			}
		}
	}
	return s, nil
}

func (o *observer) serves(crd object) bool {
	spec, _ := crd["spec"].(map[string]any)
	names, _ := spec["names"].(map[string]any)
	plural, _ := names["plural"].(string)
	for _, r := range o.resources {
		if r.Resource == plural {
			return true
		}
	}
	return false
}

// notReady: a policy Kyverno has not (yet) reported ready, as Kyverno's
// own chainsaw step templates wait for it.
func notReady(o object) bool {
	status, _ := o["status"].(map[string]any)
	switch str(o, "kind") {
	case "ClusterPolicy", "Policy":
		conds, _ := status["conditions"].([]any)
		for _, c := range conds {
			cm, _ := c.(map[string]any)
			if cm["type"] == "Ready" {
				return cm["status"] != "True"
			}
		}
		return true
	case "GeneratingPolicy":
		cs, _ := status["conditionStatus"].(map[string]any)
		return cs["ready"] != true
	}
	return false
}

// settleStats is how a wait went.
type settleStats struct {
	Waited   time.Duration
	Settled  time.Duration // when the last change was seen
	OK       bool
	URs      int
	Unready  []string // policies still not ready when the wait ended
	LastPoll state
}

// settle polls until the cluster has settled (oracle.Settle says what
// that means) or the timeout passes.
func (o *observer) settle(ctx context.Context, rule oracle.Settle) (settleStats, error) {
	start := time.Now()
	quiet := time.Duration(rule.QuietSeconds * float64(time.Second))
	timeout := time.Duration(rule.TimeoutSeconds * float64(time.Second))
	poll := time.Duration(rule.PollMillis) * time.Millisecond
	seenURs := map[string]bool{}
	var st settleStats
	var last string
	lastChange := start
	for {
		s, err := o.poll(ctx)
		if err != nil {
			return st, err
		}
		now := time.Now()
		for _, u := range s.urs {
			seenURs[u] = true
		}
		if fp := s.fingerprint(); fp != last {
			last, lastChange = fp, now
		}
		st.LastPoll = s
		// A policy that is not ready holds the wait back for at most
		// twice the quiet time (one Kyverno refuses to serve stays so).
		unreadyBlocks := len(s.unready) > 0 && now.Sub(start) < 2*quiet
		quietEnough := now.Sub(lastChange) >= quiet && now.Sub(start) >= quiet
		if len(s.urs) == 0 && len(s.terminating) == 0 && !unreadyBlocks && quietEnough {
			st.OK = true
			break
		}
		if now.Sub(start) > timeout {
			break
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(poll):
		}
	}
	st.Waited = time.Since(start)
	st.Settled = lastChange.Sub(start)
	st.URs = len(seenURs)
	st.Unready = st.LastPoll.unready
	return st, nil
}

// runState is what the hooks of one run share, on disk in its folder.
type runState struct {
	dir string
}

func (r runState) file(name string) string { return filepath.Join(r.dir, name) }

func readJSON(file string, v any) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func writeJSON(file string, v any) error {
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		return err
	}
	tmp := file + ".tmp"
	if err := os.WriteFile(tmp, append(b, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, file)
}

// uidMap accumulates UID -> key of every object the run saw, so that
// views name objects that are gone by now.
func (r runState) uidMap(objs []object) (map[string]string, error) {
	m := map[string]string{}
	_ = readJSON(r.file("uids.json"), &m)
	for _, o := range objs {
		if u := str(meta(o), "uid"); u != "" {
			m[u] = oracle.Key(o)
		}
	}
	return m, writeJSON(r.file("uids.json"), m)
}

// record turns live objects into recorded ones.
func recordObjects(objs []object, uids map[string]string) []oracle.Object {
	var out []oracle.Object
	for _, o := range objs {
		m := meta(o)
		v := oracle.View(o, uids)
		var managers []string
		mf, _ := m["managedFields"].([]any)
		for _, f := range mf {
			fm, _ := f.(map[string]any)
			managers = append(managers, fmt.Sprintf("%v/%v", fm["manager"], fm["operation"]))
		}
		out = append(out, oracle.Object{Key: oracle.Key(o), UID: str(m, "uid"), ResourceVersion: str(m, "resourceVersion"),
			Managers: managers, View: v, Digest: oracle.Digest(v)})
	}
	oracle.SortObjects(out)
	return out
}
