package certificates_test

import (
	"encoding/base64"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/certificates"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/pki"
	"github.com/genplay/genplay/engine/resource"
)

var now = cluster.Epoch.Add(time.Hour)

var admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"kubeadm:cluster-admins", "system:authenticated"}}

// request is a CertificateSigningRequest for subject, to signer, with
// usages.
func request(t *testing.T, subject pki.Name, signer string, usages ...any) resource.Object {
	t.Helper()
	key, err := pki.GenerateKey([]byte(subject.String()), 2048)
	require.NoError(t, err)
	return resource.Object{
		"apiVersion": "certificates.k8s.io/v1", "kind": "CertificateSigningRequest",
		"metadata": map[string]any{"name": subject.CommonName()},
		"spec": map[string]any{"request": base64.StdEncoding.EncodeToString(pki.NewRequest(key, subject)),
			"signerName": signer, "usages": usages},
	}
}

func approved(t *testing.T, obj resource.Object) resource.Object {
	t.Helper()
	next := obj.DeepCopy()
	next.SetNested([]any{certificates.Condition(now, "Approved", "KubectlApprove", "approved")}, "status", "conditions")
	require.NoError(t, certificates.Approve(obj, next, now))
	return next
}

func TestTheAdminsCertificateAuthenticatesAsTheAdmin(t *testing.T) {
	cert, key := certificates.Admin(admin)
	user, err := certificates.Authenticate(cert, now)
	require.NoError(t, err)
	assert.Equal(t, admin, user)
	k, err := pki.ParseKey(key)
	require.NoError(t, err)
	c, err := pki.ParseCertificate(cert)
	require.NoError(t, err)
	assert.True(t, k.Public().Equal(c.PublicKey), "the key is the certificate's")
}

func TestCreateFillsTheRequestersIdentityAndValidates(t *testing.T) {
	obj := request(t, pki.Name{{Type: "O", Value: "dev"}, {Type: "CN", Value: "alice"}}, certificates.SignerAPIServerClient, "client auth")
	obj["status"] = map[string]any{"certificate": "Zm9yZ2Vk"}
	require.NoError(t, certificates.Create(admin, obj))
	assert.Equal(t, "kubernetes-admin", obj.NestedString("spec", "username"))
	assert.Equal(t, map[string]any{}, obj["status"], "a create cannot send a certificate")

	bad := request(t, pki.Name{{Type: "CN", Value: "x"}}, "", "fly")
	bad.SetNested("bm90IGEgcmVxdWVzdA==", "spec", "request")
	err := certificates.Create(admin, bad)
	var se *cluster.StatusError
	require.True(t, errors.As(err, &se), err)
	for _, want := range []string{"spec.request", "spec.signerName: Required value", `spec.usages[0]: Unsupported value: "fly"`} {
		assert.ErrorContains(t, err, want)
	}
}

func TestTheSignerIssuesApprovedRequestsOnly(t *testing.T) {
	obj := request(t, pki.Name{{Type: "O", Value: "dev"}, {Type: "O", Value: "qa"}, {Type: "CN", Value: "alice"}}, certificates.SignerAPIServerClient, "client auth", "digital signature")
	require.NoError(t, certificates.Create(admin, obj))
	next, _ := certificates.Sign(obj, now)
	assert.Nil(t, next, "not approved: nothing to do")

	next, why := certificates.Sign(approved(t, obj), now)
	require.NotNil(t, next)
	assert.Contains(t, why, "issued")
	der, err := base64.StdEncoding.DecodeString(next.NestedString("status", "certificate"))
	require.NoError(t, err)
	user, err := certificates.Authenticate(der, now)
	require.NoError(t, err)
	assert.Equal(t, admission.UserInfo{Username: "alice", Groups: []string{"dev", "qa", "system:authenticated"}}, user)

	again, _ := certificates.Sign(next, now)
	assert.Nil(t, again, "issued once")

	_, err = certificates.Authenticate(der, now.AddDate(2, 0, 0))
	assert.ErrorIs(t, err, certificates.ErrUnauthorized, "a year later it has expired")
}

func TestTheSignerRefusesWhatItsRulesForbid(t *testing.T) {
	for name, obj := range map[string]resource.Object{
		"server auth to the client signer":   request(t, pki.Name{{Type: "CN", Value: "web"}}, certificates.SignerAPIServerClient, "server auth"),
		"a kubelet signer for a non-node":    request(t, pki.Name{{Type: "CN", Value: "bob"}}, certificates.SignerAPIServerClientKubelet, "client auth"),
		"client auth without its usage list": request(t, pki.Name{{Type: "CN", Value: "bob"}}, certificates.SignerAPIServerClient, "digital signature"),
	} {
		require.NoError(t, certificates.Create(admin, obj), name)
		next, why := certificates.Sign(approved(t, obj), now)
		require.NotNil(t, next, name)
		assert.Contains(t, why, "refused", name)
		assert.Empty(t, next.NestedString("status", "certificate"), name)
		conds, _ := next.Nested("status", "conditions")
		assert.Len(t, conds, 2, name)
	}
	other := request(t, pki.Name{{Type: "CN", Value: "bob"}}, "example.com/my-signer", "client auth")
	require.NoError(t, certificates.Create(admin, other))
	next, _ := certificates.Sign(approved(t, other), now)
	assert.Nil(t, next, "a signer the cluster does not run leaves it waiting")
}

func TestApprovalRules(t *testing.T) {
	obj := request(t, pki.Name{{Type: "CN", Value: "bob"}}, certificates.SignerAPIServerClient, "client auth")
	require.NoError(t, certificates.Create(admin, obj))
	both := obj.DeepCopy()
	both.SetNested([]any{certificates.Condition(now, "Approved", "a", "a"), certificates.Condition(now, "Denied", "d", "d")}, "status", "conditions")
	assert.ErrorContains(t, certificates.Approve(obj, both, now), "mutually exclusive")

	ok := approved(t, obj)
	removed := ok.DeepCopy()
	removed.SetNested([]any{}, "status", "conditions")
	assert.ErrorContains(t, certificates.Approve(ok, removed, now), "may not remove")

	edited := ok.DeepCopy()
	edited.SetNested("mallory", "spec", "username")
	certificates.Update(ok, edited)
	assert.Equal(t, "kubernetes-admin", edited.NestedString("spec", "username"), "a plain update keeps spec")
}

func TestACertificateFromAnotherIssuerIsUnauthorized(t *testing.T) {
	key, err := pki.GenerateKey([]byte("eve"), 2048)
	require.NoError(t, err)
	self := pki.SelfSigned(key, pki.Template{Subject: pki.Name{{Type: "O", Value: "system:masters"}, {Type: "CN", Value: "kubernetes"}},
		NotBefore: cluster.Epoch, NotAfter: cluster.Epoch.AddDate(1, 0, 0), ClientAuth: true})
	_, err = certificates.Authenticate(self, now)
	assert.ErrorIs(t, err, certificates.ErrUnauthorized)
}
