package shell

import (
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// kubectlExec simulates what Kyverno sees of kubectl exec: the API server
// sends a CONNECT admission request for the pods/exec subresource, whose
// object is a PodExecOptions. The command itself does not run (genplay has
// no containers), so it prints nothing.
func (r *runner) kubectlExec(c *Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 {
		o.errorf("error: expected 'exec POD_NAME COMMAND [ARG1] [ARG2] ... [ARGN]'")
		return nil
	}
	name := strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/")
	if strings.Contains(name, "/") {
		return &scenario.UnsupportedError{Reason: "runs kubectl exec on " + c.Targets[0] + "; genplay simulates exec on pods only"}
	}
	ref := resource.Ref{APIVersion: "v1", Kind: "Pod", Namespace: r.namespace(c), Name: name}
	pod, err := r.s.Store().Get(ref)
	if err != nil {
		o.serverError(err, "")
		return nil
	}
	container := last(c.Flags["container"])
	if container == "" {
		containers, _ := pod.Nested("spec", "containers")
		if list, _ := containers.([]any); len(list) > 0 {
			if m, _ := list[0].(map[string]any); m != nil {
				container, _ = m["name"].(string)
			}
		}
	}
	command := make([]any, len(c.ExecArgs))
	for i, a := range c.ExecArgs {
		command[i] = a
	}
	opts := resource.Object{
		"apiVersion": "v1", "kind": "PodExecOptions",
		// Kyverno reads request.name and request.namespace from the
		// admission request; genplay carries them in metadata.
		"metadata":  map[string]any{"name": name, "namespace": ref.Namespace},
		"container": container, "command": command,
		"stdin": c.Flags["stdin"] != nil, "tty": c.Flags["tty"] != nil,
		"stdout": true, "stderr": true,
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
		Reason: "kubectl exec: the API server sends Kyverno a CONNECT admission request for pods/exec (a PodExecOptions); genplay runs no containers, so the command does not run and prints nothing"})
	r.s.Admit(admission.Request{Operation: admission.OpConnect, Object: opts, User: r.opts.Admin,
		SubResource: "exec", Resource: resource.GVK{Version: "v1", Kind: "Pod"}})
	return nil
}
