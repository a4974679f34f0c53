package pki

import (
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/genplay/genplay/engine/internal/digest"
)

// Certificate is what genplay reads of an X.509 certificate.
type Certificate struct {
	SerialNumber        *big.Int
	Issuer, Subject     Name
	NotBefore, NotAfter time.Time
	PublicKey           PublicKey
	// IsCA: basicConstraints says the subject is a certificate authority.
	IsCA bool
	// ClientAuth and ServerAuth are the extended key usages it names.
	ClientAuth, ServerAuth bool

	tbs       []byte // what the signature signs
	signature []byte
}

// Template is what a certificate is issued for.
type Template struct {
	Subject             Name
	PublicKey           PublicKey
	NotBefore, NotAfter time.Time
	IsCA                bool
	ClientAuth          bool
	ServerAuth          bool
}

// keyUsage bits (RFC 5280 4.2.1.3), as encoded in a BIT STRING.
const (
	usageDigitalSignature = 0x80
	usageKeyEncipherment  = 0x20
	usageCertSign         = 0x04
)

var (
	oidClientAuth = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 2}
	oidServerAuth = asn1.ObjectIdentifier{1, 3, 6, 1, 5, 5, 7, 3, 1}
)

// keyID is a key's identifier, as subjectKeyIdentifier carries it (the
// SHA-1 of the public key's bits, RFC 5280's method 1).
func keyID(p PublicKey) []byte {
	h := digest.SHA1(p.spki().PublicKey.RightAlign())
	return h[:]
}

// issue builds and signs a certificate: issuer and secret are the
// authority's, or the subject's own for a self-signed one.
func issue(t Template, issuer Name, issuerPub PublicKey, secret []byte) []byte {
	usage := byte(usageDigitalSignature | usageKeyEncipherment)
	if t.IsCA {
		usage |= usageCertSign
	}
	exts := []extension{
		{ID: oidKeyUsage, Critical: true, Value: mustMarshal(asn1.BitString{Bytes: []byte{usage}, BitLength: bitLength(usage)})},
	}
	var eku []asn1.ObjectIdentifier
	if t.ServerAuth {
		eku = append(eku, oidServerAuth)
	}
	if t.ClientAuth {
		eku = append(eku, oidClientAuth)
	}
	if len(eku) > 0 {
		exts = append(exts, extension{ID: oidExtKeyUsage, Value: mustMarshal(eku)})
	}
	exts = append(exts, extension{ID: oidBasicConstraint, Critical: true, Value: mustMarshal(basicConstraints{IsCA: t.IsCA})})
	if t.IsCA {
		exts = append(exts, extension{ID: oidSubjectKeyID, Value: mustMarshal(keyID(t.PublicKey))})
	}
	if !t.PublicKey.Equal(issuerPub) {
		exts = append(exts, extension{ID: oidAuthorityKeyID, Value: mustMarshal(authorityKeyID{ID: keyID(issuerPub)})})
	}
	serialSeed := append(append([]byte("genplay pki serial "), secret...), mustMarshal(t.Subject.rdns())...)
	serialSeed = append(serialSeed, t.NotBefore.UTC().Format(time.RFC3339)...)
	serialSeed = append(serialSeed, t.PublicKey.N.Bytes()...)
	serial := new(big.Int).SetBytes(expand(serialSeed, 16))
	serial.SetBit(serial, 127, 0) // positive, and 16 bytes or fewer in DER
	tbs := tbsCertificate{
		Version:            2,
		SerialNumber:       serial,
		SignatureAlgorithm: sha256WithRSA,
		Issuer:             issuer.rdns(),
		Validity:           validity{NotBefore: t.NotBefore.UTC().Truncate(time.Second), NotAfter: t.NotAfter.UTC().Truncate(time.Second)},
		Subject:            t.Subject.rdns(),
		PublicKey:          t.PublicKey.spki(),
		Extensions:         exts,
	}
	tbs.Raw = mustMarshal(tbs)
	sig := signature(secret, issuerPub, tbs.Raw)
	return encodePEM("CERTIFICATE", mustMarshal(certificate{TBS: tbs, SignatureAlgorithm: sha256WithRSA, Signature: bitString(sig)}))
}

// bitLength is the length of a one-byte BIT STRING up to its last set bit.
func bitLength(b byte) int {
	n := 8
	for n > 0 && b&(1<<(8-n)) == 0 {
		n--
	}
	return n
}

