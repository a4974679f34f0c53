package pki

import (
	"bytes"
	"encoding/asn1"
	"errors"
	"fmt"
	"math/big"
)

// Key is a simulated RSA private key: the fields of PKCS#1's
// RSAPrivateKey, derived from a seed. N is the product of P and Q, which
// are odd but not prime; the other fields are arbitrary numbers below N.
// It has the size and shape of a real key, and the public half (N, E) that
// requests and certificates carry identifies it.
type Key struct {
	N                         *big.Int
	E                         int
	D, P, Q, Dp, Dq, QInverse *big.Int
}

// PublicKey is a key's public half.
type PublicKey struct {
	N *big.Int
	E int
}

// Equal reports whether two public keys are the same.
func (p PublicKey) Equal(o PublicKey) bool {
	return p.N != nil && o.N != nil && p.N.Cmp(o.N) == 0 && p.E == o.E
}

// Bits is the size of the modulus.
func (p PublicKey) Bits() int { return p.N.BitLen() }

// MinBits and MaxBits bound a key's size, as openssl genrsa does (512 is
// its minimum; 16384 keeps work small).
const (
	MinBits = 512
	MaxBits = 16384
)

// GenerateKey makes the key of seed with a modulus of bits bits.
func GenerateKey(seed []byte, bits int) (*Key, error) {
	if bits < MinBits || bits > MaxBits {
		return nil, fmt.Errorf("key size %d is out of range (%d to %d bits)", bits, MinBits, MaxBits)
	}
	half := func(label string, nbits int) *big.Int {
		b := expand(append([]byte("genplay pki key "+label+" "), seed...), (nbits+7)/8)
		n := new(big.Int).SetBytes(b)
		n.SetBit(n, nbits-1, 1) // the top two bits set: P*Q has all its bits
		n.SetBit(n, nbits-2, 1)
		n.SetBit(n, 0, 1) // odd
		for i := nbits; i < n.BitLen(); i++ {
			n.SetBit(n, i, 0)
		}
		return n
	}
	pBits := (bits + 1) / 2
	k := &Key{E: 65537, P: half("p", pBits), Q: half("q", bits-pBits)}
	k.N = new(big.Int).Mul(k.P, k.Q)
	below := func(label string, m *big.Int) *big.Int {
		b := expand(append([]byte("genplay pki key "+label+" "), seed...), (m.BitLen()+7)/8+8)
		return new(big.Int).Mod(new(big.Int).SetBytes(b), m)
	}
	k.D = below("d", k.N)
	k.Dp = below("dp", k.P)
	k.Dq = below("dq", k.Q)
	k.QInverse = below("qinv", k.P)
	return k, nil
}

// Public is the key's public half.
func (k *Key) Public() PublicKey { return PublicKey{N: k.N, E: k.E} }

// PEM is the key as OpenSSL 3 writes it: a PKCS#8 PRIVATE KEY block.
func (k *Key) PEM() []byte {
	inner := mustMarshal(pkcs1PrivateKey{N: k.N, E: k.E, D: k.D, P: k.P, Q: k.Q, Dp: k.Dp, Dq: k.Dq, QInverse: k.QInverse})
	return encodePEM("PRIVATE KEY", mustMarshal(pkcs8{Algorithm: rsaAlgorithm, PrivateKey: inner}))
}

// PKCS1PEM is the key as openssl genrsa -traditional writes it: an RSA
// PRIVATE KEY block.
func (k *Key) PKCS1PEM() []byte {
	return encodePEM("RSA PRIVATE KEY", mustMarshal(pkcs1PrivateKey{N: k.N, E: k.E, D: k.D, P: k.P, Q: k.Q, Dp: k.Dp, Dq: k.Dq, QInverse: k.QInverse}))
}

// ParseKey reads a private key: PKCS#8 (PRIVATE KEY) or PKCS#1 (RSA
// PRIVATE KEY), RSA only.
func ParseKey(data []byte) (*Key, error) {
	typ, der, err := decodePEM(data, "PRIVATE KEY", "RSA PRIVATE KEY")
	if err != nil {
		return nil, err
	}
	if typ == "PRIVATE KEY" {
		var p8 pkcs8
		if err := unmarshal(der, &p8); err != nil {
			return nil, fmt.Errorf("not a PKCS#8 private key: %w", err)
		}
		if !p8.Algorithm.Algorithm.Equal(oidRSAEncryption) {
			return nil, errors.New("not an RSA key (genplay simulates RSA keys only)")
		}
		der = p8.PrivateKey
	}
	var p1 pkcs1PrivateKey
	if err := unmarshal(der, &p1); err != nil {
		return nil, fmt.Errorf("not an RSA private key: %w", err)
	}
	if p1.N == nil || p1.N.Sign() <= 0 || p1.E <= 0 {
		return nil, errors.New("the RSA key has no modulus or exponent")
	}
	return &Key{N: p1.N, E: p1.E, D: p1.D, P: p1.P, Q: p1.Q, Dp: p1.Dp, Dq: p1.Dq, QInverse: p1.QInverse}, nil
}

// spki is the public key as requests and certificates carry it.
func (p PublicKey) spki() subjectPublicKeyInfo {
	return subjectPublicKeyInfo{Algorithm: rsaAlgorithm, PublicKey: bitString(mustMarshal(pkcs1PublicKey(p)))}
}

func publicKeyOf(s subjectPublicKeyInfo) (PublicKey, error) {
	if !s.Algorithm.Algorithm.Equal(oidRSAEncryption) {
		return PublicKey{}, errors.New("not an RSA public key (genplay simulates RSA keys only)")
	}
	var p pkcs1PublicKey
	if err := unmarshal(s.PublicKey.RightAlign(), &p); err != nil {
		return PublicKey{}, fmt.Errorf("malformed RSA public key: %w", err)
	}
	if p.N == nil || p.N.Sign() <= 0 {
		return PublicKey{}, errors.New("the RSA public key has no modulus")
	}
	return PublicKey(p), nil
}

// signature is the simulated signature of msg by the key whose secret
// material is secret, as long as the modulus of pub.
func signature(secret []byte, pub PublicKey, msg []byte) []byte {
	return expand(append(append([]byte("genplay pki signature "), secret...), msg...), (pub.Bits()+7)/8)
}

func sameSignature(a []byte, b asn1.BitString) bool { return bytes.Equal(a, b.RightAlign()) }

func sameSignatureBytes(a, b []byte) bool { return bytes.Equal(a, b) }
