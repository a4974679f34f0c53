package migrate

import (
	"strings"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/gpol/compiler"
	"github.com/genplay/genplay/engine/source"
)

// validate runs genplay's validation of a GeneratingPolicy as Kyverno's
// admission does: the CRD schema (gpol.Parse), the policy webhook's
// structural checks (gpol.Validate) and the CEL compilation
// (compiler.Compile). It returns the errors, rendered.
func validate(name, yaml string) []string {
	docs, diags := source.Parse(name, []byte(yaml))
	if diags.HasErrors() {
		return render(diags)
	}
	var out []string
	for _, doc := range docs {
		obj, _ := doc.Object()
		if !gpol.IsPolicyKind(obj) {
			continue
		}
		p, d := gpol.Parse(doc, obj)
		if d.HasErrors() || p == nil {
			out = append(out, render(d)...)
			continue
		}
		if p.Namespaced() && p.Namespace == "" {
			p.Namespace = "default"
		}
		if d := gpol.Validate(p); d.HasErrors() {
			out = append(out, render(d)...)
			continue
		}
		if _, d := compiler.Compile(p, compiler.Options{}); d.HasErrors() {
			out = append(out, render(d)...)
		}
	}
	return out
}

func render(d source.Diagnostics) []string {
	var out []string
	for _, e := range d.Errors() {
		out = append(out, strings.TrimSpace(e.Error()))
	}
	return out
}
