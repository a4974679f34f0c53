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
# Inlining off, as for the site: the binary is about 10% smaller, which keeps
# it clear of the free plan's 3 MB limit.
GOOS=js GOARCH=wasm "$GO" build -trimpath -gcflags=all=-l -ldflags="-s -w" -o "$out/app.wasm" .

size=$(wc -c <"$out/app.wasm")
gz=$(gzip -9 <"$out/app.wasm" | wc -c)
echo "cmd/worker/$out/app.wasm: $size bytes, $gz gzipped (Workers limit: 3 MB gzipped on the free plan, 10 MB paid)"
