// Package authoring holds the authoring tools of the playground's tools build:
// [bridge.Tool] adapters over the engine packages that do the work (the
// migrate tool over engine/migrate, which `genplay migrate` shares; the
// export tool over engine/export, which `genplay export` shares; the wrap
// tool over engine/scaffold, which `genplay new` shares). Only
// wasm/families_cel.go imports it, so that the core build links none of
// them (its size budget has no room); it is plain Go, built and tested
// natively.
package authoring
