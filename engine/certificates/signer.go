package certificates

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/pki"
	"github.com/genplay/genplay/engine/resource"
)

// SignerUser is who the signing controller writes as.
const SignerUser = "system:serviceaccount:kube-system:certificate-controller"

// Signing durations: kube-controller-manager's --cluster-signing-duration
// default, and how far it backdates a certificate.
const (
	signingDuration = 365 * 24 * time.Hour
	backdate        = 5 * time.Minute
)

// Sign is what kube-controller-manager's signing controller does with a
// request at now: next is the request with its certificate issued (or a
// Failed condition), and why says what happened, for the timeline. next
// is nil when the controller leaves the request alone: not approved,
// denied, failed or issued already, or for a signer it does not run.
func Sign(obj resource.Object, now time.Time) (next resource.Object, why string) {
	if !IsRequest(obj) || hasCondition(obj, "Denied") || hasCondition(obj, "Failed") || !hasCondition(obj, "Approved") {
		return nil, ""
	}
	if c, _ := obj.Nested("status", "certificate"); c != nil && c != "" {
		return nil, ""
	}
	signer := obj.NestedString("spec", "signerName")
	if signer != SignerAPIServerClient && signer != SignerAPIServerClientKubelet && signer != SignerKubeletServing {
		return nil, ""
	}
	der, err := base64.StdEncoding.DecodeString(obj.NestedString("spec", "request"))
	if err != nil {
		return nil, "" // the API server validated it
	}
	req, err := pki.ParseRequest(der)
	if err != nil {
		return nil, ""
	}
	var list []string
	if raw, ok := obj.Nested("spec", "usages"); ok {
		for _, u := range raw.([]any) {
			s, _ := u.(string)
			list = append(list, s)
		}
	}
	next = obj.DeepCopy()
	if err := checkRequest(signer, req, list); err != nil {
		addCondition(next, now, "Failed", "SignerValidationFailure", err.Error())
		return next, fmt.Sprintf("the signer %s refused the approved request: %v", signer, err)
	}
	d := signingDuration
	if e, ok := obj.Nested("spec", "expirationSeconds"); ok {
		if s, ok := e.(float64); ok && time.Duration(s)*time.Second < d {
			d = time.Duration(s) * time.Second
		}
	}
	notAfter := now.Add(d)
	if caEnd := CA().Certificate().NotAfter; notAfter.After(caEnd) {
		notAfter = caEnd
	}
	cert := CA().Issue(pki.Template{Subject: req.Subject, PublicKey: req.PublicKey, NotBefore: now.Add(-backdate), NotAfter: notAfter,
		ClientAuth: slices.Contains(list, "client auth"), ServerAuth: slices.Contains(list, "server auth")})
	next.SetNested(base64.StdEncoding.EncodeToString(cert), "status", "certificate")
	return next, fmt.Sprintf("the signer %s issued the certificate of the approved request (subject %s), valid until %s",
		signer, req.Subject, notAfter.UTC().Format(time.RFC3339))
}

// checkRequest applies the built-in signers' rules (usages; for the
// kubelet signers, the node's subject).
func checkRequest(signer string, req *pki.Request, usages []string) error {
	allowed := map[string][]string{
		SignerAPIServerClient:        {"digital signature", "key encipherment", "client auth"},
		SignerAPIServerClientKubelet: {"digital signature", "key encipherment", "client auth"},
		SignerKubeletServing:         {"digital signature", "key encipherment", "server auth"},
	}[signer]
	required := "client auth"
	if signer == SignerKubeletServing {
		required = "server auth"
	}
	for _, u := range usages {
		if !slices.Contains(allowed, u) {
			return fmt.Errorf("invalid usage for the signer: %s", u)
		}
	}
	if !slices.Contains(usages, required) {
		return fmt.Errorf("missing required usage for the signer: %s", required)
	}
	if signer != SignerAPIServerClient {
		if o := req.Subject.Organizations(); len(o) != 1 || o[0] != "system:nodes" {
			return fmt.Errorf("subject organization is not system:nodes")
		}
		if !strings.HasPrefix(req.Subject.CommonName(), "system:node:") {
			//lint:ignore ST1005 Kubernetes' own wording (certificates/v1 ValidateKubeletServingCSR), colon included
			return fmt.Errorf("subject common name does not begin with system:node:")
		}
	}
	return nil
}

func hasCondition(obj resource.Object, typ string) bool {
	conds, _ := obj.Nested("status", "conditions")
	list, _ := conds.([]any)
	for _, raw := range list {
		if c, _ := raw.(map[string]any); c["type"] == typ && c["status"] != "False" {
			return true
		}
	}
	return false
}

// Condition is a request's condition as kubectl certificate approve or
// deny writes it (the API server stamps lastTransitionTime).
func Condition(now time.Time, typ, reason, message string) map[string]any {
	stamp := now.UTC().Format(time.RFC3339)
	return map[string]any{"type": typ, "status": "True", "reason": reason, "message": message,
		"lastUpdateTime": stamp, "lastTransitionTime": stamp}
}

func addCondition(obj resource.Object, now time.Time, typ, reason, message string) {
	conds, _ := obj.Nested("status", "conditions")
	list, _ := conds.([]any)
	obj.SetNested(append(list, Condition(now, typ, reason, message)), "status", "conditions")
}
