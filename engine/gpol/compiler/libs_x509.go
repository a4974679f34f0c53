//go:build !js

package compiler

import (
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/asn1"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"net"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// x509Lib is Kyverno's x509.decode (S:extensions/cel/libs/x509): a PEM
// CERTIFICATE or CERTIFICATE REQUEST with an RSA key, decoded into the map
// its JSON encoding gives. A certificate has exactly the fields of
// certificateFields (no Subject, Version, SignatureAlgorithm, URIs, ...:
// reading one is a "no such key" error, as in Kyverno); a request has those of
// x509.CertificateRequest. The public key is {N (decimal text), E}. Every
// number is a double (decoded).
func x509Lib() []cel.EnvOption {
	return []cel.EnvOption{cel.Function("x509.decode",
		cel.Overload("x509_decode_string", []*cel.Type{cel.StringType}, cel.DynType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				m, err := decodeX509(str(v))
				if err != nil {
					return errorf("%v", err)
				}
				return decoded(m)
			})))}
}

// publicKey is how Kyverno renders an RSA public key.
type publicKey struct {
	N string
	E int
}

// certificateFields are the fields of a certificate Kyverno's x509.decode
// returns, with its encodings: raw DER as base64 text, times as RFC 3339.
type certificateFields struct {
	Raw                         string
	RawTBSCertificate           string
	RawSubjectPublicKeyInfo     string
	RawSubject                  string
	RawIssuer                   string
	Signature                   string
	PublicKeyAlgorithm          x509.PublicKeyAlgorithm
	PublicKey                   publicKey
	SerialNumber                int64
	Issuer                      pkix.Name
	NotBefore                   string
	NotAfter                    string
	KeyUsage                    x509.KeyUsage
	Extensions                  []pkix.Extension
	ExtraExtensions             []pkix.Extension
	ExtKeyUsage                 []x509.ExtKeyUsage
	BasicConstraintsValid       bool
	IsCA                        bool
	MaxPathLen                  int
	MaxPathLenZero              bool
	AuthorityKeyId              []byte
	OCSPServer                  []string
	IssuingCertificateURL       []string
	DNSNames                    []string
	EmailAddresses              []string
	IPAddresses                 []net.IP
	PermittedDNSDomainsCritical bool
	PermittedDNSDomains         []string
	ExcludedDNSDomains          []string
	PermittedIPRanges           []*net.IPNet
	ExcludedIPRanges            []*net.IPNet
	PermittedEmailAddresses     []string
	ExcludedEmailAddresses      []string
	PermittedURIDomains         []string
	ExcludedURIDomains          []string
	CRLDistributionPoints       []string
	PolicyIdentifiers           []asn1.ObjectIdentifier
}

// decodeX509 decodes a PEM block into x509.decode's map, with Kyverno's
// errors.
func decodeX509(text string) (any, error) {
	block, _ := pem.Decode([]byte(text))
	if block == nil {
		return nil, errors.New("failed to decode PEM block")
	}
	var out any
	switch block.Type {
	case "CERTIFICATE":
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return nil, err
		}
		key, ok := cert.PublicKey.(*rsa.PublicKey)
		if cert.PublicKeyAlgorithm != x509.RSA || !ok {
			return nil, errors.New("certificate should use rsa algorithm")
		}
		out = certificateFields{
			Raw: b64(cert.Raw), RawTBSCertificate: b64(cert.RawTBSCertificate),
			RawSubjectPublicKeyInfo: b64(cert.RawSubjectPublicKeyInfo), RawSubject: b64(cert.RawSubject),
			RawIssuer: b64(cert.RawIssuer), Signature: b64(cert.Signature),
			PublicKeyAlgorithm: cert.PublicKeyAlgorithm, PublicKey: publicKey{N: key.N.String(), E: key.E},
			SerialNumber: cert.SerialNumber.Int64(), Issuer: cert.Issuer,
			NotBefore: cert.NotBefore.Format(time.RFC3339), NotAfter: cert.NotAfter.Format(time.RFC3339),
			KeyUsage: cert.KeyUsage, Extensions: cert.Extensions, ExtraExtensions: cert.ExtraExtensions,
			ExtKeyUsage: cert.ExtKeyUsage, BasicConstraintsValid: cert.BasicConstraintsValid, IsCA: cert.IsCA,
			MaxPathLen: cert.MaxPathLen, MaxPathLenZero: cert.MaxPathLenZero, AuthorityKeyId: cert.AuthorityKeyId,
			OCSPServer: cert.OCSPServer, IssuingCertificateURL: cert.IssuingCertificateURL, DNSNames: cert.DNSNames,
			EmailAddresses: cert.EmailAddresses, IPAddresses: cert.IPAddresses,
			PermittedDNSDomainsCritical: cert.PermittedDNSDomainsCritical, PermittedDNSDomains: cert.PermittedDNSDomains,
			ExcludedDNSDomains: cert.ExcludedDNSDomains, PermittedIPRanges: cert.PermittedIPRanges,
			ExcludedIPRanges: cert.ExcludedIPRanges, PermittedEmailAddresses: cert.PermittedEmailAddresses,
			ExcludedEmailAddresses: cert.ExcludedEmailAddresses, PermittedURIDomains: cert.PermittedURIDomains,
			ExcludedURIDomains: cert.ExcludedURIDomains, CRLDistributionPoints: cert.CRLDistributionPoints,
			PolicyIdentifiers: cert.PolicyIdentifiers,
		}
	case "CERTIFICATE REQUEST":
		csr, err := x509.ParseCertificateRequest(block.Bytes)
		if err != nil {
			return nil, err
		}
		key, ok := csr.PublicKey.(*rsa.PublicKey)
		if csr.PublicKeyAlgorithm != x509.RSA || !ok {
			return nil, errors.New("certificate should use rsa algorithm")
		}
		csr.PublicKey = publicKey{N: key.N.String(), E: key.E}
		out = csr
	default:
		return nil, errors.New("PEM block neither contains a CERTIFICATE or CERTIFICATE REQUEST")
	}
	b, err := json.Marshal(out)
	if err != nil {
		return nil, err
	}
	var m any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	return m, nil
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
