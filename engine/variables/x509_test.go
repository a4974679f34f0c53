//go:build !js

package variables

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testPEM returns a self-signed certificate (or certificate request) for
// key, PEM-encoded.
func testPEM(t *testing.T, key any, pub any, csr bool) string {
	t.Helper()
	if csr {
		der, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{
			Subject: pkix.Name{CommonName: "req.example.com"}, DNSNames: []string{"req.example.com"}}, key)
		require.NoError(t, err)
		return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: der}))
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(4242),
		Subject:      pkix.Name{CommonName: "web.example.com", Organization: []string{"Acme"}},
		NotBefore:    time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC),
		NotAfter:     time.Date(2034, 1, 2, 3, 4, 5, 0, time.UTC),
		DNSNames:     []string{"web.example.com", "www.example.com"},
		IsCA:         true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, pub, key)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func TestX509DecodeAsKyverno(t *testing.T) {
	e := New(Options{})
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)
	ctx := map[string]any{"cert": testPEM(t, key, &key.PublicKey, false), "csr": testPEM(t, key, &key.PublicKey, true)}

	got, err := e.Search("x509_decode(cert)", ctx)
	require.NoError(t, err)
	cert, ok := got.(map[string]any)
	require.True(t, ok, "an object: %T", got)
	assert.Equal(t, map[string]any{"N": key.N.String(), "E": float64(65537)}, cert["PublicKey"], "the key as Kyverno's {N, E}")
	assert.Equal(t, float64(4242), cert["SerialNumber"])
	assert.Equal(t, "2024-01-02T03:04:05Z", cert["NotBefore"])
	assert.Equal(t, []any{"web.example.com", "www.example.com"}, cert["DNSNames"])
	assert.Equal(t, true, cert["IsCA"])
	assert.Equal(t, float64(3), cert["Version"])
	assert.Equal(t, "web.example.com", cert["Subject"].(map[string]any)["CommonName"])
	assert.Equal(t, []any{"Acme"}, cert["Subject"].(map[string]any)["Organization"])
	assert.IsType(t, "", cert["Raw"], "byte slices are base64 strings")

	got, err = e.Search("x509_decode(csr).Subject.CommonName", ctx)
	require.NoError(t, err)
	assert.Equal(t, "req.example.com", got)

	ec, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ctx["ec"] = testPEM(t, ec, &ec.PublicKey, false)
	for expr, want := range map[string]string{
		"x509_decode(ec)":          "certificate should use rsa algorithm",
		"x509_decode('not a pem')": "failed to decode PEM block",
		"x509_decode(key)":         "PEM block neither contains a CERTIFICATE or CERTIFICATE REQUEST",
	} {
		ctx["key"] = "-----BEGIN RSA PRIVATE KEY-----\nAAAA\n-----END RSA PRIVATE KEY-----\n"
		_, err := e.Search(expr, ctx)
		if assert.Error(t, err, expr) {
			assert.Contains(t, err.Error(), want, expr)
		}
	}
}
