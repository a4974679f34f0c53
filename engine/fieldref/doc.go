// Package fieldref describes the fields genplay validates, as data for the
// playground's editor: completion of field names and enum values, hover
// documentation with a link to Kyverno's docs, "did you mean".
//
// The field tree comes from the schemas the engine checks against
// (engine/policy and engine/gpol's CRD schemas, engine/scenario's chainsaw
// fields), so there is one source of truth; this package adds a one-line
// doc and a documentation URL per field (docs.go). Build returns the
// reference and JSON its bytes; the playground bundles them from the
// checked-in site/src/fieldref.json, which site/fieldrefgen writes (make
// site runs it) and a test keeps current.
//
// Nothing here is reachable from the wasm builds: the editor reads the JSON.
package fieldref
