//go:build !(js && wasm)

package shell

import (
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/certificates"
	"github.com/genplay/genplay/engine/resource"
)

// kubectl certificate approve|deny NAME...: a write of each
// CertificateSigningRequest's approval subresource with kubectl's
// condition; the cluster's signer then issues an approved request's
// certificate in the same step (package certificates).

func checkCertificate(c *Command) error {
	if len(c.Targets) == 0 || c.Targets[0] != "approve" && c.Targets[0] != "deny" {
		return unsupported("runs kubectl certificate without approve or deny")
	}
	if len(c.Files) > 0 {
		return unsupported("names the requests of kubectl certificate with -f, which genplay does not read (name them)")
	}
	return nil
}

func (r *runner) kubectlCertificate(c *Command, user *admission.UserInfo, o *kubectlOutput) error {
	approve := c.Targets[0] == "approve"
	names := c.Targets[1:]
	if len(names) == 0 {
		o.errorf("error: one or more CSRs must be specified as <name> or -f <filename>")
		return nil
	}
	typ, other, reason, message, done := "Approved", "Denied", "KubectlApprove", "This CSR was approved by kubectl certificate approve.", "approved"
	if !approve {
		typ, other, reason, message, done = "Denied", "Approved", "KubectlDeny", "This CSR was denied by kubectl certificate deny.", "denied"
	}
	who := r.opts.Admin
	if user != nil {
		who = *user
	}
	for _, name := range names {
		ref := resource.Ref{APIVersion: "certificates.k8s.io/v1", Kind: certificates.Kind, Name: name}
		csr, err := r.s.Store().Get(ref)
		if err != nil {
			o.serverError(err, "")
			continue
		}
		has := false
		conds, _ := csr.Nested("status", "conditions")
		list, _ := conds.([]any)
		for _, raw := range list {
			cond, _ := raw.(map[string]any)
			switch cond["type"] {
			case other:
				o.errorf("error: certificate signing request %q is already %s", name, map[bool]string{true: "denied", false: "approved"}[approve])
				return nil
			case typ:
				has = true
			}
		}
		if !has { // --force changes nothing more: the condition is there
			next := csr.DeepCopy()
			next.SetNested(append(list, certificates.Condition(r.s.Now(), typ, reason, message)), "status", "conditions")
			if user != nil {
				r.impersonationNote(ref, *user)
			}
			if _, err := r.s.UpdateApproval(who, next); err != nil {
				o.serverError(err, "")
				continue
			}
		}
		fmt.Fprintf(&o.stdout, "certificatesigningrequest.certificates.k8s.io/%s %s\n", name, done)
	}
	return nil
}
