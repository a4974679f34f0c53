package shell

import (
	"errors"
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/scenario"
)

func (r *runner) kubectlApply(c *Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	mode, verb := scenario.OpApply, "configured"
	if c.Verb == "replace" {
		mode, verb = scenario.OpUpdate, "replaced"
	}
	ms, ok := r.manifests(c, stdin, o)
	if !ok {
		return nil
	}
	for _, m := range ms {
		obj := m.obj.DeepCopy()
		r.defaultNamespace(c, obj)
		info := r.kindInfo(obj)
		if c.DryRun != "" {
			fmt.Fprintf(&o.stdout, "%s %s (%s dry run)\n", typeName(info, obj.Name()), "configured", c.DryRun)
			continue
		}
		out, existed, warnings, err := r.kubectlWrite(mode, obj, m.doc, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		switch {
		case err != nil && mode == scenario.OpUpdate:
			// kubectl replace: AddSourceToErr("replacing", ...), whether
			// the object was missing or the update refused.
			o.serverError(err, fmt.Sprintf("error when replacing %q", m.file))
		case err != nil && !existed:
			o.serverError(err, fmt.Sprintf("error when creating %q", m.file))
		case err != nil:
			o.serverError(err, fmt.Sprintf("error when patching %q", m.file))
		case !existed:
			fmt.Fprintf(&o.stdout, "%s created\n", typeName(info, obj.Name()))
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s unchanged\n", typeName(info, obj.Name()))
		default:
			fmt.Fprintf(&o.stdout, "%s %s\n", typeName(info, obj.Name()), verb)
		}
	}
	return nil
}
