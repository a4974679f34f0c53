//go:build js && wasm && cel

package main

import (
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
)

// families, in the full and tools builds (-tags cel), is the CEL
// GeneratingPolicy family: these builds simulate both policy families. See
// doc.go.
var families = []engine.Family{controller.New}

// scripts, in the full and tools builds, is the shell: script and command
// operations run here (the loader sends them to these builds).
var scripts engine.Scripts = shell.New
