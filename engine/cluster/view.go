package cluster

import "github.com/genplay/genplay/engine/resource"

// View is Get without the copy, for hot paths that only read: it returns
// the stored object itself. The caller must not modify it or anything in
// it, and must not hand it to code that might. The store never changes a
// stored object in place (every write stores a new one), so a view keeps
// showing the version it was taken from. When ref.APIVersion asks for a
// served version other than the stored one, View returns a copy, as Get.
func (s *Store) View(ref resource.Ref) (resource.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info, e, err := s.find(ref)
	if err != nil {
		return nil, err
	}
	if ref.APIVersion != "" && info.APIVersion() == ref.APIVersion && e.obj.APIVersion() != ref.APIVersion {
		return s.out(e, ref.APIVersion, info), nil
	}
	return e.obj, nil
}

// ViewByUID is GetByUID without the copy, under View's rules: the caller
// only reads the result. A served version other than the stored one is
// returned as a copy, as GetByUID.
func (s *Store) ViewByUID(ref resource.Ref, uid string) (resource.Object, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	info, e, err := s.findUID(ref, uid)
	if err != nil {
		return nil, err
	}
	if ref.APIVersion != "" && info.APIVersion() == ref.APIVersion && e.obj.APIVersion() != ref.APIVersion {
		return s.out(e, ref.APIVersion, info), nil
	}
	return e.obj, nil
}
