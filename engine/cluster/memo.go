package cluster

import "sync"

// validMemo remembers strings a pure check accepted, so metadata that is
// written again and again (Kyverno rewrites its labels on every sync) is
// not run through the validation regexps each time. Only acceptance is
// remembered; a rejected string is checked again and reported in full.
type validMemo struct {
	mu sync.Mutex
	ok map[string]struct{}
}

// validMemoMax bounds a memo; a full one starts over.
const validMemoMax = 16384

var (
	qualifiedNames = &validMemo{}
	labelValues    = &validMemo{}
)

// check returns check(s), skipping the call for a string already accepted.
func (m *validMemo) check(s string, check func(string) []string) []string {
	m.mu.Lock()
	_, known := m.ok[s]
	m.mu.Unlock()
	if known {
		return nil
	}
	errs := check(s)
	if len(errs) == 0 {
		m.mu.Lock()
		if m.ok == nil || len(m.ok) >= validMemoMax {
			m.ok = map[string]struct{}{}
		}
		m.ok[s] = struct{}{}
		m.mu.Unlock()
	}
	return errs
}
