package cluster

import (
	"errors"
	"slices"

	"github.com/genplay/genplay/engine/resource"
)

// Apply is a server-side apply of obj by fieldManager, forced (conflicts
// with other managers are taken over), the only kind Kyverno makes
// (ApplyOptions{FieldManager: "kyverno-generate", Force: true}). It
// creates the object when it is missing; otherwise it merges obj into the
// live object (maps field by field, every other value, lists included,
// whole) and then removes the fields fieldManager set in its last apply
// and no longer sets, unless another writer owns them. Fields other writers
// set stay, as structured-merge-diff keeps them. status is left as it is,
// as the API server's main endpoint does for every kind with a status
// subresource: obj's status is ignored.
//
// The store takes obj over; the result is the stored object (read-only),
// and reports whether anything was written. With dryRun nothing is stored
// and the result is the object the apply would store; a dry run of an
// apply that would create the object returns nil and true.
//
// Ownership is recorded per object and manager, as the API server's
// managedFields are, but not shown in metadata: what each apply manager set
// in its last apply, and what every other writer set (Create and Update
// record their writer as one "other" manager, which is all an apply needs
// to tell).
func (s *Store) Apply(obj resource.Object, fieldManager string, dryRun bool) (resource.Object, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	config, err := admit(obj)
	if err != nil {
		return nil, false, err
	}
	delete(config, "status")
	md := config.Metadata()
	for _, f := range serverMeta {
		delete(md, f)
	}
	_, cur, err := s.find(config.Ref())
	if errors.Is(err, ErrNotFound) {
		if dryRun {
			return nil, true, nil
		}
		owned := fieldsOf(config)
		created, err := s.create(config)
		if err != nil {
			return nil, false, err
		}
		s.own(created.UID()).applied[fieldManager] = owned
		return created, true, nil
	}
	if err != nil {
		return nil, false, err
	}
	own := s.managed[cur.uid]
	if own == nil {
		// Before the first apply every field is its writers'.
		own = &managedFields{applied: map[string]fieldSet{}, updated: fieldsOf(cur.obj)}
	}
	owned := fieldsOf(config)
	merged := cur.obj.DeepCopy()
	mergeFields(merged, config)
	ownedElsewhere := func(path []string) bool {
		if owned.covers(path) || own.updated.covers(path) {
			return true
		}
		for m, set := range own.applied {
			if m != fieldManager && set.covers(path) {
				return true
			}
		}
		return false
	}
	pruneFields(merged, own.applied[fieldManager], nil, ownedElsewhere)
	out, wrote, err := s.update(merged, true, dryRun)
	if err != nil || dryRun {
		return out, wrote, err
	}
	if wrote {
		changed := fieldsChanged(cur.obj, out)
		own.updated.remove(changed)
		for m, set := range own.applied {
			if m != fieldManager {
				set.remove(changed)
			}
		}
	}
	own.applied[fieldManager] = owned
	if s.managed == nil {
		s.managed = map[string]*managedFields{}
	}
	s.managed[cur.uid] = own
	return out, wrote, nil
}

// managedFields is who owns the fields of one object.
type managedFields struct {
	// applied are the fields each apply manager set in its last apply.
	applied map[string]fieldSet
	// updated are the fields every other writer (Create, Update) set.
	updated fieldSet
}

// own returns the record of the object with uid, made empty if missing.
func (s *Store) own(uid string) *managedFields {
	if s.managed == nil {
		s.managed = map[string]*managedFields{}
	}
	m := s.managed[uid]
	if m == nil {
		m = &managedFields{applied: map[string]fieldSet{}, updated: fieldSet{}}
		s.managed[uid] = m
	}
	return m
}

// updatedBy records an Update of an object apply has written: its writer
// takes the fields it added or changed from the apply managers, and fields
// it removed are nobody's.
func (s *Store) updatedBy(cur *entry, next resource.Object) {
	own := s.managed[cur.uid]
	if own == nil {
		return
	}
	changed := fieldsChanged(cur.obj, next)
	for _, set := range own.applied {
		set.remove(changed)
	}
	own.updated.remove(changed)
	own.updated.add(fieldsOf(next).within(changed))
}

// serverMeta are the metadata fields the API server owns; no manager does.
var serverMeta = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "managedFields", "selfLink",
	"deletionTimestamp", "deletionGracePeriodSeconds"}

