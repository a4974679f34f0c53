package timeline

import (
	"cmp"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/genplay/genplay/engine/resource"
)

// key names an object as the API server stores it: the versions of a kind
// share storage, so the version is not part of it.
type key struct{ group, kind, namespace, name string }

func keyOf(r resource.Ref) key {
	g, _ := resource.SplitAPIVersion(r.APIVersion)
	return key{g, r.Kind, r.Namespace, r.Name}
}

func compareKeys(a, b key) int {
	return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(a.kind, b.kind),
		cmp.Compare(a.namespace, b.namespace), cmp.Compare(a.name, b.name))
}

// Cluster is the cluster at one point of a timeline: the result's Initial
// with the changes of the steps so far applied. It holds the timeline's
// own objects, read-only.
type Cluster struct {
	objs   map[key]resource.Object
	sorted []resource.Object // Objects' answer, nil once stale
}

// NewCluster returns the cluster that holds objs.
func NewCluster(objs []resource.Object) *Cluster {
	c := &Cluster{objs: make(map[key]resource.Object, len(objs))}
	for _, o := range objs {
		c.objs[keyOf(o.Ref())] = o
	}
	return c
}

// Apply applies one step's changes.
func (c *Cluster) Apply(st *Step) {
	for i := range st.Changes {
		ch := &st.Changes[i]
		k := keyOf(ch.Object)
		if after := c.after(ch); after != nil {
			c.objs[k] = after
		} else {
			delete(c.objs, k)
		}
	}
	if len(st.Changes) > 0 {
		c.sorted = nil
	}
}

// after is a change's After, made from Whole or Patch when the change was
// read from JSON and Decode did not fill it; nil for a deletion.
func (c *Cluster) after(ch *Change) resource.Object {
	switch {
	case ch.Change == ChangeDeleted:
		return nil
	case ch.After != nil:
		return ch.After
	case ch.Whole != nil:
		return ch.Whole
	case ch.Patch != nil:
		m, _ := asMap(applyPatch(c.objs[keyOf(ch.Object)], ch.Patch))
		return m
	}
	return nil
}

// Get returns the object ref names (any served version of its kind), or
// nil.
func (c *Cluster) Get(ref resource.Ref) resource.Object { return c.objs[keyOf(ref)] }

// Len is the number of objects.
func (c *Cluster) Len() int { return len(c.objs) }

// Objects returns every object, sorted by group, kind, namespace and name
// as the API server lists them. The slice is the cluster's: do not change
// it (it stays as it is when the cluster moves on).
func (c *Cluster) Objects() []resource.Object {
	if c.sorted != nil || len(c.objs) == 0 {
		if c.sorted == nil {
			c.sorted = []resource.Object{}
		}
		return c.sorted
	}
	keys := make([]key, 0, len(c.objs))
	for k := range c.objs {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	out := make([]resource.Object, len(keys))
	for i, k := range keys {
		out[i] = c.objs[k]
	}
	c.sorted = out
	return out
}

// Clusters yields every step with the cluster after it. The cluster is one
// value, advanced from step to step: read it before the next iteration.
func (r *Result) Clusters() iter.Seq2[*Step, *Cluster] {
	return func(yield func(*Step, *Cluster) bool) {
		c := NewCluster(r.Initial)
		for i := range r.Steps {
			c.Apply(&r.Steps[i])
			if !yield(&r.Steps[i], c) {
				return
			}
		}
	}
}

// ClusterAfter returns the cluster after step i; i < 0 gives Initial, and
// an i past the last step the cluster after the last.
func (r *Result) ClusterAfter(i int) *Cluster {
	c := NewCluster(r.Initial)
	for j := 0; j <= i && j < len(r.Steps); j++ {
		c.Apply(&r.Steps[j])
	}
	return c
}

// Final returns the cluster after the last step.
func (r *Result) Final() *Cluster { return r.ClusterAfter(len(r.Steps)) }

// Decode reads a result in format v2 (the JSON of Marshal) and gives every
// change its After, as the engine's own results have them.
func Decode(data []byte) (*Result, error) {
	var r Result
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	if r.Format != FormatVersion {
		return nil, fmt.Errorf("the timeline's format is %q; this reader reads %q", r.Format, FormatVersion)
	}
	c := NewCluster(r.Initial)
	for i := range r.Steps {
		st := &r.Steps[i]
		for j := range st.Changes {
			ch := &st.Changes[j]
			ch.After = c.after(ch)
		}
		c.Apply(st)
	}
	return &r, nil
}
