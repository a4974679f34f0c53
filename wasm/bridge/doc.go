// Package bridge is the plain-Go half of the wasm adapter: it turns the
// strings JavaScript passes to genplay.run into an [engine.Run] call and the
// result back into JSON. It has no syscall/js, so it builds and is tested
// natively; the js/wasm files in the parent folder only register it.
//
// Every function returns the JSON of a [timeline.Result] and never panics:
// bad options, oversized input and panics become a Result with one error
// diagnostic.
package bridge
