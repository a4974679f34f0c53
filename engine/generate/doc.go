// Package generate is the core of Kyverno's generate machinery that both
// policy families run on, as peers: the ClusterPolicy/Policy family
// (engine/policy/controller) and the CEL GeneratingPolicy family
// (engine/gpol/controller) each implement Family.
//
// The core owns what is the same for every family: writes to the simulated
// cluster, made by users or as Kyverno's background ServiceAccount, each
// admitted to every family's webhook and delivered to its watches (Create,
// Update, Delete); the UpdateRequest queue with its deduplication and the
// run's limits (Enqueue, Reconcile, Options); UpdateRequest objects users
// create; the periodic background scan and restarts, handed to every
// family; the labels Kyverno writes on downstreams (labels.go); apiCall
// answers and the JMESPath evaluator both families use; and PolicySet, the
// admitted policies of a family in key order. FamilyConfig is what the
// session hands every family: the simulated Kyverno's flags and install,
// the one place behaviour that depends on them is read.
//
// It follows Kyverno v1.19's code as described in SEMANTICS.md and
// GENERATING-POLICY.md: nothing runs inline. A write reaches the simulated
// cluster first; the families' webhooks then queue UpdateRequests, and
// Reconcile processes them, level-based, re-reading the cluster each time,
// exactly as Kyverno's background controller does. Every write Kyverno
// makes is itself admitted as a request from Kyverno's background
// ServiceAccount, so chains of generated triggers behave as in a cluster
// and stop with a "did not converge" event when they run away.
package generate
