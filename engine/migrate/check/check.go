// Package check validates converted GeneratingPolicies the way Kyverno's
// admission does in genplay: the CRD schema (gpol.Parse), the policy
// webhook's structural checks (gpol.Validate) and the CEL compilation
// (compiler.Compile). It is apart from package migrate so that the
// converter itself stays free of cel-go.
package check

import (
	"strings"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/gpol/compiler"
	"github.com/genplay/genplay/engine/source"
)

// Policies validates every GeneratingPolicy and NamespacedGeneratingPolicy
// of a YAML text and returns the errors, rendered "file:line:col: message".
// A NamespacedGeneratingPolicy without a namespace is checked in "default".
func Policies(file, yaml string) []string {
	docs, diags := source.Parse(file, []byte(yaml))
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
