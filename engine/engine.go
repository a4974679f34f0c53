package engine

import (
	"context"
	"io/fs"
	"slices"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/rbac"
	"github.com/genplay/genplay/engine/scenario"
)

// KyvernoVersion is the Kyverno release a run simulates unless
// Options.KyvernoVersion names another: the latest of KyvernoVersions,
// written once in engine/internal/upstream (whose links to Kyverno's code
// the timeline's reasons cite). The Makefile's KYVERNO_VERSION, for the
// differential tests, and the playground's About panel are checked
// against it.
const KyvernoVersion = string(upstream.Latest)

// KyvernoVersions lists the Kyverno releases genplay simulates, oldest
// first; the last is KyvernoVersion.
func KyvernoVersions() []string {
	vs := upstream.Versions()
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// KyvernoRelease is a Kyverno release genplay simulates.
type KyvernoRelease = upstream.Release

// KyvernoReleases are the releases genplay simulates, oldest first.
func KyvernoReleases() []KyvernoRelease { return slices.Clone(upstream.Releases) }

// KyvernoChange is a behaviour change between two Kyverno releases.
type KyvernoChange = upstream.Change

// KyvernoChanges lists the behaviour changes between the simulated
// releases that this build models, by release. A build without the CEL
// family (Options.Families) lacks that family's changes.
func KyvernoChanges() []*KyvernoChange { return upstream.Changes() }

// ParseKyvernoVersion reads a release as a user writes it ("v1.19.1",
// "1.19.1", "latest"; "" is the default) and returns its canonical name,
// or an error that lists the simulated releases.
func ParseKyvernoVersion(s string) (string, error) {
	v, err := upstream.Parse(s)
	return string(v), err
}

// Options change how a scenario runs.
type Options struct {
	// Override, when set, forces synchronize and orphanDownstreamOnPolicyDelete
	// on every generate rule of every policy the scenario applies. The
	// playground's outcome matrix runs one scenario under the four combinations.
	Override *Override
	// Files is where operations read the files they name (file:, use:
	// template:, kubectl apply -f FILE), relative to the test's folder: the
	// fs the test is in (at Run's file, or the loaded Test's File). Nil: no
	// file can be read, and an operation that names one is an error.
	Files fs.FS
	// Install are manifests applied to the fresh cluster before the test,
	// as the admin, one timeline step each (genplay test --install: the
	// CRDs a suite assumes are installed). A failed one fails the test.
	Install []scenario.Resource
	// Limits bound the run's work; zero fields take DefaultLimits.
	Limits Limits
	// Context, when set, cancels the run once done: the adapters'
	// wall-clock deadline and an HTTP client that went away. It is a safety
	// net on top of Limits.Work, checked as work is charged; a cancelled run
	// stops with a diagnostic that says so, and where it stops depends on
	// the machine.
	Context context.Context
	// Yield, when set, is called between bits of work (as often as the
	// work budget looks at Context): the browser's main-thread runner
	// sleeps there so that the page handles its events while a run is in
	// progress, and a Stop can cancel Context. It must not change anything
	// the run sees: the result is the same with or without it.
	Yield func()
	// Permissions is what Kyverno's background controller may manage, for
	// the permission check of policy validation (package rbac); empty means
	// PermissionsChart.
	Permissions Permissions
	// Families are the policy families besides ClusterPolicy/Policy that
	// this build simulates. This is the one place a family is registered:
	// an adapter that wants the CEL GeneratingPolicy family lists
	// controller.Family (package engine/gpol/controller) here. The engine
	// itself does not import it, so that a build without it (the browser's
	// core wasm) stays free of cel-go; such a build answers a scenario that
	// writes a GeneratingPolicy with a skip that says so.
	Families []Family
	// Scripts is the interpreter of chainsaw's script and command
	// operations: package engine/shell's New, registered by the adapters
	// next to Families, as they are. The engine does not import the shell
	// (about 0.65 MB of wasm code), so that the browser's core build can
	// leave it out; without it, a test with a script or command operation
	// is skipped, saying this build has no shell.
	Scripts Scripts
	// PolicyExceptions is Kyverno's --enablePolicyException for the CEL
	// family: off, as in the Helm chart; Kyverno's conformance suite runs
	// with it on (genplay test turns it on, genplay run has a flag).
	PolicyExceptions bool
	// KeepUIDs keeps the metadata.uid an applied object sets, as Kyverno's
	// CLI does for a kyverno-test.yaml's resources (a real API server
	// assigns its own): results and generated objects that refer to it
	// (an ownerReference's uid) then match.
	KeepUIDs bool
	// Values stand in for context and request data, as a kyverno-test.yaml's
	// values file does for Kyverno's CLI; nil: none.
	Values *Values
	// KyvernoVersion is the Kyverno release to simulate (KyvernoVersions);
	// empty means KyvernoVersion, the latest. A release genplay does not
	// simulate makes Run answer with an error diagnostic.
	KyvernoVersion string
}

// kyverno is the release the options simulate: Options.KyvernoVersion, or
// the latest when it is empty or not a simulated release (Run refuses such
// options before a session is made: checkKyvernoVersion).
func (o Options) kyverno() upstream.Version {
	v, err := upstream.Parse(o.KyvernoVersion)
	if err != nil {
		return upstream.Latest
	}
	return v
}

// Override forces generate settings; a nil field leaves the policy's value.
type Override = generate.Override

// Values stand in for context and request data, as a kyverno-test.yaml's
// values file does for Kyverno's CLI (package engine/clitest reads them).
type Values = generate.Values

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
	// TimelineBytes bounds the timeline's size as timeline.Marshal writes
	// it, measured as it grows: every version of every object once (whole
	// or as a patch), every step's events. The timeline keeps what it
	// measures and nothing else, so this bounds its memory too; it grows
	// with what the steps changed, not with the steps times the cluster.
	TimelineBytes int
	// ChainDepth bounds how deep a chain of generated triggers may go (a
	// request caused by a write Kyverno made while processing another is
	// one deeper); past it the step ends with a "did not converge" event.
	// How many requests one event causes is not limited by it.
	ChainDepth int
	// Requests bounds the UpdateRequests of the whole run.
	Requests int
	// ForEachElements bounds the elements of one generate foreach list.
	ForEachElements int
	// Work is the run's deterministic work budget, in the units of package
	// engine/internal/budget (about one step over one byte or value of
	// input): expression evaluation, regular expressions, wildcards,
	// foreach, scans, the reconcile loop and jq draw from it. Running out
	// fails the rule at work and stops the run with a diagnostic that says
	// what ran out and where.
	Work int64
}

// DefaultLimits are the limits a zero Limits field takes.
var DefaultLimits = Limits{Steps: 500, Operations: 2000, Objects: 2000, TimelineBytes: 16 << 20,
	ChainDepth: 6, Requests: 5000, ForEachElements: 1000, Work: 50_000_000}

// Permissions is a profile of what Kyverno's background controller may
// manage (package rbac), for Options.Permissions.
type Permissions = rbac.Profile

// The permission profiles, as package rbac defines them.
const (
	PermissionsChart      = rbac.Chart
	PermissionsKyvernoE2E = rbac.KyvernoE2E
	PermissionsUnchecked  = rbac.Unchecked
)

// ParsePermissions reads a profile name: chart, kyverno-e2e or none.
func ParsePermissions(s string) (Permissions, error) { return rbac.ParseProfile(s) }
