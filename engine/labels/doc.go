// Package labels holds Kubernetes label selectors (metav1.LabelSelector) and
// their semantics, shared by both policy families.
//
// Selector.Matches is Kubernetes' own: matchLabels and matchExpressions are
// ANDed, an empty selector selects everything, an invalid one (a bad key or
// value, an unknown operator, In/NotIn without values, Exists/DoesNotExist
// with values) selects nothing and Validate says why in the API machinery's
// words. There are no wildcards here: Kyverno's legacy policies expand * and
// ? in matchLabels before matching (engine/match does that), the Kubernetes
// webhook matchers of the CEL policies do not.
package labels
