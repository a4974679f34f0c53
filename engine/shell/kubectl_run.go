package shell

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// kubectlRun creates the Pod of `kubectl run NAME --image=IMAGE`. Its
// containers never run: genplay has no kubelet.
func (r *runner) kubectlRun(c *Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 {
		o.errorf("error: NAME is required for run")
		return nil
	}
	name := c.Targets[0]
	image := last(c.Flags["image"])
	if image == "" {
		o.errorf("error: --image is required")
		return nil
	}
	labels := map[string]any{"run": name}
	if l := last(c.Flags["labels"]); l != "" {
		labels = map[string]any{}
		for _, kv := range strings.Split(l, ",") {
			k, v, _ := strings.Cut(kv, "=")
			labels[k] = v
		}
	}
	pod := resource.Object{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": r.namespace(c), "labels": labels},
		"spec": map[string]any{
			"containers":    []any{map[string]any{"name": name, "image": image, "resources": map[string]any{}}},
			"restartPolicy": orDefault(last(c.Flags["restart"]), "Always"),
		},
	}
	if c.DryRun != "" {
		return r.printObjects(c, []resource.Object{pod}, true, o)
	}
	_, existed, warnings, err := r.kubectlWrite(scenario.OpCreate, pod, nil, nil)
	for _, w := range warnings {
		fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
	}
	switch {
	case err != nil:
		o.serverError(err, "")
	case existed:
		o.serverError(fmt.Errorf("pods %q already exists", name), "")
	default:
		ref := pod.Ref()
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
			Reason: "genplay has no kubelet: the pod exists but its containers never run"})
		fmt.Fprintf(&o.stdout, "pod/%s created\n", name)
	}
	return nil
}
