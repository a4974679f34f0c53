// Package policy parses Kyverno ClusterPolicy and Policy objects
// (kyverno.io/v1 and kyverno.io/v2beta1) into a typed model and validates
// them the way a cluster with Kyverno does on admission.
//
// Parse plays the API server: it checks the object against the fields of
// Kyverno's CRD schema with kubectl's strict field validation (unknown
// fields, wrong types, enums and required fields are errors) and applies the
// CRD defaults. Validate plays Kyverno's policy webhook for the checks that
// shape generate rules, and ValidateUpdate its checks on a policy update.
// Every diagnostic points at the line of the offending field.
//
// Where the simulation differs from a real cluster:
//   - kinds the KindResolver does not know are not scope-checked (Kyverno
//     treats them as namespaced and its permission check rejects them);
//   - permission checks of Kyverno's service accounts are not simulated;
//   - validate, mutate and verifyImages rules are accepted unchecked;
//   - JMESPath in context entries is parsed, but variables are not
//     type-checked against the allowed-variable lists.
package policy
