package shell

import (
	"fmt"
	"strconv"

	"github.com/genplay/genplay/engine/scenario"
)

func (r *runner) kubectlScale(c *Command, o *kubectlOutput) error {
	n, err := strconv.Atoi(last(c.Flags["replicas"]))
	if err != nil {
		o.errorf("error: --replicas=COUNT is required")
		return nil
	}
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	for _, t := range ts {
		live, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			o.serverError(err, "")
			continue
		}
		next := live.DeepCopy()
		spec, _ := next["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			next["spec"] = spec
		}
		spec["replicas"] = float64(n)
		if _, _, _, err := r.kubectlWrite(scenario.OpUpdate, next, nil, nil); err != nil {
			o.serverError(err, "")
			continue
		}
		fmt.Fprintf(&o.stdout, "%s scaled\n", typeName(t.info, t.name))
	}
	return nil
}
