//go:build js && wasm

// Command worker serves genplay's HTTP API (package api, the handler
// `genplay serve` mounts) on Cloudflare Workers through
// github.com/syumai/workers. Every file is js/wasm only; build.sh builds it
// into build/ (see README.md), and worker_test.mjs runs the built worker
// under Node and checks its answers against the native ones.
package main
