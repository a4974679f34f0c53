package pki

import (
	"encoding/asn1"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"time"

	"github.com/genplay/genplay/engine/internal/digest"
)

// The ASN.1 structures of RFC 5208 (PKCS#8), RFC 8017 (PKCS#1), RFC 2986
// (PKCS#10) and RFC 5280 (X.509), as encoding/asn1 reads and writes them.

var (
	oidRSAEncryption   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 1}
	oidSHA256WithRSA   = asn1.ObjectIdentifier{1, 2, 840, 113549, 1, 1, 11}
	oidKeyUsage        = asn1.ObjectIdentifier{2, 5, 29, 15}
	oidExtKeyUsage     = asn1.ObjectIdentifier{2, 5, 29, 37}
	oidBasicConstraint = asn1.ObjectIdentifier{2, 5, 29, 19}
	oidSubjectKeyID    = asn1.ObjectIdentifier{2, 5, 29, 14}
	oidAuthorityKeyID  = asn1.ObjectIdentifier{2, 5, 29, 35}
)

type algorithmIdentifier struct {
	Algorithm  asn1.ObjectIdentifier
	Parameters asn1.RawValue `asn1:"optional"`
}

var rsaAlgorithm = algorithmIdentifier{Algorithm: oidRSAEncryption, Parameters: asn1.NullRawValue}
var sha256WithRSA = algorithmIdentifier{Algorithm: oidSHA256WithRSA, Parameters: asn1.NullRawValue}

type pkcs8 struct {
	Version    int
	Algorithm  algorithmIdentifier
	PrivateKey []byte
}

type pkcs1PrivateKey struct {
	Version                   int
	N                         *big.Int
	E                         int
	D, P, Q, Dp, Dq, QInverse *big.Int
}

type pkcs1PublicKey struct {
	N *big.Int
	E int
}

type subjectPublicKeyInfo struct {
	Algorithm algorithmIdentifier
	PublicKey asn1.BitString
}

type attributeTypeAndValue struct {
	Type  asn1.ObjectIdentifier
	Value asn1.RawValue
}

// rdnSET is a relative distinguished name: encoding/asn1 writes a slice
// type whose name ends in SET as a SET OF.
type rdnSET []attributeTypeAndValue

type certificationRequestInfo struct {
	Raw        asn1.RawContent
	Version    int
	Subject    []rdnSET
	PublicKey  subjectPublicKeyInfo
	Attributes []asn1.RawValue `asn1:"tag:0"`
}

type certificationRequest struct {
	Info               certificationRequestInfo
	SignatureAlgorithm algorithmIdentifier
	Signature          asn1.BitString
}

type validity struct {
	NotBefore, NotAfter time.Time
}

type extension struct {
	ID       asn1.ObjectIdentifier
	Critical bool `asn1:"optional"`
	Value    []byte
}

type tbsCertificate struct {
	Raw                asn1.RawContent
	Version            int `asn1:"optional,explicit,default:0,tag:0"`
	SerialNumber       *big.Int
	SignatureAlgorithm algorithmIdentifier
	Issuer             []rdnSET
	Validity           validity
	Subject            []rdnSET
	PublicKey          subjectPublicKeyInfo
	Extensions         []extension `asn1:"omitempty,optional,explicit,tag:3"`
}

type certificate struct {
	TBS                tbsCertificate
	SignatureAlgorithm algorithmIdentifier
	Signature          asn1.BitString
}

type basicConstraints struct {
	IsCA bool `asn1:"optional"`
}

type authorityKeyID struct {
	ID []byte `asn1:"optional,tag:0"`
}

// mustMarshal encodes v, whose types are all fixed here: an error is a
// broken invariant.
func mustMarshal(v any) []byte {
	b, err := asn1.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("pki: encoding %T: %v", v, err))
	}
	return b
}

// unmarshal decodes all of der into v.
func unmarshal(der []byte, v any) error {
	rest, err := asn1.Unmarshal(der, v)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return errors.New("trailing data after the ASN.1 structure")
	}
	return nil
}

// encodePEM wraps der in a PEM block of type typ.
func encodePEM(typ string, der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der})
}

// decodePEM returns the DER of the first PEM block in data, which must be
// of one of the types given.
func decodePEM(data []byte, types ...string) (string, []byte, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return "", nil, errors.New("no PEM block found")
	}
	for _, t := range types {
		if block.Type == t {
			return block.Type, block.Bytes, nil
		}
	}
	return "", nil, fmt.Errorf("PEM block type must be %s, not %s", types[0], block.Type)
}

// expand stretches seed into n deterministic bytes (SHA-256 in counter
// mode).
func expand(seed []byte, n int) []byte {
	out := make([]byte, 0, n+32)
	buf := append(append([]byte{}, seed...), 0, 0, 0, 0)
	for i := uint32(0); len(out) < n; i++ {
		buf[len(buf)-4], buf[len(buf)-3], buf[len(buf)-2], buf[len(buf)-1] = byte(i>>24), byte(i>>16), byte(i>>8), byte(i)
		h := digest.SHA256(buf)
		out = append(out, h[:]...)
	}
	return out[:n]
}

// bitString is a BIT STRING of whole bytes.
func bitString(b []byte) asn1.BitString { return asn1.BitString{Bytes: b, BitLength: 8 * len(b)} }
