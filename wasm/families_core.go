//go:build js && wasm && !cel

package main

import (
	"github.com/hack-pad/safejs"

	"github.com/genplay/genplay/engine"
)

// families, in the core build (no cel tag), is empty: the build is free of
// cel-go and answers a scenario that writes a policies.kyverno.io policy
// with a skip that says it has no CEL engine. See doc.go.
var families []engine.Family

// scripts, in the core build, is none: the build is free of the shell
// (kubectl's simulation, about 0.65 MB of code) and answers a scenario with
// a script or command operation with a skip that says it has no shell; the
// loader (site/src/genplay.js) sends such a scenario to the full build.
var scripts engine.Scripts

// build names this build for the loader (globalThis.__genplayWasm.build).
const build = "core"

// registerTools publishes no tool in the core build: tools (wasm/bridge
// tools.go) cost size the core's budget does not have, so the loader sends
// every genplay.tool call to the tools build (the worker answers a call
// that reaches this build anyway with an error).
func registerTools(safejs.Value) error { return nil }
