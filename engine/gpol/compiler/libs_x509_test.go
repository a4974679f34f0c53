//go:build !js

package compiler

import (
	"crypto"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCertPEM is a self-signed CA certificate for key.
func testCertPEM(t *testing.T, key crypto.Signer) string {
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(42),
		Subject:               pkix.Name{CommonName: "test-ca"},
		DNSNames:              []string{"ca.example.com"},
		IPAddresses:           []net.IP{net.ParseIP("10.0.0.1")},
		NotBefore:             time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		NotAfter:              time.Date(2036, 1, 1, 0, 0, 0, 0, time.UTC),
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	require.NoError(t, err)
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

func rsaKey(t *testing.T) *rsa.PrivateKey {
	key, err := rsa.GenerateKey(rand.Reader, 1024)
	require.NoError(t, err)
	return key
}

func TestX509DecodeGivesKyvernosFields(t *testing.T) {
	key := rsaKey(t)
	in := Input{Object: map[string]any{"pem": testCertPEM(t, key)}}
	got, err := evalIn(t, "", `[string(x509.decode(object.pem).IsCA), x509.decode(object.pem).NotBefore, x509.decode(object.pem).DNSNames[0],
		x509.decode(object.pem).Issuer.CommonName, x509.decode(object.pem).IPAddresses[0], x509.decode(object.pem).SerialNumber + 0.5,
		x509.decode(object.pem).PublicKey.E, x509.decode(object.pem).PublicKey.N]`, in, newHost())
	require.NoError(t, err)
	assert.Equal(t, []any{"true", "2026-01-01T00:00:00Z", "ca.example.com", "test-ca", "10.0.0.1", 42.5, float64(65537), key.N.String()}, got,
		"numbers are doubles; the public key is {N, E}")
	for _, field := range []string{"Subject", "Version", "SignatureAlgorithm", "URIs"} {
		_, err := evalIn(t, "", `x509.decode(object.pem).`+field, in, newHost())
		require.Error(t, err, "Kyverno's certificate map has no %s", field)
		assert.Contains(t, err.Error(), "no such key: "+field)
	}

	csrDER, err := x509.CreateCertificateRequest(rand.Reader, &x509.CertificateRequest{Subject: pkix.Name{CommonName: "req"}}, key)
	require.NoError(t, err)
	in = Input{Object: map[string]any{"pem": string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE REQUEST", Bytes: csrDER}))}}
	got, err = evalIn(t, "", `[x509.decode(object.pem).Subject.CommonName, x509.decode(object.pem).PublicKey.E]`, in, newHost())
	require.NoError(t, err)
	assert.Equal(t, []any{"req", float64(65537)}, got, "a request is x509.CertificateRequest's fields, Subject included")
}

func TestX509DecodeRefusesWhatKyvernoRefuses(t *testing.T) {
	ed := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	for name, tc := range map[string]struct{ pem, want string }{
		"a key other than RSA": {testCertPEM(t, ed), "certificate should use rsa algorithm"},
		"not PEM":              {"x", "failed to decode PEM block"},
		"another PEM block":    {string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: []byte{1}})), "neither contains a CERTIFICATE or CERTIFICATE REQUEST"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := evalIn(t, "", `x509.decode(object.pem)`, Input{Object: map[string]any{"pem": tc.pem}}, newHost())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}
