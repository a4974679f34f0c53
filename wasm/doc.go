//go:build js && wasm

// Command wasm is the genplay engine compiled to WebAssembly for the
// playground. It only registers functions; the logic, and its tests, live in
// the plain-Go package [github.com/genplay/genplay/wasm/bridge].
//
// # The JavaScript contract
//
// This is the one place the contract is written down. The page's loader
// (site/src/genplay.js) instantiates genplay.wasm with the toolchain's
// wasm_exec.js and defines:
//
//	globalThis.genplay = {
//	  version: string,          // "" until ready resolves, then the build's version
//	  ready:   Promise<void>,   // resolves when run can be called; rejects if the wasm fails to load
//	  run(text: string, options?: {
//	    file?: string,          // file name used in diagnostics; default "chainsaw-test.yaml"
//	    override?: {            // engine.Options.Override; null or absent leaves the policy's value
//	      synchronize?: boolean | null,
//	      orphanDownstreamOnPolicyDelete?: boolean | null,
//	    },
//	  }): Result,
//	  crashed: boolean,         // true once the Go program has died (a fatal
//	                            // error no recover reaches) or trapped
//	  restart(): Promise<void>, // a fresh engine from the compiled module;
//	                            // resolves when run can be called again
//	}
//
// run takes a scenario (a chainsaw Test, as `genplay run` takes) and returns
// a plain object deep-equal to JSON.parse of what `genplay run -o json`
// prints for the same text: the timeline.Result of
// [github.com/genplay/genplay/engine/timeline]. It never throws: a bad
// argument, an engine that is not ready, or a recovered Go panic also come
// back as a Result whose diagnostics hold one error (an internal error's
// message starts with "internal error:"). run is deterministic, so the
// playground's interactive actions append chainsaw operations to the
// scenario and run it again, and stepping back shows an earlier Step.
//
// A Go panic during run is recovered and reported as above, and the engine
// keeps working. If the Go program itself dies (runtime fatal errors, a
// panic on another goroutine, a wasm trap), run returns an internal error
// whose message says the engine stopped, crashed becomes true, the loader
// dispatches a "genplay:crash" event on globalThis, and restart() brings up
// a new instance; the page keeps the user's text and decides when to run
// again.
//
// Below the loader, this program sets globalThis.__genplayWasm =
// {version, run(text, optionsJSON) -> resultJSON, injectFault(name) -> error}
// and then calls globalThis.__genplayOnReady() if the loader defined it.
// Nothing else should use that private object. injectFault is test-only: it
// arms [bridge.InjectFault] ("panic" or "exit") for the next run, so the
// browser tests can prove the page survives both kinds of crash; it returns
// "" or an error message. No scenario text or option can arm it.
package main
