// Package migrate converts Kyverno's legacy generate rules (ClusterPolicy
// and Policy, kyverno.io) to the CEL family (GeneratingPolicy and
// NamespacedGeneratingPolicy, policies.kyverno.io v1), one GeneratingPolicy
// per generate rule, and compares a scenario run as written with the same
// scenario run on the converted policies.
//
// The converter produces YAML text with a comment naming the origin of each
// piece, and findings at the source lines: Unconverted for what has no
// faithful CEL form (reported with the reason and, where one exists, a
// recipe to do it by hand; never dropped silently), Note for what converts
// but behaves differently in the CEL family (GENERATING-POLICY.md §3.8
// against SEMANTICS.md §2.5). It needs no CEL compiler: callers validate the
// output with engine/gpol and engine/gpol/compiler.
//
// Mapping: match/exclude become matchConstraints.resourceRules (the kinds,
// with operations CREATE and UPDATE unless the rule lists its own) and
// matchConditions for what a resource rule cannot say (names with
// wildcards, namespaces, selectors with Kyverno's trigger-stops-matching
// semantics, annotations, userInfo); preconditions become matchConditions
// (context variables inlined, since match conditions cannot read
// variables); context entries become variables (variable, configMap,
// apiCall to the Kubernetes API, globalReference); data becomes a template
// (interpolate: cel when it holds variables), clone and cloneList
// generator.apply over resource.get and resource.List, foreach a
// generator.apply per element; synchronize, orphanDownstreamOnPolicyDelete,
// generateExisting and skipBackgroundRequests go to spec.evaluation.
// A policy with one generate rule keeps its name (so the downstreams'
// policy-name label and kubectl commands stay the same); with several, each
// GeneratingPolicy is named policy-rule (63 characters at most).
package migrate
