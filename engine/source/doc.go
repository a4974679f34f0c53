// Package source reads YAML the way Kubernetes does and remembers where every
// value came from.
//
// Parse splits a multi-document file, converts each document to the JSON
// shape the engine uses (map[string]any, []any, string, float64, bool, nil)
// with the YAML 1.1 rules of sigs.k8s.io/yaml (which decodes with yaml.v2):
// plain yes/no/on/off/y/n are booleans, numbers become float64, keys are
// stringified, duplicate keys are errors. A Document keeps the YAML node tree
// so any path of keys and indexes can be turned back into a file:line:col
// position for diagnostics.
//
// Inputs are bounded (size, nesting depth, alias expansion) so that a hostile
// file yields a positioned error, never a panic or an exhausted memory.
//
// Marshal renders JSON-shaped values as stable YAML (sorted keys, two-space
// indent) and Diff compares two renderings as a unified line diff.
package source
