package compiler

import (
	"testing"

	"github.com/genplay/genplay/engine/gpol"
)

// FuzzCompileAndEvaluate compiles arbitrary text as a generate expression
// and a template placeholder of a cluster and a namespaced policy and
// evaluates what compiles: no panic, and the cost budget ends every run.
func FuzzCompileAndEvaluate(f *testing.F) {
	for _, s := range []string{
		`generator.apply("ns", [{"kind": "ConfigMap", "metadata": {"name": object.metadata.name}}])`,
		`generator.apply([resource.list("v1", "secrets")])`,
		`object.metadata.?labels["x"].orValue("") == "true"`,
		`lists.range(1000).map(i, lists.range(1000).map(j, i * j)).size() > 0`,
		`random("[a-z]{1,20}") != string(time.now())`,
		`image(object.metadata.name).registry() == "x"`,
		`quantity("1Gi").add(1).isInteger() && ip("::1").family() == 6`,
		`json.unmarshal(json.marshal(object)) == object`,
		`yaml.parse("a: [1, 2]").a.sum() == 3`,
		`cel.bind(s, "ab", s + s + s + s).size() > 0`,
		`gzip.decompress(gzip.compress("x")) == "x"`,
		`x509.decode("")`, `http.get("x")`, `globalContext.get("a", "b")`,
		`"a,b".split(",").indexOf("b") == 1`,
		`((((`, `"\u00e9" + 1`, `[1, 2][5]`, `1 / 0 == 1`, `{}.a.b.c`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 2000 {
			return
		}
		for _, kind := range []string{gpol.KindGeneratingPolicy, gpol.KindNamespacedGeneratingPolicy} {
			p := &gpol.Policy{Kind: kind, Name: "p", Namespace: "team", Spec: gpol.Spec{
				Variables: []gpol.NamedExpression{{Name: "v", Expression: gpol.Expression{Text: text, Path: "spec.variables[0].expression"}}},
				Generate: []gpol.Generation{
					{Template: &gpol.Template{Interpolate: "cel", Value: gpol.Expression{
						Text: "kind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: ((" + text + "))\n", Path: "spec.generate[0].template.value"}}},
				},
			}}
			if kind == gpol.KindGeneratingPolicy {
				p.Namespace = ""
			}
			compiled, diags := Compile(p, Options{CostLimit: 100_000})
			for _, d := range diags {
				if d.Message == "" {
					t.Fatalf("a diagnostic without a message for %q", text)
				}
			}
			if compiled == nil {
				continue
			}
			h := newHost()
			h.put("v1", "secrets", "team", "s", map[string]any{"kind": "Secret"})
			_ = compiled.Generate(nsInput, h)
			_, _ = compiled.Match(nsInput, h)
		}
	})
}
