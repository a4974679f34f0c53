package resource

// MergePatch applies a JSON merge patch (RFC 7386) to dst.
func MergePatch(dst, patch map[string]any) {
	for k, pv := range patch {
		if pv == nil {
			delete(dst, k)
			continue
		}
		pm, pok := pv.(map[string]any)
		dm, dok := dst[k].(map[string]any)
		if pok && dok {
			MergePatch(dm, pm)
			continue
		}
		dst[k] = DeepCopyValue(pv)
	}
}
