// Package api is genplay's HTTP API: one http.Handler that `genplay serve`
// mounts next to the playground and cmd/worker serves on Cloudflare Workers.
//
// Endpoints (every answer is JSON, and carries Access-Control-Allow-Origin: *
// so documentation sites can call the API from the browser):
//
//	POST /api/v1/run       run a scenario; the answer is exactly the bytes
//	                       `genplay run -o json` prints for it: the timeline,
//	                       whose format package engine/timeline describes
//	GET  /api/v1/examples  the playground's gallery: [{name, title, description, scenario}]
//	GET  /healthz          {"status": "ok", "format": "genplay.timeline/v2"}
//
// The run request's body is the scenario, a chainsaw Test as YAML text
// (Content-Type text/yaml, application/yaml, text/plain, none, or the
// application/x-www-form-urlencoded that curl --data-binary sends). Query
// parameters adjust the run: file names the scenario in diagnostics (default
// "scenario.yaml"); kyvernoVersion picks the Kyverno release to simulate
// (v1.18.2, v1.19.0 or v1.19.1; default the latest; the timeline's
// "kyverno" echoes it); compareVersions=true runs the scenario under every
// release genplay simulates and answers their comparison instead of a
// timeline, exactly the bytes `genplay run --compare-versions -o json`
// prints (format genplay.versions/v1, timeline.VersionComparison: every
// step with what each release did, the steps that differ marked with the
// change between releases that explains them); synchronize /
// orphanDownstreamOnPolicyDelete (true or false) force those generate
// settings on every rule, as the playground's outcome matrix does;
// format=v1 answers the timeline in its old format, genplay.timeline/v1
// (every step with the whole cluster), for readers written against it
// (`genplay run -o json -format v1`). With Content-Type application/json
// the body is instead
//
//	{"scenario": "<YAML text>", "file": "scenario.yaml", "format": "v2", "kyvernoVersion": "v1.19.1",
//	 "compareVersions": false, "override": {"synchronize": true, "orphanDownstreamOnPolicyDelete": false}}
//
// where only scenario is required; a JSON field wins over the query
// parameter of the same name. compareVersions contradicts kyvernoVersion
// (it runs every release; kyvernoVersion picks one) and format=v1 (the
// comparison is not a timeline): either with it answers 400 saying so. A
// scenario whose checks fail still answers 200: the timeline (or the
// comparison's "passed", per release) says what failed.
//
// Errors answer {"error": "one line"}; a scenario that cannot be run at all
// (the result has no steps and an error diagnostic) answers 422 with the
// first error as "file:line:column: message" and every diagnostic:
//
//	{"error": "scenario.yaml:8: yaml: did not find expected node content",
//	 "diagnostics": [{"file": ..., "line": 8, "column": 0, "severity": "error", "message": ...}]}
//
// Status codes: 400 malformed request (bad JSON, unknown field, bad query
// parameter), 404 unknown path, 405 wrong method (with Allow), 413 body
// over the limit, 415 unsupported Content-Type, 422 input error, 500
// internal error (a recovered panic; logged with its stack, never shown),
// 503 too busy or the run exceeded its time budget (with Retry-After).
//
// Work per request is bounded: the body is capped (Options.MaxBodyBytes,
// and the scenario text by engine.MaxInputBytes), at most
// Options.MaxConcurrent runs execute at once, a request waits at most
// Options.Timeout, and the engine bounds reconciles itself. A
// compareVersions request runs its releases one after the other in one
// slot, within the one Timeout, at most one run's work per release; the
// latest release runs first, so input that cannot run or that a limit
// stops answers after that one run exactly what a run without
// compareVersions answers, and an older release's run that a limit stops
// ends the comparison with a 422 naming that release. Nothing is kept
// between requests: the gallery is read once from the embedded examples and
// never changes.
package api
