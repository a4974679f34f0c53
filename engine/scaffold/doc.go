// Package scaffold starts a scenario from what a policy author has: a bare
// ClusterPolicy, Policy, GeneratingPolicy or NamespacedGeneratingPolicy,
// several of them, a multi-document manifest, or a Kyverno CLI test
// (kyverno-test.yaml, cli.kyverno.io) with its policies and resources.
//
// Wrap turns such text into a chainsaw Test (the scenario format of
// engine/scenario) that applies the input's other objects (Namespaces,
// clone sources) first, then each policy with a wait for its readiness as
// Kyverno's conformance tests do, then, for each generate rule (each
// GeneratingPolicy), a trigger the rule's match would select and an assert
// of the downstream where the rule names it statically. The trigger is
// derived from the match: kinds (wildcards resolved to a known kind), names
// (wildcards resolved to a concrete name), namespaces, selector and
// namespaceSelector (labels that satisfy matchLabels and matchExpressions);
// for the CEL family matchConstraints.resourceRules, resourceNames,
// namespaceSelector and objectSelector. Every derived trigger is checked
// with the engine's own matcher (engine/match, gpol.MatchResources.Match);
// what cannot be derived (a userInfo-only match, an operation other than
// CREATE and UPDATE, an unknown kind, selectors that contradict each other)
// and what is not evaluated (preconditions, matchConditions, CEL generate
// expressions) is a Note at the line of the policy that causes it.
//
// The policies are copied into the scenario as the user wrote them
// (comments and key order kept), indented under `resource:`; a document
// that cannot be copied as text is rendered with source.Marshal. Input
// that is already a chainsaw Test is returned unchanged. Template is the
// minimal scenario the playground's "New scenario" starts from.
//
// Wrap is deterministic (the same text gives the same bytes) and pure: a
// kyverno-test.yaml's files are read through Options.ReadFile when the
// caller can read them (the CLI), and otherwise named in a Note (the
// browser has only the text).
package scaffold
