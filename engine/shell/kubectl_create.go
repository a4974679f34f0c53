package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
)

func (r *runner) kubectlCreate(c *Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	var objs []manifest
	if len(c.Files) > 0 {
		ms, ok := r.manifests(c, stdin, o)
		if !ok {
			return nil
		}
		objs = ms
	} else {
		obj, err := r.generator(c)
		if err != nil {
			return err
		}
		if obj == nil {
			o.errorf("error: genplay cannot build this object from kubectl create's arguments")
			return nil
		}
		objs = []manifest{{file: "", obj: obj}}
	}
	for _, m := range objs {
		obj := m.obj.DeepCopy()
		r.defaultNamespace(c, obj)
		info := r.kindInfo(obj)
		if c.DryRun != "" {
			if c.Output != "" {
				return r.printObjects(c, []resource.Object{obj}, true, o)
			}
			fmt.Fprintf(&o.stdout, "%s created (%s dry run)\n", typeName(info, obj.Name()), c.DryRun)
			continue
		}
		_, existed, warnings, err := r.kubectlWrite(scenario.OpCreate, obj, m.doc, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		switch {
		case err != nil && m.file != "":
			o.serverError(err, fmt.Sprintf("error when creating %q", m.file))
		case err != nil:
			o.serverError(err, "")
		case existed:
			o.serverError(fmt.Errorf("%s %q already exists", info.Resource, obj.Name()), "")
		default:
			fmt.Fprintf(&o.stdout, "%s created\n", typeName(info, obj.Name()))
		}
	}
	return nil
}

// generator builds the object of `kubectl create TYPE NAME ...`.
func (r *runner) generator(c *Command) (resource.Object, error) {
	if len(c.Targets) < 2 {
		return nil, nil
	}
	kind, name := c.Targets[0], c.Targets[1]
	md := map[string]any{"name": name}
	switch kind {
	case "namespace", "ns":
		if len(c.Targets) != 2 {
			return nil, nil
		}
		return resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": md}, nil
	case "configmap", "cm":
		data := map[string]any{}
		for _, lit := range c.Flags["from-literal"] {
			k, v, ok := strings.Cut(lit, "=")
			if !ok {
				return nil, nil
			}
			data[k] = v
		}
		if c.Flags["from-file"] != nil {
			return nil, &scenario.UnsupportedError{Reason: "creates a ConfigMap --from-file, which genplay does not simulate"}
		}
		obj := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md}
		if len(data) > 0 {
			obj["data"] = data
		}
		return obj, nil
	case "serviceaccount", "sa":
		return resource.Object{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": md}, nil
	}
	return nil, &scenario.UnsupportedError{Reason: "runs kubectl create " + kind + ", whose object genplay does not build (use -f)"}
}
