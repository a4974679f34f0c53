package engine

import (
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy/controller"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Family is a policy family an adapter registers in Options.Families: the
// function that creates it over the session's core. The CEL
// GeneratingPolicy family's is controller.New of engine/gpol/controller.
type Family = generate.NewFamily

// builtinFamilies are the families every build simulates: ClusterPolicy and
// Policy generate rules. Options.Families come after them.
var builtinFamilies = []Family{controller.New}

// familyGroup is the API group of the CEL policy family's objects
// (GeneratingPolicy, NamespacedGeneratingPolicy, PolicyException).
const familyGroup = "policies.kyverno.io"

// isFamilyGroup reports whether obj belongs to a policy family this build
// may lack (Options.Families).
func isFamilyGroup(obj resource.Object) bool {
	group, _, _ := strings.Cut(obj.APIVersion(), "/")
	return group == familyGroup
}

// putPolicy writes one of a family's policy objects as the user, the one
// admission path of every family: the family's admission (the API server's
// schema check and Kyverno's policy webhook) first, then the write, which
// is admitted like any other, then the status Kyverno's controllers write,
// then the family's policy controller.
func (s *Session) putPolicy(fam generate.Family, user admission.UserInfo, mode string, old, next resource.Object, doc *source.Document) (resource.Object, []string, error) {
	mark := s.eventMark()
	out, warnings, err := s.writePolicy(fam, user, old, next, doc, func(out resource.Object) {
		verb := timeline.ActionCreated
		if old != nil {
			verb = timeline.ActionUpdated
		}
		s.userEventAt(mark, verb, out.Ref(), writeReason(user, mode))
	})
	return out, warnings, err
}

// WritePolicy implements generate.PolicyAdmitter: Kyverno's background
// controller writes a policy (a generate rule's downstream), which Kyverno's
// policy webhook admits (or denies: the write fails with its message) and
// its policy controllers take up, as a user's.
func (s *Session) WritePolicy(fam generate.Family, user admission.UserInfo, old, obj resource.Object) (resource.Object, error) {
	out, _, err := s.writePolicy(fam, user, old, obj, nil, nil)
	return out, err
}

// writePolicy is the admission path of a policy object: the family's
// admission, the write, written (the user's event, for the user's writes),
// the status Kyverno's controllers write, then the family's policy
// controller.
func (s *Session) writePolicy(fam generate.Family, user admission.UserInfo, old, next resource.Object, doc *source.Document, written func(resource.Object)) (resource.Object, []string, error) {
	adm := fam.AdmitPolicy(next, old, doc)
	s.admissionChanges, s.warningChanges = adm.Changes, adm.WarningChanges
	for _, d := range adm.Diagnostics {
		s.diags = append(s.diags, diagnostic(d))
	}
	if adm.Err != nil {
		return nil, adm.Warnings, adm.Err
	}
	var out resource.Object
	var err error
	if old != nil {
		out, err = s.core.UpdateAdmitted(user, next)
	} else {
		out, err = s.core.CreateAdmitted(user, next)
	}
	if err != nil {
		return nil, adm.Warnings, err
	}
	if written != nil {
		written(out)
	}
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

// diagnostic converts a diagnostic to the timeline's JSON contract.
func diagnostic(d source.Diagnostic) timeline.Diagnostic {
	return timeline.Diagnostic{File: d.File, Line: d.Line, Column: d.Col, Severity: d.Severity, Message: d.Message}
}

// diagnostics converts diagnostics to the timeline's JSON contract: never
// nil, so that none is an empty list in JSON.
func diagnostics(ds source.Diagnostics) []timeline.Diagnostic {
	out := make([]timeline.Diagnostic, len(ds))
	for i, d := range ds {
		out[i] = diagnostic(d)
	}
	return out
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
	s.core.Restart()
}
