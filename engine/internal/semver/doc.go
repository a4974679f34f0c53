// Package semver parses semantic versions and version ranges with the rules
// of github.com/blang/semver/v4, which Kyverno uses for semver_compare and for
// comparing versions in preconditions: strict MAJOR.MINOR.PATCH with optional
// pre-release and build parts, and ranges such as ">=1.2.0 <2.0.0 || 3.x".
package semver
