//go:build !js

package variables

import (
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"math/big"
)

// jpX509Decode is Kyverno's x509_decode: the PEM block's certificate (or
// certificate request), which must use RSA, as Go's crypto/x509 struct
// encoded to JSON, with the public key as {N, E} (N in decimal).
func jpX509Decode(s string) (any, error) {
	block, _ := pem.Decode([]byte(s))
	if block == nil {
		return nil, errors.New("failed to decode PEM block")
	}
	switch block.Type {
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, err
		}
		if cert.PublicKeyAlgorithm != x509.RSA {
			return nil, errors.New("certificate should use rsa algorithm")
		}
		pk, ok := cert.PublicKey.(*rsa.PublicKey)
		if !ok {
			return nil, errors.New("failed to parse subject public key info")
		}
		cert.PublicKey = publicKey(pk.N, pk.E)
		return jsonValue(cert)
	case "CERTIFICATE REQUEST":
		csr, err := x509.ParseCertificateRequest(block.Bytes)
		if err != nil {
			return nil, err
		}
		if csr.PublicKeyAlgorithm != x509.RSA {
			return nil, errors.New("certificate should use rsa algorithm")
		}
		pk, ok := csr.PublicKey.(*rsa.PublicKey)
		if !ok {
			return nil, errors.New("failed to parse subject public key info")
		}
		csr.PublicKey = publicKey(pk.N, pk.E)
		return jsonValue(csr)
	}
	return nil, errors.New("PEM block neither contains a CERTIFICATE or CERTIFICATE REQUEST")
}

// publicKey is Kyverno's jmespath.PublicKey.
func publicKey(n *big.Int, e int) any {
	return struct {
		N string
		E int
	}{n.String(), e}
}

// jsonValue is v encoded to JSON and read back as a JSON value.
func jsonValue(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		return nil, err
	}
	return out, nil
}
