// Package upstream is what genplay knows about Kyverno's releases: the
// releases it simulates (Releases, oldest first; the default is the latest),
// the behaviour changes between them (Change, registered next to the code
// that switches on it), and citations of Kyverno's source code at a release
// (Ref): a timeline reason that says which part of Kyverno decided links to
// that code, at the simulated release, on GitHub.
//
// A release is a named point on one engine, never a copy of a controller:
// behaviour that differs between releases asks whether a Change is In the
// simulated Version, where the behaviour is written. Adding a release is
// appending it to Releases, registering the Changes it brings beside the
// code they change, and giving the Refs their line at it (the tests say
// which lines are missing and where the text is).
package upstream
