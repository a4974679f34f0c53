// Package wildcard matches Kyverno's wildcard patterns: "*" stands for any
// sequence of characters (including none) and "?" for exactly one character.
// Matching is case-sensitive and works on runes, as Kyverno's ext/wildcard
// (github.com/IGLOU-EU/go-wildcard v1.0.3) does. The package is internal to
// the engine: match, conditions and variables share it.
package wildcard
