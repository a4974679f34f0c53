package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
)

// kubectlLabel runs kubectl label and annotate.
func (r *runner) kubectlLabel(c *Command, user *admission.UserInfo, o *kubectlOutput) error {
	field, done := "labels", "labeled"
	if c.Verb == "annotate" {
		field, done = "annotations", "annotated"
	}
	ts, pairs, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	if len(pairs) == 0 {
		o.errorf("error: at least one %s update is required", strings.TrimSuffix(field, "s"))
		return nil
	}
	overwrite := last(c.Flags["overwrite"]) == "true"
	var objs []resource.Object
	for _, t := range ts {
		if t.name == "" {
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			if c.Selector == "" && last(c.Flags["all"]) != "true" {
				o.errorf("error: resource(s) were provided, but no name was specified")
				return nil
			}
			objs = append(objs, list...)
			continue
		}
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			o.serverError(err, "")
			return nil
		}
		objs = append(objs, obj)
	}
	for _, obj := range objs {
		next := obj.DeepCopy()
		md := next.Metadata()
		m, _ := md[field].(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		for _, p := range pairs {
			if k, ok := strings.CutSuffix(p, "-"); ok && !strings.Contains(p, "=") {
				delete(m, k)
				continue
			}
			k, v, _ := strings.Cut(p, "=")
			if old, exists := m[k]; exists && !overwrite && old != v {
				o.errorf("error: '%s' already has a value (%v), and --overwrite is false", k, old)
				return nil
			}
			m[k] = v
		}
		if len(m) == 0 {
			delete(md, field)
		} else {
			md[field] = m
		}
		out, _, warnings, err := r.kubectlWrite(scenario.OpUpdate, next, nil, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		name := typeName(r.kindInfo(obj), obj.Name())
		switch {
		case err != nil:
			o.serverError(err, "")
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s not %s\n", name, done)
		default:
			fmt.Fprintf(&o.stdout, "%s %s\n", name, done)
		}
	}
	return nil
}
