// Package generate simulates Kyverno's generate machinery: the admission
// webhook that turns requests into UpdateRequests, the background controller
// that processes them, and the policy controller that reacts to policy
// create, update and delete and to the periodic background scan.
//
// It follows Kyverno v1.19's code as described in SEMANTICS.md: nothing runs
// inline. A write reaches the simulated cluster first; Admit then queues
// UpdateRequests, and Reconcile processes them, level-based, re-reading the
// cluster each time, exactly as Kyverno's background controller does.
// Every write Kyverno makes is itself admitted as a request from Kyverno's
// background ServiceAccount, so chains of generated triggers behave as in a
// cluster and stop with a "did not converge" event when they run away.
package generate
