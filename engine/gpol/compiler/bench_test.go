package compiler

import (
	"testing"

	"github.com/genplay/genplay/engine/gpol"
)

// benchPolicy is a typical clone policy: a match condition, two variables
// and a generate expression.
const benchSpec = `  matchConditions:
  - name: opt-in
    expression: object.metadata.?labels["sync"].orValue("") == "true"
  variables:
  - name: nsName
    expression: object.metadata.name
  - name: source
    expression: resource.get("v1", "secrets", "default", "regcred")
  generate:
  - expression: >-
      generator.Apply(variables.nsName, [dyn({"apiVersion": "v1", "kind": "Secret",
        "metadata": {"name": "regcred", "namespace": variables.nsName},
        "type": variables.source.type, "data": variables.source.data})])
`

func BenchmarkCompileTypicalPolicy(b *testing.B) {
	p := parsePolicy(b, policyYAML(gpol.KindGeneratingPolicy, benchSpec))
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Compile(p, Options{}); len(diags) > 0 {
			b.Fatal(diags)
		}
	}
}

func BenchmarkEvaluateGenerateExpression(b *testing.B) {
	c, diags := Compile(parsePolicy(b, policyYAML(gpol.KindGeneratingPolicy, benchSpec)), Options{})
	if len(diags) > 0 {
		b.Fatal(diags)
	}
	h := newHost()
	h.put("v1", "secrets", "default", "regcred", map[string]any{"kind": "Secret", "type": "kubernetes.io/dockerconfigjson", "data": map[string]any{".dockerconfigjson": "e30="}})
	b.ReportAllocs()
	for b.Loop() {
		h.generated = h.generated[:0]
		h.calls = h.calls[:0]
		if err := c.Generate(nsInput, h); err != nil {
			b.Fatal(err)
		}
	}
}
