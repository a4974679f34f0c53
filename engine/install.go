package engine

import "github.com/genplay/genplay/engine/scenario"

// install applies Options.Install before the test: before chainsaw's test
// namespace too, since a CRD decides whether a kind is namespaced.
func (r *runner) install() bool {
	op := &scenario.Operation{Type: scenario.OpApply}
	for _, res := range r.s.opts.Install {
		op.Pos = res.Pos()
		if r.limited(op.Pos) || !r.write("install", op, res, r.bindings) {
			return false
		}
	}
	return true
}
