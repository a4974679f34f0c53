package oracle

import (
	"strings"
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
		// Real Kyverno v1.19.0 left a (Namespaced)GeneratingPolicy's
		// synchronized Secret clone as it was when its source changed
		// (recordings chainsaw-ngpol-clone-within-namespace and
		// migrate-event11-...-converted, both runs). Its WatchManager
		// watches the downstream's kind with the background controller's
		// credentials, which Kyverno's chart and e2e install let read Secrets
		// (get, list) but not watch (it reads through Kubernetes' view role,
		// which leaves Secrets out); genplay does not model that the watch is
		// refused, and propagates.
		Name: "A GeneratingPolicy's synchronization needs the background controller to watch",
		Match: func(d Diff, rec *Recording, _ Options) bool {
			// A change not followed (field), a deletion not followed
			// (missing), a deleted copy not recreated (extra, lifecycle).
			if (d.What != "field" && d.What != "missing" && d.What != "extra" && d.What != "lifecycle") || !strings.Contains(rec.Scenario, "GeneratingPolicy") ||
				strings.Contains(rec.Scenario, "watch") || kindOf(d.Key) != "Secret" || d.Step >= len(rec.Runs[0].Steps) ||
				strings.HasPrefix(d.Path, "labels") || strings.HasPrefix(d.Path, "annotations") {
				return false
			}
			// The object is a Kyverno downstream (as real Kyverno last held it).
			for s := d.Step; s >= 0; s-- {
				for _, o := range rec.Runs[0].Steps[s].Objects {
					if o.Key == d.Key {
						labels, _ := o.View["labels"].(map[string]any)
						return labels["app.kubernetes.io/managed-by"] == "kyverno"
					}
				}
			}
			return false
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
