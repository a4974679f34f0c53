package oracle

import (
	"strings"

	"github.com/genplay/genplay/engine"
)

// KnownDifference is a way genplay knowingly differs from a real cluster
// with Kyverno, as engine/doc.go lists it: Name is a phrase of that list
// (a test checks it is there), and Match tells a difference it explains.
type KnownDifference struct {
	Name  string
	Match func(d Diff, rec *Recording, opts Options) bool
}

// Known are the known differences a comparison may meet.
var KnownDifferences = []KnownDifference{
	{
		// Real API servers default fields of many kinds (a Secret's type, a
		// NetworkPolicy's policyTypes, a Service's ports); genplay's
		// defaults only what generate rules observe. A field only the real
		// object has is that; a field both have and that differs is not.
		Name:  "The API server's defaulting is limited",
		Match: func(d Diff, _ *Recording, _ Options) bool { return d.What == "defaulted" },
	},
	{
		// Real Kyverno v1.19.0 left a NamespacedGeneratingPolicy's clone
		// as it was when its source changed (recording
		// chainsaw-ngpol-clone-within-namespace, both runs); genplay
		// propagates the change as for a GeneratingPolicy. Not fixed yet:
		// the cause is not read in Kyverno's code (GENERATING-POLICY.md
		// §3.6's policy-key mismatch is the likely one).
		Name: "a NamespacedGeneratingPolicy's clone does not follow its source",
		Match: func(d Diff, rec *Recording, _ Options) bool {
			if d.What != "field" || !strings.Contains(rec.Scenario, "kind: NamespacedGeneratingPolicy") || d.Step >= len(rec.Runs[0].Steps) {
				return false
			}
			for _, o := range rec.Runs[0].Steps[d.Step].Objects {
				if o.Key == d.Key {
					labels, _ := o.View["labels"].(map[string]any)
					_, clone := labels["generate.kyverno.io/source-uid"]
					return clone && !strings.HasPrefix(d.Path, "labels") && !strings.HasPrefix(d.Path, "annotations")
				}
			}
			return false
		},
	},
	{
		// genplay simulates v1.19.0, which deletes and recreates every
		// tracked downstream of a GeneratingPolicy whose spec changes;
		// v1.19.1 invalidates them and updates them in place (kyverno#16920).
		Name: "Kyverno v1.19.1 updates a GeneratingPolicy's downstreams in place",
		Match: func(d Diff, rec *Recording, opts Options) bool {
			return opts.Version == "v1.19.1" && !simulated(opts) && rec.Family != "policy" &&
				d.What == "lifecycle" && d.Genplay == Recreated && d.Real == "kept"
		},
	},
}

// explain names the known difference that explains d, or "".
func explain(d Diff, rec *Recording, opts Options) string {
	for _, k := range KnownDifferences {
		if k.Match(d, rec, opts) {
			return k.Name
		}
	}
	return ""
}

// simulated reports whether genplay simulates the recording's version.
func simulated(opts Options) bool {
	return opts.Version == "" || strings.EqualFold(opts.Version, engine.KyvernoVersion)
}
