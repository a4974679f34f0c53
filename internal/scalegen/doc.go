// Package scalegen writes the scenarios that measure how genplay scales
// with the size of the cluster and the length of a run (issue 27): a
// ClusterPolicy that gives every Namespace labelled netpol=on a
// default-deny NetworkPolicy (synchronize on), N such Namespaces, then S
// steps that each delete one downstream and assert that Kyverno put it
// back. The engine's tests use it for the answer's size and the limits,
// the site's browser test for the page's speed, and `go run
// ./internal/scalegen N S` prints one for trying by hand.
package scalegen
