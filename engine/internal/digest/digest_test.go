package digest

import (
	"crypto/md5"  // #nosec G501 -- the oracle of the test
	"crypto/sha1" // #nosec G505 -- likewise
	"crypto/sha256"
	"encoding/hex"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The published test vectors (RFC 1321 appendix A.5, FIPS 180-4's
// examples).
func TestKnownVectors(t *testing.T) {
	for _, tt := range []struct{ in, md5, sha1, sha256 string }{
		{"", "d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709",
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "900150983cd24fb0d6963f7d28e17f72", "a9993e364706816aba3e25717850c26c9cd0d89d",
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "8215ef0796a20bcaaae116d3876c664a",
			"84983e441c3bd26ebaae4aa1f95129e5e54670f1", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	} {
		m, s1, s256 := MD5([]byte(tt.in)), SHA1([]byte(tt.in)), SHA256([]byte(tt.in))
		assert.Equal(t, tt.md5, hex.EncodeToString(m[:]), "md5(%q)", tt.in)
		assert.Equal(t, tt.sha1, hex.EncodeToString(s1[:]), "sha1(%q)", tt.in)
		assert.Equal(t, tt.sha256, hex.EncodeToString(s256[:]), "sha256(%q)", tt.in)
	}
}

// Every length from 0 to 300 bytes (across the padding's block
// boundaries at 55/56 and 119/120) and some long inputs, random bytes,
// against the standard library.
func TestSameAsTheStandardLibrary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lengths := []int{1000, 4096, 65537}
	for n := range 301 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		msg := make([]byte, n)
		for i := range msg {
			msg[i] = byte(r.Uint32())
		}
		if got, want := MD5(msg), md5.Sum(msg); got != want {
			t.Fatalf("md5 of %d bytes: %x, want %x", n, got, want)
		}
		if got, want := SHA1(msg), sha1.Sum(msg); got != want {
			t.Fatalf("sha1 of %d bytes: %x, want %x", n, got, want)
		}
		if got, want := SHA256(msg), sha256.Sum256(msg); got != want {
			t.Fatalf("sha256 of %d bytes: %x, want %x", n, got, want)
		}
	}
}
