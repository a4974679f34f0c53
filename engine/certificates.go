//go:build !(js && wasm)

package engine

import (
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/certificates"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// Kubernetes' certificates API (package certificates) in the native
// builds; the browser's builds leave it out (certificates_wasm.go) for
// their size budgets, with the shell's kubeconfig and openssl.

// certificateStrategy applies the API server's strategy for
// CertificateSigningRequests to a user's write of next over old (nil: a
// create).
func (s *Session) certificateStrategy(user admission.UserInfo, old, next resource.Object) error {
	if !certificates.IsRequest(next) {
		return nil
	}
	if old == nil {
		return certificates.Create(user, next)
	}
	certificates.Update(old, next)
	return nil
}

// UpdateApproval writes a CertificateSigningRequest's approval
// subresource as user (kubectl certificate approve and deny): only its
// conditions change; kube-controller-manager's signer then acts in the
// same step.
func (s *Session) UpdateApproval(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	live, err := s.store.Get(obj.Ref())
	if err != nil {
		return nil, err
	}
	if !certificates.IsRequest(live) {
		return nil, fmt.Errorf("%s %s has no approval subresource", live.Kind(), live.Name())
	}
	next := obj.DeepCopy()
	if err := certificates.Approve(live, next, s.clock.Now()); err != nil {
		return nil, err
	}
	next.Metadata()["resourceVersion"] = live.ResourceVersion()
	mark := s.eventMark()
	out, err := s.core.UpdateSubresource(user, next)
	if err != nil {
		return nil, err
	}
	if out.ResourceVersion() != live.ResourceVersion() {
		s.userEventAt(mark, timeline.ActionUpdated, out.Ref(), "approval subresource written by "+user.Username)
	}
	s.runSigner(out)
	return out, nil
}

// runSigner is kube-controller-manager's signing controller reacting to a
// write of obj.
func (s *Session) runSigner(obj resource.Object) {
	next, why := certificates.Sign(obj, s.clock.Now())
	if next == nil {
		return
	}
	out, err := s.core.UpdateSubresource(admission.UserInfo{Username: certificates.SignerUser}, next)
	if err != nil {
		return // the request changed under the controller: it would retry
	}
	ref := out.Ref()
	s.Event(timeline.Event{Actor: timeline.ActorController, Action: timeline.ActionUpdated, Object: &ref, Reason: why})
}
