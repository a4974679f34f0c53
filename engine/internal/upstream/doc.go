// Package upstream names the Kyverno release genplay simulates and cites
// its source code: a timeline reason that says which part of Kyverno
// decided links to that code at that release on GitHub, so a user can
// read it there (no file of genplay's own notes, no function name alone).
package upstream
