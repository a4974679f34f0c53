//go:build js && wasm && cel && !tools

package main

import "github.com/hack-pad/safejs"

// build names this build for the loader (globalThis.__genplayWasm.build):
// the full build (-tags cel), both policy families and the shell.
const build = "full"

// registerTools publishes no tool in the full build: the authoring tools
// (wasm/authoring, about 170 KB brotli) would take it over its size budget,
// so they are in the tools build (build_tools.go), which the loader fetches
// when a tool is called. See doc.go.
func registerTools(safejs.Value) error { return nil }
