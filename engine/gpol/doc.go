// Package gpol is the model of Kyverno's CEL generate policies
// (policies.kyverno.io): GeneratingPolicy (v1, v1beta1, v1alpha1),
// NamespacedGeneratingPolicy (v1, v1beta1) and the CEL PolicyException
// (v1, v1beta1, v1alpha1).
//
// Parse plays the API server: it checks the object against the CRD schema
// with kubectl's strict field validation (unknown fields, wrong types, enums,
// required fields, minItems, minLength, the one-of rule of generate entries)
// and applies the CRD defaults. Validate adds the structural check of
// Kyverno's policy webhook (matchConstraints with at least one resource
// rule); CEL compile errors come from engine/gpol/compiler. Every diagnostic
// points at the line of the offending field, and every expression keeps the
// position of its text so that a column inside it maps back to the YAML
// (Expression.PosAt).
//
// MatchResources.Match is the matcher the engine runs on every request
// (Kubernetes' webhook rules, namespace and object selector semantics);
// TriggerCandidate is the cruder filter the policy controller uses to
// enumerate existing triggers. StatusReady renders the status conditions
// Kyverno's policy-status controller writes.
//
// Where the model differs from a cluster with Kyverno 1.19:
//   - metadata is not checked field by field (ObjectMeta's own validation
//     is the store's);
//   - webhookConfiguration.timeoutSeconds is not range-checked (the API
//     server would refuse the webhook Kyverno then writes, not the policy).
//
// The package is pure Go: it does not import cel-go.
package gpol
