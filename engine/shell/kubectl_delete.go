package shell

import (
	"errors"
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

func (r *runner) kubectlDelete(c *Command, stdin string, user *generate.UserInfo, o *kubectlOutput) error {
	ignore := last(c.Flags["ignore-not-found"]) == "true"
	var refs []resource.Ref
	if len(c.Files) > 0 {
		var ok bool
		if refs, ok = r.manifestRefs(c, stdin, o); !ok {
			return nil
		}
	} else {
		ts, _, ok := r.targets(c.Targets, o)
		if !ok {
			return nil
		}
		for _, t := range ts {
			if t.name != "" {
				refs = append(refs, r.refOf(c, t))
				continue
			}
			if c.Selector == "" && last(c.Flags["all"]) != "true" {
				o.errorf("error: resource(s) were provided, but no name was specified")
				return nil
			}
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintln(&o.stderr, "No resources found")
			}
			for _, obj := range list {
				refs = append(refs, obj.Ref())
			}
		}
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
func (r *runner) removeAs(ref resource.Ref, user generate.UserInfo) error {
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
