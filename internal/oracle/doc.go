// Package oracle holds genplay to real Kyverno: recordings of what real
// Kyverno did with a scenario, made by the harness in oracle/ (`make
// oracle-record`) against live controllers on a real kube-apiserver, and
// the offline comparison of genplay's run of the same scenario with them
// (oracle_test.go, in `make test`).
//
// A recording (testdata/oracle/<version>/<name>.json, Recording) holds the
// scenario as it ran (Prepare), the versions the live components reported,
// and for each chainsaw step the objects in scope (InScope) once the cluster
// had settled (Settle), with the UIDs and resourceVersions the API server
// assigned, who wrote them, and what changed (created, recreated under a
// new UID, updated, deleted). Each scenario runs more than once; one whose
// runs disagree is marked flaky and not compared.
//
// The comparison is test code (comparison_test.go, known_test.go; no
// program reaches it): Compare runs genplay on the recorded scenario and
// compares step by step: which objects exist, their fates (a new UID is a
// recreation), their labels and annotations exactly, their other fields as
// genplay wrote them. A difference is either one of KnownDifferences (each
// named in engine/doc.go with its reason) or a defect.
//
// This package imports the engine and nothing of Kubernetes; the harness
// that talks to the live cluster is its own module (oracle/), outside the
// product's module graph.
package oracle
