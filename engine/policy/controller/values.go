package controller

import (
	"strings"

	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// withValues is ctx with the resource's values (global, then the policy's
// for the object's name) set, for the legacy family's rule evaluation.
func (c *Family) withValues(p *policy.Policy, obj resource.Object, ctx map[string]any) map[string]any {
	v := c.cfg.Values
	if v == nil || obj == nil {
		return ctx
	}
	vals := map[string]any{}
	for k, x := range v.Global {
		vals[k] = x
	}
	for k, x := range v.Resources[p.Name][obj.Name()] {
		vals[k] = x
	}
	if len(vals) == 0 {
		return ctx
	}
	out := cloneContext(ctx)
	for k, x := range vals {
		setPath(out, strings.Split(k, "."), resource.DeepCopyValue(x))
	}
	return out
}

// ruleValues are the values of a rule, and whether an entry is one the
// values replace.
func (c *Family) ruleValues(p *policy.Policy, rule string) map[string]any {
	if c.cfg.Values == nil {
		return nil
	}
	return c.cfg.Values.Rules[p.Name][rule]
}

// setPath sets ctx[path...] to x, copying the maps on the way (the maps of
// a context are shared, never written in place).
func setPath(ctx map[string]any, path []string, x any) {
	if len(path) == 1 {
		ctx[path[0]] = x
		return
	}
	next := map[string]any{}
	if m, ok := ctx[path[0]].(map[string]any); ok {
		for k, v := range m {
			next[k] = v
		}
	}
	setPath(next, path[1:], x)
	ctx[path[0]] = next
}
