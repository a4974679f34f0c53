package cluster

import (
	"slices"

	"github.com/genplay/genplay/engine/resource"
)

// Written is one object the store changed since the last TakeWritten: the
// object as it was then (nil: absent) and as it is now (nil: absent). Both
// are the store's own objects, read-only (see Ownership).
type Written struct {
	Before, After resource.Object
}

// journal remembers, for every object written since the last take, the
// version it had then: the store's writes reduced to what changed, at a
// cost of one map entry per distinct object written.
type journal struct {
	before map[objKey]resource.Object
}

// note records the version key had before its first write since the last
// take; old is that version, nil when key was absent.
func (j *journal) note(key objKey, old resource.Object) {
	if j == nil {
		return
	}
	if _, ok := j.before[key]; !ok {
		j.before[key] = old
	}
}

// RecordWrites makes the store remember which objects every write changes,
// for TakeWritten. Off by default: a store nobody takes from would keep a
// map entry per object ever written.
func (s *Store) RecordWrites() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil {
		s.journal = &journal{before: map[objKey]resource.Object{}}
	}
}

// TakeWritten returns every object whose stored version changed since the
// last call (or since RecordWrites), sorted by group, kind, namespace and
// name, and starts over. An object created and deleted in between, or
// written back to the very version it had, is not listed: nothing of it
// changed. nil when RecordWrites was not called.
func (s *Store) TakeWritten() []Written {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.journal == nil || len(s.journal.before) == 0 {
		return nil
	}
	keys := make([]objKey, 0, len(s.journal.before))
	for k := range s.journal.before {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	out := make([]Written, 0, len(keys))
	for _, k := range keys {
		w := Written{Before: s.journal.before[k]}
		if e := s.objects[k]; e != nil {
			w.After = e.obj
		}
		if !sameVersion(w.Before, w.After) {
			out = append(out, w)
		}
	}
	clear(s.journal.before)
	return out
}

// sameVersion reports whether a and b are the same stored version (or both
// absent): the store never changes a stored object, so identity is enough.
func sameVersion(a, b resource.Object) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return resource.Same(a, b)
}
