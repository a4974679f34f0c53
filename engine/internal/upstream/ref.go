package upstream

import "fmt"

// Ref is a place in Kyverno's source: a file of the kyverno/kyverno
// repository and its line at each release that has it, with what a reader
// finds there.
type Ref struct {
	Path string // e.g. "pkg/background/gpol/dynamic_watcher.go"
	Text string // a piece of the line, checked against the source by the tests
	// Lines are the line at each release that has it; a release without
	// the code has no entry (the tests check that the text is not there).
	Lines map[Version]int
}

// URL is the line on GitHub at release v; the file when v has no such line.
func (r Ref) URL(v Version) string {
	if line, ok := r.Lines[v]; ok {
		return fmt.Sprintf("https://github.com/kyverno/kyverno/blob/%s/%s#L%d", v, r.Path, line)
	}
	return fmt.Sprintf("https://github.com/kyverno/kyverno/blob/%s/%s", v, r.Path)
}

// Cite is the suffix a reason ends with to point at the code at release v:
// " (Kyverno's code: URL)".
func (r Ref) Cite(v Version) string { return " (Kyverno's code: " + r.URL(v) + ")" }

// The places the timeline's reasons cite.
var (
	// The CEL family's WatchManager (synchronize for GeneratingPolicies).
	SyncWatchers = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) SyncWatchers(",
		map[Version]int{"v1.18.2": 70, "v1.19.0": 75, "v1.19.1": 75}}
	DeleteDownstreamsFilter = Ref{"pkg/background/gpol/dynamic_watcher.go", "resource.Labels[common.GeneratePolicyLabel] == policyName",
		map[Version]int{"v1.18.2": 231, "v1.19.0": 267, "v1.19.1": 298}}
	CleanupStaleDownstreams = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) CleanupStaleDownstreams(",
		map[Version]int{"v1.19.0": 295, "v1.19.1": 317}}
	InvalidateDownstreams = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) InvalidateDownstreams(",
		map[Version]int{"v1.19.1": 271}}
	RemoveWatchersForPolicy = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) RemoveWatchersForPolicy(",
		map[Version]int{"v1.18.2": 255, "v1.19.0": 342, "v1.19.1": 364}}
	RemoveWatchersFilter = Ref{"pkg/background/gpol/dynamic_watcher.go", "resource.Labels[common.GeneratePolicyLabel] == policyName",
		map[Version]int{"v1.18.2": 273, "v1.19.0": 357, "v1.19.1": 379}}
	WatchUpdate = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) handleUpdate(",
		map[Version]int{"v1.18.2": 380, "v1.19.0": 486, "v1.19.1": 508}}
	WatchDelete = Ref{"pkg/background/gpol/dynamic_watcher.go", "func (wm *WatchManager) handleDelete(",
		map[Version]int{"v1.18.2": 466, "v1.19.0": 572, "v1.19.1": 594}}
	// generator.apply's check that it writes only what it owns.
	GenerateOwnership = Ref{"pkg/cel/libs/context.go", "if !cp.isManagedByPolicy(existing) {",
		map[Version]int{"v1.19.0": 309, "v1.19.1": 309}}
)

// refs are the Refs above, by name, for the tests.
var refs = map[string]Ref{
	"SyncWatchers": SyncWatchers, "DeleteDownstreamsFilter": DeleteDownstreamsFilter,
	"CleanupStaleDownstreams": CleanupStaleDownstreams, "InvalidateDownstreams": InvalidateDownstreams,
	"RemoveWatchersForPolicy": RemoveWatchersForPolicy, "RemoveWatchersFilter": RemoveWatchersFilter,
	"WatchUpdate": WatchUpdate, "WatchDelete": WatchDelete, "GenerateOwnership": GenerateOwnership,
}
