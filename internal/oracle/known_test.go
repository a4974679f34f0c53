package oracle

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
