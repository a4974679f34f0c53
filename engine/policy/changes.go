package policy

import "github.com/genplay/genplay/engine/internal/upstream"

// The changes between Kyverno releases in what the ClusterPolicy/Policy
// family does after creation, switched on by its controller
// (engine/policy/controller) and read by the converter's notes
// (engine/migrate), so they are declared here, once. Those of policy
// validation are in validate.go.

// CleanupClones: from v1.19.0, deleting a policy or removing a rule with
// synchronize on and orphanDownstreamOnPolicyDelete false deletes the
// downstreams of every pattern (cleanupPatterns: data, clone, cloneList,
// foreach); v1.18.2's createURForDownstreamDeletion looked only at data
// patterns, so clones outlived their policy.
var CleanupClones = upstream.Register(upstream.Change{
	ID: "kyverno#16329", Since: upstream.V1_19_0, Family: upstream.FamilyLegacy,
	Title:  "deleting a policy deletes its clones too",
	Before: "delete only the data downstreams of a deleted policy or removed rule with synchronize on: clone and cloneList copies are kept",
	After:  "delete its clone and cloneList downstreams too, unless orphanDownstreamOnPolicyDelete is true",
	Files:  []string{"pkg/policy/generate.go"},
})
