package cluster

// entrySet is the set of entries under one index key. Most index sets hold
// a single entry (a label value unique to one object, such as Kyverno's
// trigger uid; an owner with one dependent), so that entry is kept inline
// and costs no allocation; a map is made only when a second member arrives.
// Once made, the map is kept until the set empties, so a set that moves
// between one and two members (an object deleted and recreated next to
// another) does not make a new map each time.
//
// The map is keyed by the entry pointer, whose hash is one word, instead of
// by objKey, whose hash covers four strings. An objKey has at most one live
// entry, and remove is always handed the entry insert stored, so pointer
// identity is key identity here.
//
// Iteration order is not defined (a map's), so every reader that returns
// entries sorts them.
type entrySet struct {
	one  *entry              // the only member, when many is nil
	many map[*entry]struct{} // every member, once the set has had two
}

// len returns the number of members.
func (set entrySet) len() int {
	if set.many != nil {
		return len(set.many)
	}
	if set.one != nil {
		return 1
	}
	return 0
}

// appendTo appends the members to dst, in no particular order.
func (set entrySet) appendTo(dst []*entry) []*entry {
	if set.many == nil {
		if set.one != nil {
			dst = append(dst, set.one)
		}
		return dst
	}
	for e := range set.many {
		dst = append(dst, e)
	}
	return dst
}

// sorted returns the members sorted by group, kind, namespace and name.
func (set entrySet) sorted() []*entry {
	return sortEntries(set.appendTo(make([]*entry, 0, set.len())))
}

// addTo adds e to the set under k. A map value holding a map needs no
// write-back once the map exists, so only a new key or the step from one
// member to two writes m[k].
func addTo[K comparable](m map[K]entrySet, k K, e *entry) {
	set, ok := m[k]
	switch {
	case !ok:
		m[k] = entrySet{one: e}
	case set.many != nil:
		set.many[e] = struct{}{}
	case set.one != e:
		m[k] = entrySet{many: map[*entry]struct{}{set.one: {}, e: {}}}
	}
}

// removeFrom removes e from the set under k, and the key once its set is
// empty.
func removeFrom[K comparable](m map[K]entrySet, k K, e *entry) {
	set, ok := m[k]
	switch {
	case !ok:
	case set.many != nil:
		delete(set.many, e)
		if len(set.many) == 0 {
			delete(m, k)
		}
	case set.one == e:
		delete(m, k)
	}
}
