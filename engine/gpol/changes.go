package gpol

import "github.com/genplay/genplay/engine/internal/upstream"

// The changes between Kyverno releases in what the CEL family does after
// creation, switched on by its controller (engine/gpol/controller: the
// policy controller's re-sync, the watch manager) and read by the
// converter's notes (engine/migrate), so they are declared here, once.
// The CRD fields a release added are in schema.go.

// ResyncInPlace: when the policy controller re-syncs a
// synchronize policy (its spec changed, or the periodic scan), Kyverno
// v1.19.0 deletes every downstream it tracks before regenerating them
// (kyverno#17594); v1.19.1 only invalidates its cached copies, so the
// regeneration updates them in place, and its UpdateRequests carry
// synchronize, so what the policy no longer renders is cleaned up.
var ResyncInPlace = upstream.Register(upstream.Change{
	ID: "kyverno#16920", Since: upstream.V1_19_1, Family: upstream.FamilyCEL,
	Title:  "policy edits update GeneratingPolicy downstreams in place",
	Before: "delete and recreate every synchronized downstream of a GeneratingPolicy when its spec changes and at every background scan (new UIDs)",
	After:  "invalidate their cached copies and update them in place (same UIDs), deleting only what the policy no longer renders",
	Files:  []string{"pkg/policy/gpol.go", "pkg/policy/updaterequest.go", "pkg/background/gpol/dynamic_watcher.go"},
})

// RecreateTracked: after recreating a deleted downstream, v1.19.1 tracks it
// under the UID the API server gave the new object; v1.19.0 kept the old
// UID, so the recreated object's deletion went unnoticed (kyverno#17265).
var RecreateTracked = upstream.Register(upstream.Change{
	ID: "kyverno#17453", Since: upstream.V1_19_1, Family: upstream.FamilyCEL,
	Title:  "a twice-deleted GeneratingPolicy downstream is recreated",
	Before: "recreate a deleted synchronized downstream once: the cache keeps the old UID, so deleting the recreated object is not noticed (kyverno#17265)",
	After:  "track the recreated object under its new UID and recreate it after every deletion",
	Files:  []string{"pkg/background/gpol/dynamic_watcher.go"},
})
