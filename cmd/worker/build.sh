#!/usr/bin/env bash
# Builds the Cloudflare Worker into cmd/worker/build/ (gitignored):
#   wasm_exec.js, runtime.mjs, worker.mjs  JS shims from workers-assets-gen -mode=go
#   app.wasm                                this command compiled for js/wasm
# wrangler.toml's main is build/worker.mjs; worker_test.mjs tests the result.
set -euo pipefail
cd "$(dirname "$0")"
GO="${GO:-go}"
out=build

# workers-assets-gen empties the output directory first, so it runs before
# the compile. Its wasm_exec.js is Go's own with one change (a global
# "context" the Go side reads its bindings from); the Node test fails if it
# ever stops matching the toolchain. It runs at the version go.mod requires
# (v0.33.0), so the JS shims always match the Go side of syumai/workers
# compiled into app.wasm; `go run ...@v0.33.0` would be the same code but
# needs the module proxy even when the module is cached.
"$GO" run github.com/syumai/workers/cmd/workers-assets-gen -mode=go -o "$out"
# Inlining as for the site (`make worker` passes the Makefile's WASMGCFLAGS):
# everywhere but in large packages off a request's path, which keeps the
# binary under the free plan's 3 MB gzipped (2.74 MB, 2026-11-30) at about
# twice the speed of no inlining. Run on its own, it builds without inlining.
# shellcheck disable=SC2086 # one flag per word
# WORKER_TAGS=cel builds the worker with the CEL family (families_cel.go),
# too big for the free plan; the default has none (README.md).
GOOS=js GOARCH=wasm "$GO" build -tags "${WORKER_TAGS:-}" -trimpath ${WASMGCFLAGS:--gcflags=all=-l} -ldflags="-s -w" -o "$out/app.wasm" .

size=$(wc -c <"$out/app.wasm")
gz=$(gzip -9 <"$out/app.wasm" | wc -c)
echo "cmd/worker/$out/app.wasm: $size bytes, $gz gzipped (Workers limit: 3 MB gzipped on the free plan, 10 MB paid)"
