// Package rbac is Kyverno's permission check on generate targets.
//
// Kyverno's policy validation asks the API server (a SubjectAccessReview)
// whether the background controller's service account may manage every
// target of a generate rule: get and create, plus update and delete when
// the rule synchronizes (pkg/policy/generate/validate.go canIGenerate). A
// policy whose targets it may not manage is denied. genplay answers the
// review itself (CheckGenerate) from the permissions a default Helm install
// grants that service account (a Profile) and from the RBAC objects in the
// simulated cluster: ClusterRoles aggregated into the controller's role and
// the bindings to its service account.
//
// Kinds the cluster does not serve are not checked (a real cluster denies
// them); this package only answers the review, it enforces nothing.
package rbac
