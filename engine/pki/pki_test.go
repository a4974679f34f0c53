package pki_test

import (
	"bytes"
	"crypto/x509"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/pki"
)

var epoch = time.Date(2024, time.January, 1, 0, 0, 0, 0, time.UTC)

func mustKey(t *testing.T, seed string) *pki.Key {
	t.Helper()
	k, err := pki.GenerateKey([]byte(seed), 2048)
	require.NoError(t, err)
	return k
}

func TestKeys(t *testing.T) {
	t.Run("the same seed gives the same key, another seed another", func(t *testing.T) {
		a, b, c := mustKey(t, "one"), mustKey(t, "one"), mustKey(t, "two")
		assert.Equal(t, a.PEM(), b.PEM())
		assert.NotEqual(t, a.PEM(), c.PEM())
	})
	t.Run("a key has the size asked for and reads back", func(t *testing.T) {
		for _, bits := range []int{512, 1024, 2048, 3072, 4096} {
			k, err := pki.GenerateKey([]byte("s"), bits)
			require.NoError(t, err)
			assert.Equal(t, bits, k.Public().Bits())
			back, err := pki.ParseKey(k.PEM())
			require.NoError(t, err)
			assert.True(t, back.Public().Equal(k.Public()))
			assert.Equal(t, k.PEM(), (&pki.Key{N: back.N, E: back.E, D: back.D, P: back.P, Q: back.Q, Dp: back.Dp, Dq: back.Dq, QInverse: back.QInverse}).PEM())
		}
	})
	t.Run("sizes out of range are refused", func(t *testing.T) {
		for _, bits := range []int{0, 511, 16385} {
			_, err := pki.GenerateKey([]byte("s"), bits)
			assert.Error(t, err, bits)
		}
	})
	t.Run("a key is written as OpenSSL 3 writes it: PKCS#8", func(t *testing.T) {
		block, _ := pem.Decode(mustKey(t, "x").PEM())
		require.NotNil(t, block)
		assert.Equal(t, "PRIVATE KEY", block.Type)
	})
	t.Run("what is not a key is an error", func(t *testing.T) {
		for _, in := range []string{"", "hello", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n",
			"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"} {
			_, err := pki.ParseKey([]byte(in))
			assert.Error(t, err, in)
		}
	})
}

func TestSubjects(t *testing.T) {
	n, unknown, empty, err := pki.ParseSubject(`/O=testorg/CN=addrbuser`)
	require.NoError(t, err)
	assert.Equal(t, pki.Name{{Type: "O", Value: "testorg"}, {Type: "CN", Value: "addrbuser"}}, n)
	assert.Empty(t, unknown)
	assert.Empty(t, empty)
	assert.Equal(t, "addrbuser", n.CommonName())
	assert.Equal(t, []string{"testorg"}, n.Organizations())
	assert.Equal(t, "O = testorg, CN = addrbuser", n.String())

	n, unknown, empty, err = pki.ParseSubject(`/C=DE/O=a\/b/O=second/commonName=x/XX=y/OU=`)
	require.NoError(t, err)
	assert.Equal(t, pki.Name{{Type: "C", Value: "DE"}, {Type: "O", Value: "a/b"}, {Type: "O", Value: "second"}, {Type: "CN", Value: "x"}}, n)
	assert.Equal(t, []string{"XX"}, unknown)
	assert.Equal(t, []string{"OU"}, empty)
	assert.Equal(t, []string{"a/b", "second"}, n.Organizations())

	for _, bad := range []string{"CN=x", "/CN", "/CN=a+O=b"} {
		_, _, _, err := pki.ParseSubject(bad)
		assert.Error(t, err, bad)
	}
}

