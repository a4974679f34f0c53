package upstream

import "fmt"

// Version is the Kyverno release whose behaviour genplay follows
// (engine.KyvernoVersion).
const Version = "v1.19.0"

// Ref is a place in Kyverno's source at Version: a file of the
// kyverno/kyverno repository and a line in it, with what a reader finds
// there.
type Ref struct {
	Path string // e.g. "pkg/background/gpol/dynamic_watcher.go"
	Line int
	Text string // a piece of that line, checked against the source by the tests
}

// URL is the line on GitHub at Version.
func (r Ref) URL() string {
	return fmt.Sprintf("https://github.com/kyverno/kyverno/blob/%s/%s#L%d", Version, r.Path, r.Line)
}

// Cite is the suffix a reason ends with to point at the code: " (Kyverno's
// code: URL)".
func (r Ref) Cite() string { return " (Kyverno's code: " + r.URL() + ")" }

// The places the timeline's reasons cite.
var (
	// The CEL family's WatchManager (synchronize for GeneratingPolicies).
	SyncWatchers            = Ref{"pkg/background/gpol/dynamic_watcher.go", 75, "func (wm *WatchManager) SyncWatchers("}
	DeleteDownstreamsFilter = Ref{"pkg/background/gpol/dynamic_watcher.go", 267, "resource.Labels[common.GeneratePolicyLabel] == policyName"}
	CleanupStaleDownstreams = Ref{"pkg/background/gpol/dynamic_watcher.go", 295, "func (wm *WatchManager) CleanupStaleDownstreams("}
	RemoveWatchersForPolicy = Ref{"pkg/background/gpol/dynamic_watcher.go", 342, "func (wm *WatchManager) RemoveWatchersForPolicy("}
	RemoveWatchersFilter    = Ref{"pkg/background/gpol/dynamic_watcher.go", 357, "resource.Labels[common.GeneratePolicyLabel] == policyName"}
	WatchUpdate             = Ref{"pkg/background/gpol/dynamic_watcher.go", 486, "func (wm *WatchManager) handleUpdate("}
	// generator.apply's check that it writes only what it owns.
	GenerateOwnership = Ref{"pkg/cel/libs/context.go", 309, "if !cp.isManagedByPolicy(existing) {"}
)
