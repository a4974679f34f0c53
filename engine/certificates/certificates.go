package certificates

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/pki"
	"github.com/genplay/genplay/engine/resource"
)

// Group and Kind of the API this package serves.
const (
	Group = "certificates.k8s.io"
	Kind  = "CertificateSigningRequest"
)

// The built-in signers kube-controller-manager runs.
const (
	SignerAPIServerClient        = "kubernetes.io/kube-apiserver-client"
	SignerAPIServerClientKubelet = "kubernetes.io/kube-apiserver-client-kubelet"
	SignerKubeletServing         = "kubernetes.io/kubelet-serving"
)

// IsRequest reports whether obj is a CertificateSigningRequest.
func IsRequest(obj resource.Object) bool {
	g := obj.GVK()
	return g.Group == Group && g.Kind == Kind
}

// created is when the simulated cluster was made: its CA and the admin's
// certificate date from ten minutes before the clock starts.
var created = cluster.Epoch.Add(-10 * time.Minute)

// CA is the cluster's certificate authority.
var CA = sync.OnceValue(func() *pki.Authority {
	return pki.NewAuthority([]byte("genplay cluster CA"), pki.Name{{Type: "CN", Value: "kubernetes"}}, created, created.AddDate(10, 0, 0))
})

// Admin is the client certificate and key of user, the scenario's admin,
// as the cluster's installer issued them: CN the user name, O each group
// but system:authenticated (which every authenticated user has).
func Admin(user admission.UserInfo) (certPEM, keyPEM []byte) {
	key, err := pki.GenerateKey([]byte("genplay admin "+user.Username), 2048)
	if err != nil {
		panic("certificates: " + err.Error()) // 2048 is in range
	}
	var subject pki.Name
	for _, g := range user.Groups {
		if g != "system:authenticated" {
			subject = append(subject, pki.Attribute{Type: "O", Value: g})
		}
	}
	subject = append(subject, pki.Attribute{Type: "CN", Value: user.Username})
	cert := CA().Issue(pki.Template{Subject: subject, PublicKey: key.Public(), NotBefore: created, NotAfter: created.AddDate(1, 0, 0), ClientAuth: true})
	return cert, key.PEM()
}

// ErrUnauthorized is the API server's answer to a client certificate it
// does not accept.
var ErrUnauthorized = errors.New("Unauthorized")

