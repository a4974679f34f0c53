package engine

import (
	"io/fs"

	"github.com/genplay/genplay/engine/generate"
)

// Options change how a scenario runs.
type Options struct {
	// Override, when set, forces synchronize and orphanDownstreamOnPolicyDelete
	// on every generate rule of every policy the scenario applies. The
	// playground's outcome matrix runs one scenario under the four combinations.
	Override *Override
	// Files is where script and command operations read the files they
	// name (kubectl apply -f FILE), relative to the test's folder; the fs
	// the test was loaded from. Nil: scripts can read no files.
	Files fs.FS
	// Limits bound the run's work; zero fields take DefaultLimits.
	Limits Limits
	// Permissions is what Kyverno's background controller may manage, for
	// the permission check of policy validation (engine/permissions.go);
	// empty means PermissionsChart.
	Permissions Permissions
	// Families are the policy families besides ClusterPolicy/Policy that
	// this build simulates. This is the one place a family is registered:
	// an adapter that wants the CEL GeneratingPolicy family lists
	// controller.Family (package engine/gpol/controller) here. The engine
	// itself does not import it, so that a build without it (the browser's
	// core wasm) stays free of cel-go; such a build answers a scenario that
	// writes a GeneratingPolicy with a skip that says so.
	Families []generate.NewFamily
	// PolicyExceptions is Kyverno's --enablePolicyException for the CEL
	// family: off, as in the Helm chart; Kyverno's conformance suite runs
	// with it on (genplay test turns it on, genplay run has a flag).
	PolicyExceptions bool
}

// Override forces generate settings; a nil field leaves the policy's value.
type Override struct {
	Synchronize                    *bool `json:"synchronize,omitempty"`
	OrphanDownstreamOnPolicyDelete *bool `json:"orphanDownstreamOnPolicyDelete,omitempty"`
}

// MaxInputBytes bounds a scenario's size.
const MaxInputBytes = 2 << 20

// Limits bound the work of one run, so that hostile or runaway input ends
// with a clear diagnostic or event instead of a hung tab or process. This is
// the one place genplay's limits are set; YAML itself is bounded by package
// source (size, depth, aliases) and substitution by package variables.
type Limits struct {
	// Steps is the most chainsaw steps (spec.steps) a Test may have.
	Steps int
	// Operations is the most operations, counting every resource of an
	// apply/create/... as one, that a Test may hold, and the most timeline
	// steps a run records.
	Operations int
	// Objects is the most objects the simulated cluster may hold.
	Objects int
	// TimelineBytes bounds the timeline's size, estimated as JSON: every
	// step records the whole cluster and a diff of what changed, so a big
	// object times many steps would otherwise make a huge answer.
	TimelineBytes int
	// RequestsPerReconcile bounds the UpdateRequests Kyverno processes after
	// one operation; past it the step ends with a "did not converge" event.
	RequestsPerReconcile int
	// Requests bounds the UpdateRequests of the whole run.
	Requests int
	// ForEachElements bounds the elements of one generate foreach list.
	ForEachElements int
}

// DefaultLimits are the limits a zero Limits field takes.
var DefaultLimits = Limits{Steps: 500, Operations: 2000, Objects: 2000, TimelineBytes: 16 << 20,
	RequestsPerReconcile: 100, Requests: 5000, ForEachElements: 1000}
