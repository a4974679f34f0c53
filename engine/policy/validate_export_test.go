package policy

import (
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/source"
)

// Validate is ValidateAt as the latest release does it, for the tests.
func Validate(p *Policy, kinds KindResolver) source.Diagnostics {
	diags, _ := ValidateAt(p, kinds, upstream.Latest)
	return diags
}
