//go:build js && wasm && cel

package main

import (
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol/controller"
)

// families, in the full build (-tags cel), is the CEL GeneratingPolicy
// family: this build simulates both policy families. See doc.go.
var families = []generate.NewFamily{controller.New}

// build names this build for the loader (globalThis.__genplayWasm.build).
const build = "full"
