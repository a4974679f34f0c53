package cluster

import (
	"fmt"

	"github.com/genplay/genplay/engine/resource"
)

// audit remembers a copy of every object the store has stored, to catch
// code that breaks the ownership rules (see the package doc) by changing a
// stored object: a read-only view, or an object after handing it to Create
// or Update. It keeps every version, including ones replaced or deleted
// since, because views of old versions live on in timelines and
// UpdateRequests. For tests: the copies cost memory and time.
type audit struct {
	records []auditRecord
}

type auditRecord struct {
	obj, copy resource.Object
}

// stored records obj as the store stored it; a no-op when auditing is off.
func (a *audit) stored(obj resource.Object) {
	if a != nil {
		a.records = append(a.records, auditRecord{obj: obj, copy: obj.DeepCopy()})
	}
}

// EnableAudit makes the store remember a copy of every object it stores
// from now on, for Audit. Meant for tests.
func (s *Store) EnableAudit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.audit == nil {
		s.audit = &audit{}
	}
}

// Audit reports the first object stored since EnableAudit that has been
// changed since it was stored, or nil when there is none (or auditing is
// off).
func (s *Store) Audit() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.audit == nil {
		return nil
	}
	for _, r := range s.audit.records {
		if !resource.Equal(r.obj, r.copy) {
			return fmt.Errorf("stored object %s (resourceVersion %s) was changed after it was stored",
				r.copy.Ref(), r.copy.ResourceVersion())
		}
	}
	return nil
}