// ParseCertificate reads a PEM CERTIFICATE (the first block of data).
func ParseCertificate(data []byte) (*Certificate, error) {
	_, der, err := decodePEM(data, "CERTIFICATE")
	if err != nil {
		return nil, err
	}
	var c certificate
	if err := unmarshal(der, &c); err != nil {
		return nil, fmt.Errorf("malformed certificate: %w", err)
	}
	out := &Certificate{SerialNumber: c.TBS.SerialNumber, NotBefore: c.TBS.Validity.NotBefore, NotAfter: c.TBS.Validity.NotAfter,
		tbs: c.TBS.Raw, signature: c.Signature.RightAlign()}
	if out.Issuer, err = nameOf(c.TBS.Issuer); err != nil {
		return nil, err
	}
	if out.Subject, err = nameOf(c.TBS.Subject); err != nil {
		return nil, err
	}
	if out.PublicKey, err = publicKeyOf(c.TBS.PublicKey); err != nil {
		return nil, err
	}
	for _, e := range c.TBS.Extensions {
		switch {
		case e.ID.Equal(oidBasicConstraint):
			var bc basicConstraints
			if err := unmarshal(e.Value, &bc); err != nil {
				return nil, fmt.Errorf("malformed basicConstraints: %w", err)
			}
			out.IsCA = bc.IsCA
		case e.ID.Equal(oidExtKeyUsage):
			var eku []asn1.ObjectIdentifier
			if err := unmarshal(e.Value, &eku); err != nil {
				return nil, fmt.Errorf("malformed extKeyUsage: %w", err)
			}
			for _, u := range eku {
				out.ClientAuth = out.ClientAuth || u.Equal(oidClientAuth)
				out.ServerAuth = out.ServerAuth || u.Equal(oidServerAuth)
			}
		}
	}
	return out, nil
}

// Authority is a certificate authority: a key and the self-signed
// certificate that names it.
type Authority struct {
	key  *Key
	cert *Certificate
	pem  []byte
}

// NewAuthority is the authority of the key seed makes, named subject,
// valid from notBefore to notAfter.
func NewAuthority(seed []byte, subject Name, notBefore, notAfter time.Time) *Authority {
	key, err := GenerateKey(seed, 2048)
	if err != nil {
		panic("pki: " + err.Error()) // 2048 is in range
	}
	pub := key.Public()
	pemBytes := issue(Template{Subject: subject, PublicKey: pub, NotBefore: notBefore, NotAfter: notAfter, IsCA: true},
		subject, pub, key.D.Bytes())
	cert, err := ParseCertificate(pemBytes)
	if err != nil {
		panic("pki: the authority's own certificate does not read back: " + err.Error())
	}
	return &Authority{key: key, cert: cert, pem: pemBytes}
}

// Certificate is the authority's certificate; CertificatePEM its PEM
// (nil for one AuthorityOf made).
func (a *Authority) Certificate() *Certificate { return a.cert }
func (a *Authority) CertificatePEM() []byte    { return a.pem }

// Issue is the PEM certificate the authority issues for t.
func (a *Authority) Issue(t Template) []byte {
	return issue(t, a.cert.Subject, a.key.Public(), a.key.D.Bytes())
}

// ErrNotIssued: a certificate the authority did not issue (another
// issuer, or a signature that does not match, as when a byte was edited).
var ErrNotIssued = errors.New("x509: certificate signed by unknown authority")

// Verify checks that the authority issued c and that it is valid at now.
func (a *Authority) Verify(c *Certificate, now time.Time) error {
	if !c.Issuer.Equal(a.cert.Subject) || !sameSignatureBytes(signature(a.key.D.Bytes(), a.key.Public(), c.tbs), c.signature) {
		return ErrNotIssued
	}
	if now.Before(c.NotBefore) || now.After(c.NotAfter) {
		return fmt.Errorf("x509: certificate has expired or is not yet valid: current time %s is outside %s to %s",
			now.UTC().Format(time.RFC3339), c.NotBefore.UTC().Format(time.RFC3339), c.NotAfter.UTC().Format(time.RFC3339))
	}
	return nil
}

// SelfSigned is the certificate key signs for itself (openssl req -x509):
// issuer and subject are t.Subject, and t.PublicKey is key's.
func SelfSigned(key *Key, t Template) []byte {
	t.PublicKey = key.Public()
	return issue(t, t.Subject, key.Public(), key.D.Bytes())
}

// AuthorityOf is the authority of a key and its certificate (openssl x509
// -req -CA -CAkey), which must name the key's public half.
func AuthorityOf(key *Key, cert *Certificate) (*Authority, error) {
	if !cert.PublicKey.Equal(key.Public()) {
		return nil, errors.New("the CA certificate does not match the CA key")
	}
	return &Authority{key: key, cert: cert}, nil
}
