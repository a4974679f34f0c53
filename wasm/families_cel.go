//go:build js && wasm && cel

package main

import (
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/wasm/authoring"
	"github.com/genplay/genplay/wasm/bridge"
)

// families, in the full build (-tags cel), is the CEL GeneratingPolicy
// family: this build simulates both policy families. See doc.go.
var families = []engine.Family{controller.New}

// scripts, in the full build, is the shell: script and command operations
// run here (the loader sends them to this build).
var scripts engine.Scripts = shell.New

// build names this build for the loader (globalThis.__genplayWasm.build).
const build = "full"

// tools are the authoring tools of the engine (genplay.tool, registered by
// tools_full.go); only the full build has them, so the loader sends every
// tool call here. doc.go describes each.
var tools = map[string]bridge.Tool{
	"migrate": authoring.Migrate, // issue 13: Convert to GeneratingPolicy
	"export":  authoring.Export,  // issue 15: Export as test
	"wrap":    authoring.Wrap,    // issue 15: a bare policy wrapped into a scenario
}
