// Package admission is an admission request as Kyverno's webhooks see it:
// the operation, the object before and after, and the user who made it
// (Request, UserInfo), with the usernames of the controllers whose writes
// Kyverno tells apart (its own background controller, the namespace
// controller, the garbage collector).
//
// It is the lowest package that needs these types: match reads UserInfo,
// kubectl and the engine's facade send requests, rbac and both policy
// families name Kyverno's service account. It imports only package resource.
package admission
