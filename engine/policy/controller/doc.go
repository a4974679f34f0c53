// Package controller is the ClusterPolicy/Policy family over the shared
// generate core (engine/generate): Kyverno v1.19's generate rules as
// SEMANTICS.md describes them, beside the CEL family of
// engine/gpol/controller.
//
// It implements generate.Family. The policy webhook (AdmitPolicy, family.go)
// parses and validates a policy (package policy) with the permission check
// of package rbac; the generate webhook (admission.go, SEMANTICS §2) turns
// requests on triggers into UpdateRequests and reacts to requests on
// downstreams and clone sources; the background controller (process.go)
// re-fetches the trigger, filters the rule (match, context, preconditions:
// packages match, variables and conditions) and creates or synchronizes
// its downstreams with Kyverno's labels (labels.go); cleanup.go deletes
// them when a trigger, rule or policy goes; the policy controller
// (policies.go) reacts to policy writes and the periodic background scan;
// userrequest.go processes UpdateRequest objects users create. It keeps
// nothing in memory that a restart of Kyverno's background controller
// loses: downstreams are found by their labels.
package controller
