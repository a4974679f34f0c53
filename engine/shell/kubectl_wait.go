package shell

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// kubectlWait handles --for=delete (the simulation has converged, so the
// object is gone or never will be) and --for=jsonpath=... equality.
func (r *runner) kubectlWait(c *Command, o *kubectlOutput) error {
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	cond := last(c.Flags["for"])
	for _, t := range ts {
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if strings.HasPrefix(cond, "delete") {
			if err == nil {
				o.errorf("error: timed out waiting for the condition on %s", typeName(t.info, t.name))
			} else {
				fmt.Fprintf(&o.stdout, "%s condition met\n", typeName(t.info, t.name))
			}
			continue
		}
		if err != nil {
			o.serverError(err, "")
			continue
		}
		expr, want, _ := strings.Cut(strings.TrimPrefix(cond, "jsonpath="), "=")
		got, ok := jsonPath(obj, expr)
		if !ok || got != want {
			o.errorf("error: timed out waiting for the condition on %s", typeName(t.info, t.name))
			continue
		}
		fmt.Fprintf(&o.stdout, "%s condition met\n", typeName(t.info, t.name))
	}
	return nil
}

// jsonPath evaluates the simple dotted form of a kubectl JSONPath,
// "{.status.phase}".
func jsonPath(obj resource.Object, expr string) (string, bool) {
	expr = strings.TrimSuffix(strings.TrimPrefix(expr, "{"), "}")
	expr = strings.TrimPrefix(expr, ".")
	if strings.ContainsAny(expr, "[]*@?") {
		return "", false
	}
	v, ok := obj.Nested(strings.Split(expr, ".")...)
	if !ok {
		return "", false
	}
	return fmt.Sprint(v), true
}
