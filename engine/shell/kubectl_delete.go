package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

func (r *runner) kubectlDelete(c *Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	ignore := last(c.Flags["ignore-not-found"]) == "true"
	refs, ok, err := r.callRefs(c, stdin, o, true)
	if !ok || err != nil {
		return err
	}
	for _, ref := range refs {
		info, _ := r.s.Store().KindInfo(ref.APIVersion, ref.Kind)
		if c.DryRun != "" {
			fmt.Fprintf(&o.stdout, "%s %q deleted (%s dry run)\n", strings.ToLower(ref.Kind), ref.Name, c.DryRun)
			continue
		}
		var err error
		if user != nil {
			err = r.removeAs(ref, *user)
		} else {
			err = r.s.Remove(ref)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		if err != nil {
			r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionRejected, Object: &ref, Reason: err.Error()})
			if ignore && errors.Is(err, cluster.ErrNotFound) {
				continue
			}
			o.serverError(err, "")
			continue
		}
		kind := strings.ToLower(ref.Kind)
		if info.Group != "" {
			kind += "." + info.Group
		}
		fmt.Fprintf(&o.stdout, "%s %q deleted\n", kind, ref.Name)
	}
	return nil
}

// removeAs deletes an object as an impersonated user.
func (r *runner) removeAs(ref resource.Ref, user admission.UserInfo) error {
	live, err := r.s.Store().Get(ref)
	if err != nil {
		return err
	}
	if r.s.IsPolicy(live) {
		return &scenario.UnsupportedError{Reason: "deletes a Kyverno policy as an impersonated user, which genplay does not simulate"}
	}
	if err := r.s.DeleteAs(user, ref); err != nil {
		return err
	}
	r.userEvent(timeline.ActionDeleted, ref, "by "+user.Username+" (kubectl --as; genplay does not enforce RBAC)")
	return nil
}
