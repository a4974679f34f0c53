package cluster

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// members returns the names of the entries in m[k], sorted.
func members(m map[string]entrySet, k string) []string {
	var out []string
	for _, e := range m[k].appendTo(nil) {
		out = append(out, e.key.name)
	}
	slices.Sort(out)
	return out
}

func TestEntrySet(t *testing.T) {
	es := map[string]*entry{}
	for _, n := range []string{"a", "b", "c"} {
		es[n] = &entry{key: objKey{gk: groupKind{kind: "ConfigMap"}, namespace: "ns", name: n}}
	}
	m := map[string]entrySet{}

	assert.Equal(t, 0, m["k"].len(), "an absent key is the empty set")
	assert.Empty(t, m["k"].appendTo(nil))
	removeFrom(m, "k", es["a"])
	assert.Empty(t, m, "removing from an absent set adds nothing")

	addTo(m, "k", es["a"])
	assert.Equal(t, entrySet{one: es["a"]}, m["k"], "one member is held inline, without a map")
	addTo(m, "k", es["a"])
	assert.Equal(t, entrySet{one: es["a"]}, m["k"], "adding a member again changes nothing")
	removeFrom(m, "k", es["b"])
	assert.Equal(t, []string{"a"}, members(m, "k"), "removing a non-member changes nothing")

	addTo(m, "k", es["b"])
	require.NotNil(t, m["k"].many, "a second member makes the map")
	assert.Nil(t, m["k"].one)
	assert.Equal(t, 2, m["k"].len())
	assert.Equal(t, []string{"a", "b"}, members(m, "k"))
	addTo(m, "k", es["c"])
	addTo(m, "k", es["c"])
	assert.Equal(t, 3, m["k"].len())
	assert.Equal(t, []string{"a", "b", "c"}, members(m, "k"))

	removeFrom(m, "k", es["b"])
	removeFrom(m, "k", es["b"])
	assert.Equal(t, []string{"a", "c"}, members(m, "k"))
	removeFrom(m, "k", es["a"])
	assert.Equal(t, 1, m["k"].len(), "many back to one")
	assert.Equal(t, []string{"c"}, members(m, "k"))
	addTo(m, "k", es["a"])
	assert.Equal(t, []string{"a", "c"}, members(m, "k"), "and one to many again")
	removeFrom(m, "k", es["a"])
	removeFrom(m, "k", es["c"])
	assert.Empty(t, m, "an emptied set drops its key")

	addTo(m, "k", es["c"])
	assert.Equal(t, entrySet{one: es["c"]}, m["k"], "a set made again starts inline")
	addTo(m, "other", es["a"])
	assert.Equal(t, []string{"c"}, members(m, "k"), "keys do not share sets")
	assert.Equal(t, []string{"a"}, members(m, "other"))

	t.Run("sorted orders by group, kind, namespace and name", func(t *testing.T) {
		set := entrySet{}
		assert.Empty(t, set.sorted())
		keys := []objKey{
			{gk: groupKind{kind: "Secret"}, namespace: "a", name: "x"},
			{gk: groupKind{group: "apps", kind: "Deployment"}, namespace: "a", name: "x"},
			{gk: groupKind{kind: "ConfigMap"}, namespace: "b", name: "a"},
			{gk: groupKind{kind: "ConfigMap"}, namespace: "a", name: "z"},
			{gk: groupKind{kind: "ConfigMap"}, namespace: "a", name: "b"},
		}
		m := map[string]entrySet{}
		for _, k := range keys {
			addTo(m, "k", &entry{key: k})
		}
		var got []objKey
		for _, e := range m["k"].sorted() {
			got = append(got, e.key)
		}
		assert.Equal(t, []objKey{keys[4], keys[3], keys[2], keys[0], keys[1]}, got)
	})
}

