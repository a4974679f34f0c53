package engine

import (
	"strings"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// familyGroup is the API group of the CEL policy family's objects
// (GeneratingPolicy, NamespacedGeneratingPolicy, PolicyException).
const familyGroup = "policies.kyverno.io"

// isFamilyGroup reports whether obj belongs to a policy family this build
// may lack (Options.Families).
func isFamilyGroup(obj resource.Object) bool {
	group, _, _ := strings.Cut(obj.APIVersion(), "/")
	return group == familyGroup
}

// putFamily writes one of a family's policy objects as the user: the
// family's admission (schema and policy webhook) first, then the write,
// which is admitted like any other, then the status Kyverno's controllers
// write, then the family's policy controller.
func (s *Session) putFamily(fam generate.Family, user generate.UserInfo, mode string, old, next resource.Object, doc *source.Document) (resource.Object, []string, error) {
	adm := fam.AdmitPolicy(next, old, doc)
	for _, d := range adm.Diagnostics {
		s.diags = append(s.diags, timeline.Diagnostic{File: d.File, Line: d.Line, Column: d.Col, Severity: d.Severity, Message: d.Message})
	}
	if adm.Err != nil {
		return nil, adm.Warnings, adm.Err
	}
	mark := s.eventMark()
	var out resource.Object
	var err error
	if old != nil {
		out, err = s.ctrl.Update(user, next)
	} else {
		out, err = s.ctrl.Create(user, next)
	}
	if err != nil {
		return nil, adm.Warnings, err
	}
	verb := timeline.ActionCreated
	if old != nil {
		verb = timeline.ActionUpdated
	}
	s.userEventAt(mark, verb, out.Ref(), writeReason(user, mode))
	if st := fam.Status(out); st != nil {
		upd := out.DeepCopy()
		upd["status"] = st
		if stored, err := s.store.Update(upd); err == nil {
			out = stored
		}
	}
	fam.PolicyWritten(old, out)
	return out, adm.Warnings, nil
}

// Diagnostic implements generate.Diagnoser: a family's runtime diagnostic,
// once per position and message.
func (s *Session) Diagnostic(d timeline.Diagnostic) {
	for _, have := range s.diags {
		if have == d {
			return
		}
	}
	s.diags = append(s.diags, d)
}

// RestartBackgroundController models `kubectl rollout restart
// deployment/kyverno-background-controller -n kyverno`: the background
// controller's in-memory state (the CEL family's watch cache) is lost and
// rebuilt as on startup, within the current step.
func (s *Session) RestartBackgroundController() {
	ref := resource.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "kyverno", Name: "kyverno-background-controller"}
	s.Event(timeline.Event{Actor: timeline.ActorUser, Action: timeline.ActionNote, Object: &ref,
		Reason: "the background controller restarts: genplay models the restart as the loss of its in-memory state, rebuilt as on startup"})
	s.ctrl.Restart()
}
