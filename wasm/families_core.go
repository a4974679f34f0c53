//go:build js && wasm && !cel

package main

import "github.com/genplay/genplay/engine/generate"

// families, in the core build (no cel tag), is empty: the build is free of
// cel-go and answers a scenario that writes a policies.kyverno.io policy
// with a skip that says it has no CEL engine. See doc.go.
var families []generate.NewFamily

// build names this build for the loader (globalThis.__genplayWasm.build).
const build = "core"