// TestIndexesMatchAScan applies random creates, label updates and deletes
// and checks, after each, that every indexed read (List by kind, namespace
// and labels, a Namespace's cascade) agrees with a scan of All, and that no
// index keeps an empty set or a removed entry.
func TestIndexesMatchAScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	s := NewStore(nil)
	namespaces := []string{"ns-a", "ns-b", "ns-c"}
	for _, ns := range namespaces {
		mustCreate(t, s, namespace(ns))
	}
	kinds := []struct{ apiVersion, kind string }{{"v1", "ConfigMap"}, {"v1", "Secret"}, {"storage.k8s.io/v1", "StorageClass"}}
	randomLabels := func(i int) map[string]string {
		l := map[string]string{}
		if r.IntN(4) > 0 {
			l["app"] = []string{"web", "db"}[r.IntN(2)] // shared values: sets of many
		}
		if r.IntN(2) == 0 {
			l["tier"] = "front"
		}
		if r.IntN(2) == 0 {
			l["uid"] = fmt.Sprint("u", i) // unique values: sets of one
		}
		return l
	}
	queries := func() []Query {
		var qs []Query
		for _, k := range kinds {
			for _, ns := range []string{"", namespaces[r.IntN(len(namespaces))]} {
				for _, labels := range []map[string]string{nil, {"app": "web"}, {"app": "db", "tier": "front"}, {"tier": "front"}, {"uid": fmt.Sprint("u", r.IntN(40))}} {
					qs = append(qs, Query{APIVersion: k.apiVersion, Kind: k.kind, Namespace: ns, Labels: labels})
				}
			}
		}
		return append(qs, Query{Namespace: "ns-b"}, Query{Namespace: "ns-a", Labels: map[string]string{"app": "web"}})
	}
	// scan is List computed from All (sorted by group, kind, namespace and
	// name, as List sorts), the reference the indexes must match.
	type scanned struct {
		kind, namespace, ref string
		labels               map[string]string
	}
	scan := func(all []scanned, q Query) []string {
		var out []string
		for _, o := range all {
			if q.Kind != "" && o.kind != q.Kind {
				continue
			}
			namespaced := o.namespace != ""
			if q.Namespace != "" && namespaced && o.namespace != q.Namespace {
				continue
			}
			if q.Kind == "" && q.Namespace != "" && !namespaced {
				continue
			}
			ok := true
			for k, v := range q.Labels {
				if got, has := o.labels[k]; !has || got != v {
					ok = false
				}
			}
			if ok {
				out = append(out, o.ref)
			}
		}
		return out
	}
	refs := func(objs []resource.Object) []string {
		var out []string
		for _, o := range objs {
			out = append(out, o.Ref().String())
		}
		return out
	}

	var live []resource.Ref
	for i := range 250 {
		switch op := r.IntN(10); {
		case op < 5 || len(live) == 0:
			k := kinds[r.IntN(len(kinds))]
			ns := namespaces[r.IntN(len(namespaces))]
			if k.kind == "StorageClass" {
				ns = ""
			}
			o := obj(k.apiVersion, k.kind, ns, fmt.Sprint("o", i), randomLabels(i))
			got, err := s.Create(o)
			require.NoError(t, err)
			live = append(live, got.Ref())
		case op < 8:
			ref := live[r.IntN(len(live))]
			o, err := s.Get(ref)
			require.NoError(t, err)
			o.SetLabels(randomLabels(i))
			_, err = s.Update(o)
			require.NoError(t, err)
		default:
			j := r.IntN(len(live))
			_, err := s.Delete(live[j])
			require.NoError(t, err)
			live = slices.Delete(live, j, j+1)
		}
		var all []scanned
		for _, o := range s.All() {
			all = append(all, scanned{o.Kind(), o.Namespace(), o.Ref().String(), o.Labels()})
		}
		for _, q := range queries() {
			require.Equal(t, scan(all, q), refs(s.List(q)), "step %d: %+v", i, q)
		}
	}
	checkIndexes(t, s)

	for _, ns := range namespaces {
		inNS := len(s.List(Query{Namespace: ns}))
		ds, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: ns})
		require.NoError(t, err)
		require.Len(t, ds, inNS+1, "a Namespace's cascade finds its contents through byNS")
	}
	for _, o := range s.All() {
		_, err := s.Delete(o.Ref())
		require.NoError(t, err)
	}
	checkIndexes(t, s)
	assert.Empty(t, s.objects)
	assert.Empty(t, s.byType)
	assert.Empty(t, s.byLabel)
	assert.Empty(t, s.byNS)
	assert.Empty(t, s.byUID)
	assert.Empty(t, s.dependents)
}

