package shell

import (
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
)

func (r *runner) kubectlGet(c *Command, o *kubectlOutput) error {
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	var objs []resource.Object
	single := len(ts) == 1 && ts[0].name != ""
	for _, t := range ts {
		if t.name == "" {
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			objs = append(objs, list...)
			if len(list) == 0 && len(ts) == 1 {
				if c.Output == "json" || c.Output == "yaml" {
					return r.printObjects(c, nil, false, o)
				}
				fmt.Fprintln(&o.stderr, r.noResources(c, t.info))
				return nil
			}
			continue
		}
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			if c.Flags["ignore-not-found"] != nil && last(c.Flags["ignore-not-found"]) == "true" && errors.Is(err, cluster.ErrNotFound) {
				continue
			}
			o.serverError(err, "")
			continue
		}
		objs = append(objs, obj)
	}
	if len(objs) == 0 {
		return nil
	}
	return r.printObjects(c, objs, single, o)
}
