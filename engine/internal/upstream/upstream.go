package upstream

import (
	"fmt"
	"strings"
)

// Release is one Kyverno release genplay simulates.
type Release struct {
	Version Version
	// Date is the release's date (YYYY-MM-DD), its tag's time on the Go module proxy.
	Date string
	// Summary says in one line what the release changed for generate.
	Summary string
}

// The simulated releases.
const (
	V1_18_2 Version = "v1.18.2"
	V1_19_0 Version = "v1.19.0"
	V1_19_1 Version = "v1.19.1"
)

// Latest is the newest simulated release, the default.
const Latest = V1_19_1

// Releases are the releases genplay simulates, oldest first, ending with
// Latest. A release the Go module proxy serves is added here (and as a
// constant above), with its Changes registered where they apply.
var Releases = []Release{
	{Version: V1_18_2, Date: "2026-07-10",
		Summary: "GeneratingPolicy downstreams are deleted and recreated on every trigger update; ClusterPolicy clones outlive their policy"},
	{Version: V1_19_0, Date: "2026-08-20",
		Summary: "trigger updates rewrite GeneratingPolicy downstreams in place; templates, server-side apply and NamespacedGeneratingPolicy end to end; legacy policies are deprecated"},
	{Version: V1_19_1, Date: "2026-09-10",
		Summary: "policy edits update GeneratingPolicy downstreams in place; a twice-deleted downstream is recreated; namespaced policies cannot read the global context"},
}

// Version names a release: "v1.19.1".
type Version string

// Versions lists the releases' versions, oldest first.
func Versions() []Version {
	out := make([]Version, len(Releases))
	for i, r := range Releases {
		out[i] = r.Version
	}
	return out
}

// Parse reads a version as a user writes it: "v1.19.1", "1.19.1", or
// "latest" (and "" for the default).
func Parse(s string) (Version, error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case "", "latest":
		return Latest, nil
	}
	if !strings.HasPrefix(t, "v") {
		t = "v" + t
	}
	for _, r := range Releases {
		if string(r.Version) == t {
			return r.Version, nil
		}
	}
	names := make([]string, len(Releases))
	for i, r := range Releases {
		names[i] = string(r.Version)
	}
	//lint:ignore ST1005 the message begins with the product's name, a proper noun
	return "", fmt.Errorf("Kyverno %s is not simulated: genplay simulates %s (the default is the latest, %s)",
		s, strings.Join(names, ", "), Latest)
}

// index is the release's position in Releases; it panics for a version
// that is not there, which only a broken invariant produces (Parse checks
// what users write, Register what the code declares).
func (v Version) index() int {
	for i, r := range Releases {
		if r.Version == v {
			return i
		}
	}
	panic(fmt.Sprintf("upstream: %q is not a simulated release", string(v)))
}

// known reports whether v is a simulated release.
func (v Version) known() bool {
	for _, r := range Releases {
		if r.Version == v {
			return true
		}
	}
	return false
}

// AtLeast reports whether v is since or a later release.
func (v Version) AtLeast(since Version) bool { return v.index() >= since.index() }

// String implements fmt.Stringer.
func (v Version) String() string { return string(v) }

// Release returns v's release.
func (v Version) Release() Release { return Releases[v.index()] }
