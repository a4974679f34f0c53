// Package platform holds benchmarks of plain Go, none of genplay's code,
// that measure what the platform itself costs: `make bench-ratio` runs them
// natively and as js/wasm under Node next to the engine's benchmarks, so
// the engine's wasm/native ratios can be read against the ratios of the
// operations it is made of (maps with string keys, small allocations,
// byte loops, sorting, deep copies of JSON-shaped values, fmt).
package platform
