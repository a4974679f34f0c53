package pki

import (
	"encoding/asn1"
	"errors"
	"fmt"
)

// Request is a certificate signing request (PKCS#10): the subject its
// maker asks a certificate for, and the public key to certify.
type Request struct {
	Subject   Name
	PublicKey PublicKey
}

// NewRequest is the PEM CERTIFICATE REQUEST of key for subject, as
// openssl req -new writes it (no attributes).
func NewRequest(key *Key, subject Name) []byte {
	pub := key.Public()
	info := certificationRequestInfo{Subject: subject.rdns(), PublicKey: pub.spki(), Attributes: []asn1.RawValue{}}
	info.Raw = mustMarshal(info)
	sig := signature(mustMarshal(pub.spki()), pub, info.Raw)
	return encodePEM("CERTIFICATE REQUEST", mustMarshal(certificationRequest{Info: info, SignatureAlgorithm: sha256WithRSA, Signature: bitString(sig)}))
}

// ParseRequest reads a PEM CERTIFICATE REQUEST and checks its signature,
// as the API server does before storing a CertificateSigningRequest.
func ParseRequest(data []byte) (*Request, error) {
	_, der, err := decodePEM(data, "CERTIFICATE REQUEST", "NEW CERTIFICATE REQUEST")
	if err != nil {
		return nil, err
	}
	var cr certificationRequest
	if err := unmarshal(der, &cr); err != nil {
		return nil, fmt.Errorf("malformed certificate request: %w", err)
	}
	pub, err := publicKeyOf(cr.Info.PublicKey)
	if err != nil {
		return nil, err
	}
	subject, err := nameOf(cr.Info.Subject)
	if err != nil {
		return nil, err
	}
	if !sameSignature(signature(mustMarshal(pub.spki()), pub, cr.Info.Raw), cr.Signature) {
		return nil, errors.New("the request's signature does not match its content (x509: signature verification failure)")
	}
	return &Request{Subject: subject, PublicKey: pub}, nil
}