// fieldSet is a set of field paths as a tree: a key whose subtree is nil
// is a field owned whole (a value, a list, an empty map); a key with a
// subtree owns the fields under it.
type fieldSet map[string]fieldSet

// fieldsOf is the set of fields obj sets, apart from apiVersion, kind,
// status and the object's identity and server metadata (the API server
// strips them before it tracks fields).
func fieldsOf(obj resource.Object) fieldSet { return leaves(tracked(obj)) }

// fieldsChanged is the set of fields added, removed or changed from a to b.
func fieldsChanged(a, b resource.Object) fieldSet {
	out := fieldSet{}
	diffFields(tracked(a), tracked(b), out)
	return out
}

// tracked is obj without the fields fieldsOf leaves out, sharing its
// values.
func tracked(obj resource.Object) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		if k != "apiVersion" && k != "kind" && k != "status" {
			out[k] = v
		}
	}
	if md, ok := obj["metadata"].(map[string]any); ok {
		m := make(map[string]any, len(md))
		for k, v := range md {
			if k != "name" && k != "namespace" && !slices.Contains(serverMeta, k) {
				m[k] = v
			}
		}
		out["metadata"] = m
	}
	return out
}

// leaves is the fields of a value: nil (the value whole) unless it is a
// map with keys.
func leaves(v any) fieldSet {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return nil
	}
	out := make(fieldSet, len(m))
	for k, x := range m {
		out[k] = leaves(x)
	}
	return out
}

func diffFields(a, b map[string]any, out fieldSet) {
	for k, av := range a {
		bv, ok := b[k]
		if !ok {
			out[k] = nil
			continue
		}
		am, aok := av.(map[string]any)
		bm, bok := bv.(map[string]any)
		if aok && bok && len(am) > 0 && len(bm) > 0 {
			sub := fieldSet{}
			diffFields(am, bm, sub)
			if len(sub) > 0 {
				out[k] = sub
			}
			continue
		}
		if !resource.Equal(av, bv) {
			out[k] = nil
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out[k] = nil
		}
	}
}

// covers reports whether s owns the field at path or any field under it.
func (s fieldSet) covers(path []string) bool {
	node := s
	for i, k := range path {
		sub, ok := node[k]
		if !ok {
			return false
		}
		if sub == nil {
			return i == len(path)-1
		}
		node = sub
	}
	return true
}

// remove takes the fields of c, and everything under them, out of s.
func (s fieldSet) remove(c fieldSet) {
	for k, sub := range c {
		have, ok := s[k]
		switch {
		case !ok:
		case sub == nil:
			delete(s, k)
		case have != nil:
			have.remove(sub)
			if len(have) == 0 {
				delete(s, k)
			}
		}
	}
}

// add puts the fields of c into s.
func (s fieldSet) add(c fieldSet) {
	for k, sub := range c {
		have, ok := s[k]
		switch {
		case !ok || sub == nil:
			s[k] = sub
		case have != nil:
			have.add(sub)
		}
	}
}

// within is the part of s at or under the fields of c.
func (s fieldSet) within(c fieldSet) fieldSet {
	out := fieldSet{}
	for k, sub := range c {
		have, ok := s[k]
		switch {
		case !ok:
		case sub == nil || have == nil:
			out[k] = have
		default:
			if w := have.within(sub); len(w) > 0 {
				out[k] = w
			}
		}
	}
	return out
}

// mergeFields merges config into live: maps field by field, every other
// value whole.
func mergeFields(live, config map[string]any) {
	for k, v := range config {
		if vm, ok := v.(map[string]any); ok {
			if lm, ok := live[k].(map[string]any); ok {
				mergeFields(lm, vm)
				continue
			}
		}
		live[k] = v
	}
}

// pruneFields removes from obj the fields of last (at path) that no
// manager owns any more (ownedElsewhere), and the maps that removal
// empties.
func pruneFields(obj map[string]any, last fieldSet, path []string, ownedElsewhere func([]string) bool) {
	for k, sub := range last {
		p := append(path[:len(path):len(path)], k)
		if sub == nil {
			if !ownedElsewhere(p) {
				delete(obj, k)
			}
			continue
		}
		if m, ok := obj[k].(map[string]any); ok && len(m) > 0 {
			pruneFields(m, sub, p, ownedElsewhere)
			if len(m) == 0 {
				delete(obj, k)
			}
		}
	}
}
