package main

import (
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
)

// families are the policy families the CLI simulates besides ClusterPolicy
// and Policy: the CEL GeneratingPolicy family. Every command that runs the
// engine (run, test, serve) passes them in engine.Options.Families, the one
// place a family is registered; the browser's core build (wasm/) and the
// Workers entry point (cmd/worker) leave them out to stay free of cel-go.
var families = []engine.Family{controller.New}

// scripts is the interpreter of chainsaw's script and command operations
// (package shell), which every command that runs the engine passes in
// engine.Options.Scripts beside families; the browser's core build leaves
// it out for its size budget.
var scripts engine.Scripts = shell.New
