package generate

import (
	"strings"

	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

// Values stand in for context and request data as a kyverno-test.yaml's
// values file (cli.kyverno.io/v1alpha1 Values) does in Kyverno's CLI
// (cmd/cli/kubectl-kyverno: variables.ComputeVariables and the store's
// context loader). A key names a path of the JSON context, dots and all
// ("request.namespace" is request's namespace), as the CLI's AddVariable
// reads it.
type Values struct {
	// Global are globalValues, for every policy and resource.
	Global map[string]any
	// Resources are a policy's values for one resource, by policy name and
	// resource name; they apply after Global.
	Resources map[string]map[string]map[string]any
	// Rules are a rule's values, by policy name and rule name. They are in
	// the context before the rule's context entries load; an entry the
	// values name that reads the cluster (apiCall, configMap,
	// globalReference) is not loaded, as the CLI has no cluster to load it
	// from; a variable entry still is.
	Rules map[string]map[string]map[string]any
}

// SetValues makes the controller use values (nil: none).
func (c *Controller) SetValues(v *Values) { c.values = v }

// withValues is ctx with the resource's values (global, then the policy's
// for the object's name) set, for the legacy family's rule evaluation.
func (c *Controller) withValues(p *policy.Policy, obj resource.Object, ctx map[string]any) map[string]any {
	v := c.values
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
func (c *Controller) ruleValues(p *policy.Policy, rule string) map[string]any {
	if c.values == nil {
		return nil
	}
	return c.values.Rules[p.Name][rule]
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
