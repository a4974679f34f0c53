//go:build js && wasm

package main

import (
	"github.com/syumai/workers"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine/shell"
)

func main() {
	// worker.mjs instantiates this program for every request, so nothing
	// is held across requests. No timeout: js/wasm cannot preempt a run,
	// the isolate's CPU limit bounds it, and a timer left pending when the
	// program exits throws "Go program has already exited"
	// (syumai/workers-go#177).
	workers.Serve(api.Handler(api.Options{Timeout: -1, Families: families, Scripts: shell.New}))
}