// checkIndexes checks that every index set is non-empty and holds only
// live entries.
func checkIndexes(t *testing.T, s *Store) {
	t.Helper()
	live := func(set entrySet) {
		t.Helper()
		require.Positive(t, set.len(), "an empty set keeps its key")
		for _, e := range set.appendTo(nil) {
			require.Same(t, e, s.objects[e.key], "a removed entry is still indexed: %v", e.key)
		}
	}
	for _, byNS := range s.byType {
		for _, set := range byNS {
			live(set)
		}
	}
	for _, set := range s.byLabel {
		live(set)
	}
	for _, set := range s.byNS {
		live(set)
	}
	for _, set := range s.dependents {
		live(set)
	}
}

// TestListOrderIsDeterministic lists objects whose index sets went through
// every shape (one, many, back to one) in a shuffled order of writes: the
// result is sorted the same way each time.
func TestListOrderIsDeterministic(t *testing.T) {
	var want []string
	for seed := range uint64(5) {
		r := rand.New(rand.NewPCG(seed, seed))
		s := NewStore(nil)
		mustCreate(t, s, namespace("a"), namespace("b"))
		var objs []resource.Object
		for i := range 20 {
			objs = append(objs, configMap([]string{"a", "b"}[i%2], fmt.Sprintf("cm-%02d", i), map[string]string{"app": "web"}))
		}
		objs = append(objs, configMap("a", "extra", map[string]string{"app": "web"}))
		r.Shuffle(len(objs), func(i, j int) { objs[i], objs[j] = objs[j], objs[i] })
		mustCreate(t, s, objs...)
		_, err := s.Delete(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "extra"})
		require.NoError(t, err)

		var got []string
		for _, q := range []Query{
			{Kind: "ConfigMap", Labels: map[string]string{"app": "web"}},
			{Kind: "ConfigMap", Namespace: "b", Labels: map[string]string{"app": "web"}},
			{Kind: "ConfigMap"},
			{Namespace: "a"},
		} {
			got = append(got, names(s.List(q))...)
		}
		if want == nil {
			want = got
			assert.Equal(t, "ConfigMap a/cm-00", got[0])
			assert.True(t, slices.IsSorted(got[:20]), "sorted by namespace and name: %v", got[:20])
			continue
		}
		assert.Equal(t, want, got, "seed %d", seed)
	}
}

// TestStoredLabelsAreTheStoresOwn checks what reading labels in place
// relies on: the object a caller created, and every copy handed back, are
// not the stored object, so changing them neither changes what List finds
// nor leaves a stale index entry behind when the object goes.
func TestStoredLabelsAreTheStoresOwn(t *testing.T) {
	// The indexes read the stored object's labels in place. Callers can only
	// reach them through Create's argument and result and through views,
	// which the ownership rules (EnableAudit) forbid changing; Get and List
	// hand out copies, whose changes must not reach the indexes.
	s := NewStore(nil)
	mustCreate(t, s, namespace("a"))
	out, err := s.Create(configMap("a", "cm", map[string]string{"app": "web"}))
	require.NoError(t, err)
	got, err := s.Get(out.Ref())
	require.NoError(t, err)
	got.Metadata()["labels"].(map[string]any)["app"] = "changed-get"
	listed := s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "web"}})
	require.Len(t, listed, 1)
	listed[0].Metadata()["labels"].(map[string]any)["app"] = "changed-list"

	assert.Len(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": "web"}}), 1)
	for _, v := range []string{"changed-get", "changed-list"} {
		assert.Empty(t, s.List(Query{Kind: "ConfigMap", Labels: map[string]string{"app": v}}), v)
	}
	_, err = s.Delete(out.Ref())
	require.NoError(t, err)
	_, err = s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "a"})
	require.NoError(t, err)
	assert.Empty(t, s.byLabel, "every label indexed at insert is unindexed at remove")
}