// Authenticate is the user a client certificate names, when the cluster's
// CA issued it for client auth and it is valid at now; the error says why
// not (wrapping ErrUnauthorized).
func Authenticate(certPEM []byte, now time.Time) (admission.UserInfo, error) {
	cert, err := pki.ParseCertificate(certPEM)
	if err != nil {
		return admission.UserInfo{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if err := CA().Verify(cert, now); err != nil {
		return admission.UserInfo{}, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	if !cert.ClientAuth {
		return admission.UserInfo{}, fmt.Errorf("%w: x509: certificate specifies an incompatible key usage", ErrUnauthorized)
	}
	if cert.Subject.CommonName() == "" {
		return admission.UserInfo{}, fmt.Errorf("%w: the certificate's subject has no common name", ErrUnauthorized)
	}
	groups := append(cert.Subject.Organizations(), "system:authenticated")
	return admission.UserInfo{Username: cert.Subject.CommonName(), Groups: groups}, nil
}

// Create is the API server's strategy for a new request from user: it is
// validated, spec.username and spec.groups are the requester's, and the
// status sent is dropped.
func Create(user admission.UserInfo, obj resource.Object) error {
	spec, _ := obj["spec"].(map[string]any)
	if spec == nil {
		spec = map[string]any{}
		obj["spec"] = spec
	}
	if err := validate(obj.Name(), spec); err != nil {
		return err
	}
	spec["username"] = user.Username
	groups := make([]any, len(user.Groups))
	for i, g := range user.Groups {
		groups[i] = g
	}
	spec["groups"] = groups
	delete(spec, "uid")
	delete(spec, "extra")
	obj["status"] = map[string]any{}
	return nil
}

// Update is the strategy for a plain update: spec and status stay as they
// were (status changes only through the approval and status subresources).
func Update(old, obj resource.Object) {
	for _, k := range []string{"spec", "status"} {
		if v, ok := old[k]; ok {
			obj[k] = resource.DeepCopyValue(v)
		} else {
			delete(obj, k)
		}
	}
}

// Approve is the strategy for a write of the approval subresource at now:
// only status.conditions change, they may not both approve and deny, and
// a condition without lastTransitionTime gets now.
func Approve(old, obj resource.Object, now time.Time) error {
	conds, _ := obj.Nested("status", "conditions")
	list, _ := conds.([]any)
	next := old.DeepCopy()
	var errs []cluster.FieldError
	seen := map[string]bool{}
	for i, raw := range list {
		c, _ := raw.(map[string]any)
		typ, _ := c["type"].(string)
		status, _ := c["status"].(string)
		field := fmt.Sprintf("status.conditions[%d]", i)
		switch {
		case typ == "":
			errs = append(errs, cluster.FieldError{Type: "Required value", Field: field + ".type"})
		case seen[typ]:
			errs = append(errs, cluster.FieldError{Type: "Duplicate value", Field: field + ".type", Value: fmt.Sprintf("%q", typ)})
		case (typ == "Approved" || typ == "Denied") && status != "True":
			errs = append(errs, cluster.FieldError{Type: "Unsupported value", Field: field + ".status", Value: fmt.Sprintf("%q", status),
				Detail: `supported values: "True"`})
		}
		seen[typ] = true
		if c != nil && c["lastTransitionTime"] == nil {
			c["lastTransitionTime"] = now.UTC().Format(time.RFC3339)
		}
	}
	if seen["Approved"] && seen["Denied"] {
		errs = append(errs, cluster.FieldError{Type: "Invalid value", Field: "status.conditions", Value: "[]",
			Detail: "Approved and Denied conditions are mutually exclusive"})
	}
	if oldHas(old, "Approved") && !seen["Approved"] || oldHas(old, "Denied") && !seen["Denied"] {
		errs = append(errs, cluster.FieldError{Type: "Forbidden", Field: "status.conditions",
			Detail: "updates may not remove a condition of type \"Approved\" or \"Denied\""})
	}
	if len(errs) > 0 {
		return cluster.Invalid(Kind+"."+Group, obj.Name(), errs)
	}
	st, _ := next["status"].(map[string]any)
	if st == nil {
		st = map[string]any{}
		next["status"] = st
	}
	st["conditions"] = resource.DeepCopyValue(list)
	clear(obj)
	for k, v := range next {
		obj[k] = v
	}
	return nil
}

func oldHas(obj resource.Object, typ string) bool {
	conds, _ := obj.Nested("status", "conditions")
	list, _ := conds.([]any)
	for _, raw := range list {
		if c, _ := raw.(map[string]any); c["type"] == typ {
			return true
		}
	}
	return false
}

// The key usages the API accepts (certificates/v1 KeyUsage).
var usages = []string{"signing", "digital signature", "content commitment", "key encipherment", "key agreement",
	"data encipherment", "cert sign", "crl sign", "encipher only", "decipher only", "any", "server auth", "client auth",
	"code signing", "email protection", "s/mime", "ipsec end system", "ipsec tunnel", "ipsec user", "timestamping",
	"ocsp signing", "microsoft sgc", "netscape sgc"}

// validate checks a new request's spec as the API server does.
func validate(name string, spec map[string]any) error {
	var errs []cluster.FieldError
	req, _ := spec["request"].(string)
	der, err := base64.StdEncoding.DecodeString(req)
	switch {
	case req == "":
		errs = append(errs, cluster.FieldError{Type: "Required value", Field: "spec.request"})
	case err != nil:
		errs = append(errs, cluster.FieldError{Type: "Invalid value", Field: "spec.request", Value: "[]byte{...}",
			Detail: "illegal base64 data: " + err.Error()})
	default:
		if _, err := pki.ParseRequest(der); err != nil {
			errs = append(errs, cluster.FieldError{Type: "Invalid value", Field: "spec.request", Value: "[]byte{...}", Detail: err.Error()})
		}
	}
	if s, _ := spec["signerName"].(string); s == "" {
		errs = append(errs, cluster.FieldError{Type: "Required value", Field: "spec.signerName"})
	} else if s == "kubernetes.io/legacy-unknown" {
		errs = append(errs, cluster.FieldError{Type: "Invalid value", Field: "spec.signerName", Value: fmt.Sprintf("%q", s),
			Detail: "the legacy signerName is not allowed via this API version"})
	}
	list, _ := spec["usages"].([]any)
	if len(list) == 0 {
		errs = append(errs, cluster.FieldError{Type: "Required value", Field: "spec.usages"})
	}
	for i, u := range list {
		s, _ := u.(string)
		if !slices.Contains(usages, s) {
			errs = append(errs, cluster.FieldError{Type: "Unsupported value", Field: fmt.Sprintf("spec.usages[%d]", i), Value: fmt.Sprintf("%q", s)})
		}
	}
	if e, ok := spec["expirationSeconds"].(float64); ok && e < 600 {
		errs = append(errs, cluster.FieldError{Type: "Invalid value", Field: "spec.expirationSeconds", Value: fmt.Sprint(e),
			Detail: "may not specify a duration less than 600 seconds (10 minutes)"})
	}
	if len(errs) > 0 {
		return cluster.Invalid(Kind+"."+Group, name, errs)
	}
	return nil
}
