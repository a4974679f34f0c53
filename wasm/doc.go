//go:build js && wasm

// Command wasm is the genplay engine compiled to WebAssembly for the
// playground. It only registers functions; the logic, and its tests, live in
// the plain-Go package [github.com/genplay/genplay/wasm/bridge].
//
// # Three builds
//
// The same program builds three times, and this is the one place the
// switch is made: families_core.go and families_cel.go set the policy
// families and the shell the bridge passes to the engine
// (engine.Options.Families and Scripts); build_full.go and build_tools.go
// (and families_core.go for the core) name the build and register its
// authoring tools.
//
//   - the core build (no tag; site/dist/assets/genplay-HASH.wasm): the
//     ClusterPolicy/Policy family only, free of cel-go and of the shell
//     (package engine/shell, kubectl's simulation for script and command
//     operations), at most 1.5 MB brotli. It answers a scenario that
//     writes a policies.kyverno.io policy with a Result whose "skipped"
//     says "this build of genplay has no CEL engine" (and a warning
//     diagnostic at the write), and one with a script or command operation
//     with a "skipped" that says "this build of genplay has no shell" (and
//     an error diagnostic at the operation).
//   - the full build (-tags cel; genplay-cel-HASH.wasm): both families and
//     the shell, at most 3.5 MB brotli. Like every js build it has no
//     crypto/x509, so x509.decode is an error that says so (engine/doc.go).
//   - the tools build (-tags cel,tools; genplay-tools-HASH.wasm): the full
//     build and the authoring tools (genplay.tool, below), at most 3.7 MB
//     brotli. The tools (about 170 KB brotli) would take the full build
//     over its budget, and the page needs them only in its tool dialogs.
//
// `make site` builds the three; `make size` (site/size.mjs) reports and
// enforces their budgets. For the same text each returns what `genplay run
// -o json` prints; a scenario with no CEL policy and no script gives the
// same bytes in all three.
//
// # The JavaScript contract
//
// This is the one place the contract is written down. The page's loader
// (site/src/genplay.js) compiles genplay.wasm once and runs it in a Web
// Worker (site/src/worker.js, which loads the toolchain's wasm_exec.js), so
// a long run never freezes the page. It defines:
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
//	    kyvernoVersion?: string, // the Kyverno release to simulate; default the latest
//	  }, control?: {
//	    signal?: AbortSignal,   // aborting it stops this run only: a queued run
//	                            // leaves the queue unrun, a running one is stopped
//	  }): Promise<Result>,      // runs are queued and answered in order
//	  running: boolean,         // a run is being computed
//	  deadlineMs: number,       // a run taking longer is stopped (default 20000)
//	  stop(): Promise<boolean>, // stop the run in progress, whoever started it (false: none)
//	  crashed: boolean,         // true once the Go program has died (a fatal
//	                            // error no recover reaches) or trapped
//	  restart(): Promise<void>, // a fresh engine from the compiled module;
//	                            // resolves when run can be called again
//	  injectFault(name): Promise<string>, // test-only, see below
//	  tools: string[],          // the authoring tools of the build serving now
//	  tool(name: string, text: string, options?: object): Promise<{
//	    tool: string,
//	    result?: any,           // the tool's answer, JSON-shaped
//	    error?: string,         // why there is none (never both)
//	  }>,
//	}
//
// tool runs an authoring tool (bridge.Tools: converting a policy, wrapping a
// bare policy into a scenario, exporting a test, ...) through the same queue,
// deadline and stop as run. Only the tools build has tools (build_tools.go
// lists and registers them): the other builds' size budgets have no room.
// A tool call loads the tools build first (with the events below; the full
// build on a page whose install names no toolsWasmURL) and is answered
// there; the tools build then serves runs too while the full build is not
// loaded. Like run, tool never rejects.
//
// The tools (wasm/authoring, registered in build_tools.go):
//
//	migrate(text, {file?: string, converted?: string})
//	  text: a scenario (a chainsaw Test) whose ClusterPolicies/Policies are
//	  inline. converted: the converted scenario as the user edited it; the
//	  comparison runs it instead of the converter's (its errors name
//	  "converted-test.yaml"). The result is migrate.ScenarioReport
//	  (engine/migrate), as JSON:
//	  {
//	    scenario: string,       // the converted Test (`genplay migrate TEST`): adopt it
//	    test: string,
//	    conversion: "full" | "partial" | "none",
//	    findings: [{file, line, column, kind: "unconverted" | "note",
//	                policy, rule?, field?, message, recipe?}],   // at the lines of text
//	    policies: [{source, line, status, rules: [{rule, status, name?, yaml?}], kept?}],
//	    steps: [{                // each operation on both sides, as --compare -o json
//	      index, stepName, summary,
//	      cause?: "conversion" | "family",   // set when the step differs
//	      clusterPolicyError?, generatingPolicyError?,  // when they differ
//	      diffs: [{object, cause, clusterPolicyRun, generatingPolicyRun, diff,
//	               clusterPolicyReasons: string[], generatingPolicyReasons: string[]}],
//	      clusterPolicySteps, generatingPolicySteps: [{summary, events, check?, error?}],
//	    }],
//	    unaligned?: string,     // the runs part ways here; later steps are not compared
//	    familyLabels: string[], // label keys that differ by family (not compared)
//	    differs: boolean,
//	  }
//	  An error (bad YAML, no Test, no ClusterPolicy or Policy to convert, a
//	  converted scenario that does not load) says why, "file:line:col: ...".
//
//	export(text, {file?}) -> {text: string, asserts: number, errors: number}
//	    the scenario as a chainsaw Test that checks, after each operation,
//	    what Kyverno did (package engine/export, the CLI's genplay export):
//	    the text as written, with assert and error operations inserted.
//	    error when the scenario does not load, fails or is skipped.
//
//	wrap(text, {file?: string, template?: boolean}) -> {
//	  scenario: string,     // a chainsaw Test (scaffold.Wrap of text)
//	  unchanged?: boolean,  // text was a chainsaw Test already: scenario is text
//	  policies: number, triggers: number,
//	  notes?: [{file, line, col, scenarioLine?, warning?, message}],
//	  needs?: string[],     // files a kyverno-test.yaml names that were not read
//	}
//	  wraps bare policies, a multi-document manifest or a kyverno-test.yaml
//	  into a scenario (engine/scaffold); template: true answers the "New
//	  scenario" template instead. An error is the positioned message
//	  ("file:line:col: ...", one per line) of text that does not parse or
//	  holds no policy.
//
// install({wasmURL, fullWasmURL, toolsWasmURL, ...}) loads the core build first. With
// fullWasmURL, a run whose text holds a policies.kyverno.io object or a
// script or command operation (or whose answer from the core build is its
// "no CEL engine" or "no shell" skip) first loads the full build, in a
// worker of its own, and from then on the full build serves every run.
// While it downloads, genplay.loadingCEL is true and globalThis receives
// "genplay:cel-loading" (detail.why: "cel", "shell" or "tool"), then
// "genplay:cel-ready"; if it cannot load, "genplay:cel-failed" and the run
// resolves to the core's result with an error diagnostic "cannot load the
// CEL engine: ..." (for a script: "cannot load the engine with the shell").
// genplay.build is "core" or "full", whichever serves runs now, and
// genplay.loadCEL() loads the full build ahead of a run. With defer: true,
// install loads nothing until genplay.start(text), which loads the full
// build alone when text needs it, as above (the core build
// only if the full one fails) and the core build otherwise; ready follows
// that first load.
//
// run takes a scenario (a chainsaw Test, as `genplay run` takes) and
// resolves to a plain object deep-equal to JSON.parse of what `genplay run
// -o json` prints for the same text: the timeline.Result of
// [github.com/genplay/genplay/engine/timeline], in the format its package
// doc describes (genplay.timeline/v2). Runs of one page share what did not
// change: a step (or the initial objects) equal to the one of an earlier
// answer the loader holds is that earlier object, so treat results as
// read-only. The page reads them through site/src/reader.js, the
// engine's reader in JavaScript. It never rejects: a bad
// argument, an engine that is not ready, or a recovered Go panic also come
// back as a Result whose diagnostics hold one error (an internal error's
// message starts with "internal error:"). run is deterministic, so the
// playground's interactive actions append chainsaw operations to the
// scenario and run it again, and stepping back shows an earlier Step.
//
// Work is bounded twice. The engine's deterministic work budget
// (engine.Limits.Work) ends a runaway run with a diagnostic, the same
// bytes as natively. On top of it, a run that takes longer than deadlineMs,
// or that stop() or its signal ends, is stopped by terminating the worker:
// the run resolves to a Result with steps [] whose field "stopped" is
// "deadline" or "user" and whose one diagnostic says so; a fresh worker is
// started at once and runs the calls queued after it (on a documentation
// page they are other players' runs), and the page keeps the user's text.
// A queued run whose signal is aborted resolves the same way without
// running. The playground remembers a scenario that was stopped and does
// not run it again on reload until the user presses Run. On a page of
// another origin (a documentation page with embed.js) a Worker cannot be
// started from genplay's origin, so the engine runs on the page's thread
// there: stopping cancels the run, which the engine ends at its next look
// between bits of work.
//
// A Go panic during run is recovered and reported as above, and the engine
// keeps working. If the Go program itself dies (runtime fatal errors, a
// panic on another goroutine, a wasm trap), run resolves to an internal
// error whose message says the engine stopped, crashed becomes true, the
// loader dispatches a "genplay:crash" event on globalThis, and restart()
// brings up a new instance; the page keeps the user's text and decides when
// to run again.
//
// Below the loader, inside the worker, this program sets
// globalThis.__genplayWasm = {version, build ("core" | "full"),
// run(text, optionsJSON, token?, base?) -> resultJSON, runAsync (the same
// arguments, a Promise of the same answer: the page's-thread runner),
// stop(), injectFault(name) -> error}
// and then calls globalThis.__genplayOnReady() if the worker defined it.
// Nothing else should use that private object. token names the answer;
// base names an earlier answer the loader still holds (its last, for the
// same options). When the engine remembers base (bridge.RunSince: its last
// eight answers), the answer leaves out what is the same in it and says so
// in a field the loader removes: "reuse": {"base", "steps": N, "initial"?:
// true} means base's first N steps (and its initial objects) come first.
// So a run after an edit at the end of the scenario, the playground's
// actions, transfers only the steps it added.
// injectFault is test-only: genplay.injectFault passes it to the worker,
// where it arms [bridge.InjectFault] ("panic" or "exit") for the next run,
// so the browser tests can prove the page survives both kinds of crash; it
// resolves to "" or an error message. No scenario text or option can arm
// it.
package main
