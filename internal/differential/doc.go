//go:build !js

// Package differential runs genplay's engine and Kyverno's CLI on the same
// policies and triggers and compares every object they generate, whole,
// labels included. It is a host tool (cmd/differential, `make
// differential`), never part of the engine or of `make test`: the CLI is a
// 265 MB binary built from Kyverno's module.
//
// A Case is a policy, the triggers it reacts to, and the objects that exist
// before (clone sources). The corpus is hand-written cases (testdata/corpus,
// one file per case, sections as in txtar: "-- policy.yaml --",
// "-- resources.yaml --", "-- sources.yaml --", "-- limitation --") plus
// cases drawn by Random from a seed.
//
// Kyverno's CLI is driven as a user would: `kyverno apply POLICY --resource
// TRIGGERS -o FILE` writes the objects the rules generate, which are
// compared with genplay's whole. `kyverno apply` loads no clone sources, so
// a case with sources runs through `kyverno test` instead: its
// kyverno-test.yaml names the sources (cloneSourceResource) and genplay's
// objects as the expected generatedResource, and the CLI compares them with
// its own (it strips generate.kyverno.io/* labels before it does).
//
// Where the CLI is not a faithful cluster, the difference is one of the
// Limitations (docs/differential.md lists the same), and a case that shows
// it is reported as a CLI limitation, not as a disagreement.
package differential
