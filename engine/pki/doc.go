// Package pki is the simulated public-key infrastructure behind client
// certificates: keys, certificate signing requests and X.509 certificates
// in the shapes real tools read and write (PEM blocks around DER: PKCS#8
// and PKCS#1 private keys, PKCS#10 requests, X.509 v3 certificates), with
// no cryptography in them.
//
// What a cluster does with certificates is decided by who issued them and
// what they name: the API server authenticates a client certificate its CA
// issued as the user of its subject's CN, in the groups of its O values.
// That is what this package makes exact. The numbers are not: a Key's
// modulus is the product of two deterministic pseudo-random odd numbers
// (not primes), a request's signature is a digest of what it signs and its
// public key, and a certificate's signature is a digest of what it signs
// keyed by its issuer's private key, so only that Authority can make one
// that Verify accepts. Everything is deterministic: the same seed, subject
// and times give the same bytes, natively and in wasm. Nothing here is
// for security, and nothing here links Go's crypto packages.
//
// openssl genrsa and req (package shell) make Keys and requests;
// Kubernetes' certificates API (package certificates) checks requests,
// issues certificates with the cluster's Authority and authenticates them.
package pki
