package timeline

import "github.com/genplay/genplay/engine/resource"

// PatchOf returns the JSON merge patch (RFC 7386) that turns before into
// after, and whether it does so exactly: a merge patch cannot set a value
// to null (null deletes), so an object holding nulls where it changed needs
// to be recorded whole.
func PatchOf(before, after resource.Object) (map[string]any, bool) {
	p := patchOf(before, after)
	return p, resource.Equal(applyPatch(map[string]any(before), p), map[string]any(after))
}

func patchOf(a, b map[string]any) map[string]any {
	p := map[string]any{}
	for k := range a {
		if _, ok := b[k]; !ok {
			p[k] = nil
		}
	}
	for k, bv := range b {
		av, ok := a[k]
		if ok && resource.Equal(av, bv) {
			continue
		}
		am, aok := asMap(av)
		bm, bok := asMap(bv)
		if ok && aok && bok {
			p[k] = patchOf(am, bm)
			continue
		}
		p[k] = bv
	}
	return p
}

// applyPatch returns target with a JSON merge patch applied (RFC 7386),
// changing neither: the result shares what the patch leaves alone with
// target, so both must stay read-only.
func applyPatch(target, patch any) any {
	pm, ok := asMap(patch)
	if !ok {
		return patch
	}
	tm, _ := asMap(target)
	out := make(map[string]any, len(tm)+len(pm))
	for k, v := range tm {
		out[k] = v
	}
	for k, pv := range pm {
		if pv == nil {
			delete(out, k)
			continue
		}
		out[k] = applyPatch(out[k], pv)
	}
	return out
}

func asMap(v any) (map[string]any, bool) {
	switch m := v.(type) {
	case map[string]any:
		return m, true
	case resource.Object:
		return m, true
	}
	return nil, false
}
