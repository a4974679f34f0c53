package shell

import (
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// kubectlEvict is the kubectl-evict plugin (kubectl evict POD): the API
// server sends Kyverno a CREATE admission request for the pods/eviction
// subresource, whose object is an Eviction, then deletes the pod (which
// never runs here, so it goes at once, with the pod's DELETE admission
// request). The plugin's own output is not reproduced.
func (r *runner) kubectlEvict(c *Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 || strings.Contains(strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/"), "/") {
		return &scenario.UnsupportedError{Reason: "runs kubectl evict " + strings.Join(c.Targets, " ") + "; genplay simulates the eviction of one pod (kubectl evict POD)"}
	}
	name := strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/")
	ref := resource.Ref{APIVersion: "v1", Kind: "Pod", Namespace: r.namespace(c), Name: name}
	if _, err := r.s.Store().Get(ref); err != nil {
		o.serverError(err, "")
		return nil
	}
	user := r.opts.Admin
	eviction := resource.Object{
		"apiVersion": "policy/v1", "kind": "Eviction",
		"metadata": map[string]any{"name": name, "namespace": ref.Namespace},
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
		Reason: "kubectl evict: the API server sends Kyverno a CREATE admission request for pods/eviction (an Eviction), then deletes the pod; " +
			"genplay's pods never run, so it goes at once"})
	r.s.Admit(admission.Request{Operation: admission.OpCreate, Object: eviction, User: user,
		SubResource: "eviction", Resource: resource.GVK{Version: "v1", Kind: "Pod"}})
	if err := r.s.DeleteAs(user, ref); err != nil {
		o.serverError(err, "")
		return nil
	}
	r.userEvent(timeline.ActionDeleted, ref, "evicted (kubectl evict)")
	return nil
}
