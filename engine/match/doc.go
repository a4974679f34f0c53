// Package match decides whether a rule's match and exclude blocks select a
// resource, as Kyverno's pkg/engine/utils/match.go (MatchesResourceDescription)
// and pkg/utils/match do:
//
//   - match.any is OR over filters; match.all is AND and is read only when any
//     is empty; an empty block, and an empty filter, never match;
//   - exclude is checked only after match succeeds: exclude.any excludes when
//     one filter matches, exclude.all when every filter does;
//   - inside a filter every attribute that is set must hold (kinds, name,
//     names, namespaces, annotations, selector, namespaceSelector,
//     operations, subjects, roles, clusterRoles) and lists are ORed;
//   - names, namespaces, annotations and kinds use wildcards (* and ?);
//     namespaces compare a Namespace by its own name; namespaceSelector never
//     matches a Namespace; operations, when set, must list the request's
//     operation ("" in background never is);
//   - without admission information (Request.UserInfo nil, as in background
//     processing) match filters ignore subjects, roles and clusterRoles, so a
//     filter made only of them never matches, while exclude filters still
//     read them and so do not exclude;
//   - a namespaced Policy (Request.PolicyNamespace) matches only resources in
//     its own namespace.
//
// Selectors follow metav1.LabelSelector, after Kyverno's wildcard expansion of
// matchLabels (ReplaceInSelector); an invalid selector matches nothing.
package match
