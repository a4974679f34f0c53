//go:build js && wasm && !cel

package main

import "github.com/genplay/genplay/engine"

// families, in the default build, is empty: the worker has no CEL engine and
// answers a CEL scenario with a skip that says so. The CEL family does not
// fit the Workers free plan (README.md: the numbers).
var families []engine.Family
