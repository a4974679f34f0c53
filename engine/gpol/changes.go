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

// TriggerUpdateInPlace: what a trigger UPDATE does to a GeneratingPolicy's
// downstream. Kyverno v1.18.2's background controller deletes the
// trigger's synchronized downstreams before it runs the policy again
// (ProcessUR), and its apply core leaves an object that exists as it is
// (GenerateResources only creates); its webhook carries the policy's
// matchConditions as they are, so the API server does not send an update
// (or a deletion) that fails them. v1.19.0 rewrites a downstream it
// manages in place, deletes a synchronized trigger's downstreams when the
// trigger no longer matches, and wraps the webhook's matchConditions so
// that only CREATE requests are filtered for a synchronize policy.
var TriggerUpdateInPlace = upstream.Register(upstream.Change{
	ID: "kyverno#16838", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
	Title: "trigger updates rewrite GeneratingPolicy downstreams in place",
	Before: "delete a synchronized downstream on a trigger update and create it again (new UID), leave one without synchronize as it was, " +
		"and keep it when the update fails the policy's matchConditions (the API server does not send that update to Kyverno)",
	After: "update it in place (same UID), with or without synchronize, and with synchronize delete it when the updated trigger no longer matches",
	Files: []string{"pkg/background/gpol/generate_controller.go", "pkg/cel/libs/context.go", "pkg/controllers/webhook/validating.go",
		"pkg/background/gpol/dynamic_watcher.go"},
})

// TriggerScopedCleanup: when one trigger's evaluation of a synchronize
// policy no longer generates objects of a kind it generated before,
// Kyverno v1.18.2's SyncWatchers deletes every object of that kind the
// policy generated, for every trigger; v1.19.0 only that trigger's.
var TriggerScopedCleanup = upstream.Register(upstream.Change{
	ID: "kyverno#17020", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
	Title:  "a trigger's stale GeneratingPolicy downstreams are deleted for that trigger only",
	Before: "delete every downstream of a kind that one trigger's evaluation stopped generating, those of the policy's other triggers included",
	After:  "delete only that trigger's downstreams of the kind; the other triggers' stay, and stay synchronized",
	Files:  []string{"pkg/background/gpol/dynamic_watcher.go", "pkg/background/gpol/generate_controller.go"},
})