func TestRequests(t *testing.T) {
	key := mustKey(t, "alice")
	subject := pki.Name{{Type: "O", Value: "dev"}, {Type: "O", Value: "ops"}, {Type: "CN", Value: "alice"}}
	csr := pki.NewRequest(key, subject)
	t.Run("a request reads back with its subject and key", func(t *testing.T) {
		req, err := pki.ParseRequest(csr)
		require.NoError(t, err)
		assert.Equal(t, subject, req.Subject)
		assert.True(t, req.PublicKey.Equal(key.Public()))
		assert.Equal(t, csr, pki.NewRequest(key, subject), "deterministic")
	})
	t.Run("Go's crypto/x509 reads it as a PKCS#10 request", func(t *testing.T) {
		block, _ := pem.Decode(csr)
		require.NotNil(t, block)
		assert.Equal(t, "CERTIFICATE REQUEST", block.Type)
		cr, err := x509.ParseCertificateRequest(block.Bytes)
		require.NoError(t, err)
		assert.Equal(t, "alice", cr.Subject.CommonName)
		assert.Equal(t, []string{"dev", "ops"}, cr.Subject.Organization)
		assert.Equal(t, x509.SHA256WithRSA, cr.SignatureAlgorithm)
	})
	t.Run("an edited request fails its signature check", func(t *testing.T) {
		block, _ := pem.Decode(csr)
		der := bytes.Replace(block.Bytes, []byte("alice"), []byte("admin"), 1)
		_, err := pki.ParseRequest(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
		assert.ErrorContains(t, err, "signature")
	})
	t.Run("another PEM block is refused", func(t *testing.T) {
		_, err := pki.ParseRequest(key.PEM())
		assert.ErrorContains(t, err, "PEM block type must be CERTIFICATE REQUEST")
	})
}

func TestAuthority(t *testing.T) {
	ca := pki.NewAuthority([]byte("cluster"), pki.Name{{Type: "CN", Value: "kubernetes"}}, epoch, epoch.AddDate(10, 0, 0))
	key := mustKey(t, "bob")
	tmpl := pki.Template{Subject: pki.Name{{Type: "O", Value: "team"}, {Type: "CN", Value: "bob"}}, PublicKey: key.Public(),
		NotBefore: epoch, NotAfter: epoch.AddDate(1, 0, 0), ClientAuth: true}
	certPEM := ca.Issue(tmpl)

	t.Run("an issued certificate reads back and verifies", func(t *testing.T) {
		c, err := pki.ParseCertificate(certPEM)
		require.NoError(t, err)
		assert.Equal(t, tmpl.Subject, c.Subject)
		assert.Equal(t, pki.Name{{Type: "CN", Value: "kubernetes"}}, c.Issuer)
		assert.True(t, c.ClientAuth)
		assert.False(t, c.IsCA)
		assert.True(t, c.PublicKey.Equal(key.Public()))
		assert.NoError(t, ca.Verify(c, epoch.Add(time.Hour)))
		assert.Equal(t, certPEM, ca.Issue(tmpl), "deterministic")
	})
	t.Run("Go's crypto/x509 reads the certificates and the chain", func(t *testing.T) {
		root, _ := pem.Decode(ca.CertificatePEM())
		rc, err := x509.ParseCertificate(root.Bytes)
		require.NoError(t, err)
		assert.True(t, rc.IsCA)
		assert.Equal(t, "kubernetes", rc.Subject.CommonName)
		leaf, _ := pem.Decode(certPEM)
		lc, err := x509.ParseCertificate(leaf.Bytes)
		require.NoError(t, err)
		assert.Equal(t, "bob", lc.Subject.CommonName)
		assert.Equal(t, []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}, lc.ExtKeyUsage)
		assert.Equal(t, rc.SubjectKeyId, lc.AuthorityKeyId)
		assert.Equal(t, x509.KeyUsageDigitalSignature|x509.KeyUsageKeyEncipherment, lc.KeyUsage)
		assert.Equal(t, 3, lc.Version)
	})
	t.Run("another authority did not issue it", func(t *testing.T) {
		other := pki.NewAuthority([]byte("elsewhere"), pki.Name{{Type: "CN", Value: "kubernetes"}}, epoch, epoch.AddDate(10, 0, 0))
		c, err := pki.ParseCertificate(certPEM)
		require.NoError(t, err)
		assert.ErrorIs(t, other.Verify(c, epoch), pki.ErrNotIssued)
	})
	t.Run("an edited certificate is not the one issued", func(t *testing.T) {
		block, _ := pem.Decode(certPEM)
		der := bytes.Replace(block.Bytes, []byte("bob"), []byte("eve"), 1)
		c, err := pki.ParseCertificate(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
		require.NoError(t, err)
		assert.ErrorIs(t, ca.Verify(c, epoch), pki.ErrNotIssued)
	})
	t.Run("a certificate is valid only in its window", func(t *testing.T) {
		c, err := pki.ParseCertificate(certPEM)
		require.NoError(t, err)
		assert.ErrorContains(t, ca.Verify(c, epoch.AddDate(2, 0, 0)), "expired or is not yet valid")
		assert.ErrorContains(t, ca.Verify(c, epoch.Add(-time.Second)), "expired or is not yet valid")
	})
	t.Run("what is not a certificate is an error", func(t *testing.T) {
		for _, in := range [][]byte{nil, []byte("x"), key.PEM(), []byte(strings.Replace(string(certPEM), "CERTIFICATE", "CERTIFICATE REQUEST", 2))} {
			_, err := pki.ParseCertificate(in)
			assert.Error(t, err)
		}
	})
}
