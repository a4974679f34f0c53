// Package controller is the CEL GeneratingPolicy family over the shared
// generate core (engine/generate): Kyverno v1.19's GeneratingPolicy and
// NamespacedGeneratingPolicy machinery as GENERATING-POLICY.md describes it,
// beside the ClusterPolicy/Policy family of engine/policy/controller.
//
// It implements generate.Family. The admission webhook (webhook.go, §3.1)
// turns requests into UpdateRequests; the background controller (ur.go,
// §3.2) re-fetches the trigger and runs the engine step (engine.go, §3.3),
// whose generator.apply calls land in the apply core (apply.go, §3.4, with
// the labels of §3.5); the WatchManager (watch.go, §3.6) keeps Kyverno's
// in-memory cache of generated objects and reverts, recreates and
// propagates from watch events, with its stateful quirks; the policy
// controller (policies.go, §3.7) reacts to policy writes, the periodic scan
// and a restart. Reports (reports.go, §3.12) are written as PolicyReport and
// ClusterPolicyReport objects. The webhook controller's
// ValidatingWebhookConfiguration (webhookconfig.go) is rendered from the
// admitted policies whenever one changes; the suffix that tells several
// basic webhooks apart hashes the selectors' JSON (Kyverno's serialization
// may differ), and autogen's extra match conditions for policies on pods
// are not rendered.
//
// It is the only package besides engine/gpol/compiler that pulls in cel-go
// (through the compiler): the engine's facade does not import it, and an
// adapter registers it through engine.Options.Families.
package controller
