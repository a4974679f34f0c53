//go:build js && wasm

package engine

import (
	"errors"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
)

// The browser's builds have no certificates API (certificates.go):
// a CertificateSigningRequest is stored as written, and nothing signs it.

func (s *Session) certificateStrategy(admission.UserInfo, resource.Object, resource.Object) error {
	return nil
}

// UpdateApproval is not in this build: the shell's kubectl certificate,
// its only caller, is not either.
func (s *Session) UpdateApproval(admission.UserInfo, resource.Object) (resource.Object, error) {
	return nil, errors.New("genplay in the browser has no certificates API")
}

func (s *Session) runSigner(resource.Object) {}
