// Package schema checks JSON-shaped objects against the part of a CRD's
// OpenAPI schema that strict field validation needs, and words every
// problem as the API server does (kubectl apply with strict field
// validation): unknown fields, wrong types, enums, required fields,
// minItems, minLength and x-kubernetes-validations rules written in Go.
//
// Both policy families (engine/policy, engine/gpol) describe their CRDs
// with it. Path renders Kubernetes field paths; Diags positions problems in
// a source.Document.
package schema
