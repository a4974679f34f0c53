// Package rbac is Kyverno's permission check on generate targets.
//
// Kyverno's policy validation asks the API server (a SubjectAccessReview)
// whether the background controller's service account may manage every
// target of a generate rule: get and create, plus update and delete when
// the rule synchronizes (pkg/policy/generate/validate.go canIGenerate);
// for a synchronized rule it first asks whether the admission controller's
// service account may list and get them (pkg/validation/policy/actions.go:
// a default install's admission controller may not read Secrets, as real
// Kyverno v1.19.0 showed the oracle). A policy whose targets they may not
// handle is denied. genplay answers the review itself (CheckGenerate) from
// the permissions a default Helm install grants those service accounts (a
// Profile) and from the RBAC objects in the simulated cluster: ClusterRoles
// aggregated into each controller's role (and, for the admission
// controller, into Kubernetes' view role, which the chart binds it to) and
// the bindings to its service account.
//
// Kinds the cluster does not serve are not checked (a real cluster denies
// them); this package only answers the review, it enforces nothing.
package rbac
