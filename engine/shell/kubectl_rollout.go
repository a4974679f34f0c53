package shell

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// backgroundController is the Deployment of Kyverno's background
// controller, the one rollout kubectl rollout can ask genplay for.
var backgroundController = resource.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "kyverno", Name: "kyverno-background-controller"}

// rolloutTarget reads the Deployment of kubectl rollout restart|status
// (deployment/NAME or deployment NAME) and reports whether it is Kyverno's
// background controller; other rollouts cannot be simulated.
func (r *runner) rolloutTarget(c *Command) error {
	args := c.Targets
	if len(args) > 0 && (args[0] == "restart" || args[0] == "status") {
		args = args[1:]
		kind, name := "", ""
		switch {
		case len(args) == 1 && strings.Contains(args[0], "/"):
			kind, name, _ = strings.Cut(args[0], "/")
		case len(args) == 2:
			kind, name = args[0], args[1]
		}
		info, ok := r.resolveType(kind)
		if ok && info.Kind == "Deployment" && info.Group == "apps" && name == backgroundController.Name && r.namespace(c) == backgroundController.Namespace {
			return nil
		}
	}
	return &scenario.UnsupportedError{Reason: "runs kubectl rollout " + strings.Join(c.Targets, " ") + " -n " + r.namespace(c) +
		": genplay manages no rollouts of running workloads; it simulates only a restart of Kyverno's background controller " +
		"(kubectl rollout restart|status deployment/kyverno-background-controller -n kyverno)"}
}

// kubectlRollout restarts Kyverno's background controller (rollout
// restart), or reports its rollout done (rollout status): its in-memory
// state is lost and rebuilt at once (Session.RestartBackgroundController),
// so the new pod is ready when the restart returns.
func (r *runner) kubectlRollout(c *Command, o *kubectlOutput) error {
	if err := r.rolloutTarget(c); err != nil {
		return err
	}
	ref := backgroundController
	if c.Targets[0] == "status" {
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
			Reason: "kubectl rollout status: genplay restarts the background controller at once, so its rollout is complete"})
		fmt.Fprintf(&o.stdout, "deployment %q successfully rolled out\n", ref.Name)
		return nil
	}
	r.s.RestartBackgroundController()
	fmt.Fprintf(&o.stdout, "deployment.apps/%s restarted\n", ref.Name)
	return nil
}
