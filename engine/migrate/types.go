package migrate

import (
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Finding kinds.
const (
	// Unconverted: a piece of the policy that has no faithful CEL form. It
	// is left out of (or kept literally in) the output, and reported here.
	Unconverted = "unconverted"
	// Note: converted faithfully, but Kyverno's two families behave
	// differently here (the semantics documents say where).
	Note = "note"
)

// Statuses of a converted rule or policy.
const (
	Full    = "full"    // everything converted faithfully
	Partial = "partial" // converted, with unconverted pieces reported
	None    = "none"    // no GeneratingPolicy could be produced
)

// Finding is one thing the user must know about the conversion, at the line
// of the source policy it concerns.
type Finding struct {
	Pos    source.Pos
	Policy string // the source policy's key: "ClusterPolicy/name"
	Rule   string // "" for policy-level findings
	// Field is the source field, relative to the rule when Rule is set:
	// "generate.data", "preconditions.any[0]", "spec.applyRules".
	Field   string
	Kind    string // Unconverted or Note
	Message string
	// Recipe is how to do it by hand, when there is a way.
	Recipe string
}

// Rule is one generate rule converted to one GeneratingPolicy.
type Rule struct {
	Rule   string
	Status string
	// Name is the GeneratingPolicy's name; empty when Status is None.
	Name string
	// YAML is the GeneratingPolicy, with comments naming the origin of
	// each piece; empty when Status is None.
	YAML string
	// Object is YAML decoded.
	Object resource.Object
}

// Policy is the conversion of one ClusterPolicy or Policy.
type Policy struct {
	Key    string
	Pos    source.Pos
	Status string
	Rules  []Rule
	// Kept is the source policy reduced to its rules of other types
	// (validate, mutate, verifyImages), which stay a ClusterPolicy/Policy;
	// nil when it had none.
	Kept     resource.Object
	KeptYAML string
}

// Objects returns what replaces the source policy in a cluster: the
// converted GeneratingPolicies, then the kept policy if any.
func (p *Policy) Objects() []resource.Object {
	var out []resource.Object
	for _, r := range p.Rules {
		if r.Object != nil {
			out = append(out, r.Object)
		}
	}
	if p.Kept != nil {
		out = append(out, p.Kept)
	}
	return out
}

// YAML joins the documents of Objects, in the same order.
func (p *Policy) YAML() string {
	var parts []string
	for _, r := range p.Rules {
		if r.YAML != "" {
			parts = append(parts, r.YAML)
		}
	}
	if p.KeptYAML != "" {
		parts = append(parts, p.KeptYAML)
	}
	return joinDocs(parts)
}

func joinDocs(parts []string) string {
	out := ""
	for i, p := range parts {
		if i > 0 {
			out += "---\n"
		}
		out += p
	}
	return out
}

// worst combines statuses: None only when every part is None.
func combine(statuses []string) string {
	if len(statuses) == 0 {
		return None
	}
	full, none := true, true
	for _, s := range statuses {
		full = full && s == Full
		none = none && s == None
	}
	switch {
	case full:
		return Full
	case none:
		return None
	}
	return Partial
}
