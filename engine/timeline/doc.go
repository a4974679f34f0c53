// Package timeline defines the result of running a scenario: an ordered,
// deterministic log of what the user did and how Kyverno reacted, with
// every version of every object, and the one reader of it.
//
// # The JSON contract
//
// This is the one place the answer of `genplay run -o json` is described;
// the HTTP API (POST /api/v1/run), the wasm genplay.run and the Cloudflare
// worker return the same document (the API and the CLI byte for byte,
// genplay.run as the parsed object). Its format is "genplay.timeline/v2"
// (FormatVersion):
//
//	{
//	  "format": "genplay.timeline/v2",
//	  "test": "default-deny-netpol",        // the chainsaw Test's metadata.name
//	  "initial": [OBJECT, ...],             // the cluster before the first step
//	  "steps": [{
//	    "index": 0, "stepName": "create the policy",
//	    "operation": "apply",               // apply, create, update, patch, delete, assert, error, sleep, script, ...
//	    "summary": "apply ClusterPolicy default-deny",
//	    "time": "2024-01-01T00:00:05Z",     // the logical clock
//	    "events": [{"seq", "time", "actor", "action", "object"?, "policy"?, "rule"?, "trigger"?, "reason"}],
//	    "check"?: {"passed", "skipped"?, "failures"?},   // assert and error operations
//	    "error"?: "...", "warnings"?: ["..."],
//	    "changes": [{
//	      "object": {"apiVersion", "kind", "namespace"?, "name"},
//	      "change": "created" | "updated" | "deleted" | "recreated",
//	      "diff"?: "--- ...",               // updated and recreated: a unified diff of the YAML
//	      "after"?: OBJECT                  // every change but deleted: the object after the step
//	    }]
//	  }],
//	  "passed": true, "skipped"?: "why", "invalid"?: true,
//	  "diagnostics": [{"file", "line", "column", "severity", "message"}]
//	}
//
// Field by field, the Go types below say what each means. The answer grows
// with what happened, not with the size of the cluster times the steps:
// each version of an object appears once, as the "after" of the change
// that made it (or in "initial"), and a step lists only what it changed.
// The cluster after step i is "initial" with the changes of steps 0 to i
// applied in order: an "after" replaces the object of the same group,
// kind, namespace and name (apiVersion's version aside: the versions of a
// kind share storage), and a "deleted" removes it. Sorted by group, kind,
// namespace and name, that is the cluster as the API server lists it.
// Cluster, Clusters and ClusterAfter do exactly that; the playground's
// reader (site/src/reader.js) does the same in JavaScript.
//
// A change's diff is for a person: everything in it can be derived from
// the versions, except the write Kyverno undid within a step, which only
// the diff shows. A created or deleted object's diff is its whole YAML, so
// the answer leaves it out and Diff renders it.
//
// Every list is a list, never null; fields marked ? are left out when
// empty. Objects are as the simulated API server stores them, with keys
// sorted. The same scenario gives the same bytes, natively and in wasm.
//
// # Format v1
//
// "genplay.timeline/v1", the format before this one, carried the whole
// cluster in every step ("cluster": [OBJECT, ...]) and a diff for every
// change, and had no "initial" and no "after". V1 converts a result to it
// (`genplay run -o json -format v1`, the API's ?format=v1), for readers
// written against v1; everything v1 held is derivable from v2.
package timeline
