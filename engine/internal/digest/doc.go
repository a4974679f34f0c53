// Package digest computes the MD5, SHA-1 and SHA-256 digests behind
// Kyverno's JMESPath functions md5, sha1 and sha256, in plain Go.
//
// It exists for the browser's size budget: importing crypto/md5, crypto/sha1
// or crypto/sha256 links Go's whole FIPS 140 module into the wasm (AES, GCM,
// a DRBG, HMAC, SHA-3, SHA-512: 41.6 KB of the core build's brotli bytes,
// measured 2026-12-02), none of which the engine uses. The three
// algorithms are short and fully specified (RFC 1321, FIPS 180-4); the
// tests hold each function to the standard library's on random inputs of
// every length across block boundaries, natively and as wasm. Nothing here
// is for security: Kyverno's functions are checksums of policy data.
package digest
