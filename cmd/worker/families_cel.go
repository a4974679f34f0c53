//go:build js && wasm && cel

package main

import (
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
)

// families, with WORKER_TAGS=cel (build.sh), is the CEL
// GeneratingPolicy family: a worker for the paid plan (README.md).
var families = []engine.Family{controller.New}
