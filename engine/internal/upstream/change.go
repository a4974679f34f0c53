package upstream

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Change is one behaviour change between two releases, declared once, next
// to the code that behaves one way or the other (Register in a package
// variable), with the pull request or commit that made it. The code asks
// c.In(v) of the simulated version; the timeline events it decides carry
// c.ID (timeline.Event.VersionChanges), so that a comparison of releases can
// say which change explains a step that differs.
type Change struct {
	// ID is the pull request that made the change, "kyverno#16920", or a
	// commit, "kyverno@abc1234".
	ID string
	// Since is the first release that behaves the new way.
	Since Version
	// Family is who it concerns: FamilyCEL, FamilyLegacy or FamilyBoth.
	Family string
	// Title names the change in a few words.
	Title string
	// Before and After say what releases before Since and from Since on
	// do, as predicates of a plural subject: "delete and recreate ...".
	Before, After string
	// Files are Kyverno's source files that changed, at Since.
	Files []string
}

// Families a change concerns.
const (
	FamilyCEL    = "GeneratingPolicy"
	FamilyLegacy = "ClusterPolicy/Policy"
	FamilyBoth   = "both families"
)

var (
	mu       sync.Mutex
	registry = map[string]*Change{}
)

// Register records a change and returns it, for a package variable next to
// the behaviour it switches. One pull request may change both families:
// each family registers its part under the same ID. A change registered
// twice for one family, or since a release genplay does not simulate, is a
// broken invariant: it panics when the package is initialised, so every
// test catches it.
func Register(c Change) *Change {
	mu.Lock()
	defer mu.Unlock()
	if !c.Since.known() {
		panic(fmt.Sprintf("upstream: change %s is since %q, not a simulated release", c.ID, string(c.Since)))
	}
	if c.Since.index() == 0 {
		panic(fmt.Sprintf("upstream: change %s is since the oldest simulated release %s: nothing simulated behaves the old way", c.ID, c.Since))
	}
	key := c.ID + "|" + c.Family
	if _, dup := registry[key]; dup {
		panic(fmt.Sprintf("upstream: change %s is registered twice for %s", c.ID, c.Family))
	}
	if c.ID == "" || c.Title == "" || c.Before == "" || c.After == "" || c.Family == "" {
		panic(fmt.Sprintf("upstream: change %q is missing its ID, title, family or what it changed", c.ID))
	}
	p := &c
	registry[key] = p
	return p
}

// Changes returns every registered change, by release and then by ID. Only
// the changes of the packages linked into the program are there (a build
// without the CEL family has none of that family's).
func Changes() []*Change {
	mu.Lock()
	defer mu.Unlock()
	out := make([]*Change, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := out[i].Since.index(), out[j].Since.index(); a != b {
			return a < b
		}
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].Family < out[j].Family
	})
	return out
}

// In reports whether release v behaves the new way.
func (c *Change) In(v Version) bool { return v.AtLeast(c.Since) }

// Says is the change in one clause both ways, for a reason that depends on
// the release: "Kyverno v1.19.0 and earlier delete and recreate them;
// v1.19.1 and later update them in place (kyverno#16920)". The change
// came with Since, so every release before it behaves the old way.
func (c *Change) Says() string {
	prev := Releases[c.Since.index()-1].Version
	return fmt.Sprintf("Kyverno %s and earlier %s; %s and later %s (%s)", prev, c.Before, c.Since, c.After, c.ID)
}

// URL is where the change is described: its pull request, or its commit.
func (c *Change) URL() string {
	repo, ref, ok := strings.Cut(c.ID, "#")
	if ok {
		return "https://github.com/kyverno/" + repo + "/pull/" + ref
	}
	repo, ref, _ = strings.Cut(c.ID, "@")
	return "https://github.com/kyverno/" + repo + "/commit/" + ref
}
