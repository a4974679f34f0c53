package gpol

import (
	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/source"
)

// MatchConstraintsRequired is the message of Kyverno's policy webhook for a
// policy without resource rules.
const MatchConstraintsRequired = "spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required"

// Validate runs the structural checks of Kyverno's policy webhook
// (validate-policy.kyverno.svc) that need no CEL: a matchConstraints with
// at least one resource rule. It expects a policy Parse accepted; the CRD
// schema checks are Parse's, the CEL compilation is engine/gpol/compiler's.
func Validate(p *Policy) source.Diagnostics {
	d := &diags{Diags: schema.Diags{Doc: p.Source, File: p.File}}
	if mc := p.Spec.MatchConstraints; mc == nil || len(mc.ResourceRules) == 0 {
		at := schema.Path{"spec", "matchConstraints"}
		if mc != nil {
			at = at.Key("resourceRules")
		}
		d.Errorf(at, "%s", MatchConstraintsRequired)
	}
	return d.Result()
}
