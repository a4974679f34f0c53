package gpol

import (
	"testing"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// FuzzParseGeneratingPolicy checks that reading any input as YAML and then
// as a GeneratingPolicy or PolicyException, validating it, mapping positions
// inside its expressions, matching it and enumerating its triggers never
// panics.
func FuzzParseGeneratingPolicy(f *testing.F) {
	for _, seed := range []string{
		minimal,
		everyField,
		exception,
		"apiVersion: policies.kyverno.io/v1\nkind: GeneratingPolicy\nspec: {generate: [1, {template: {value: 3}}, {expression: \"a\\\n  b\"}], matchConstraints: {resourceRules: [{}, 2]}}\n",
		"apiVersion: policies.kyverno.io/v1alpha1\nkind: NamespacedGeneratingPolicy\nspec: {variables: [{name: a}, {name: a}]}\n",
		"apiVersion: policies.kyverno.io/v1\nkind: GeneratingPolicy\nspec:\n  generate:\n  - template:\n      value: |2-\n         a\n        b\n",
		"apiVersion: policies.kyverno.io/v1\nkind: PolicyException\nmetadata: {labels: {polex.kyverno.io/priority: 9999999999999999999}}\nspec: {policyRefs: {}}\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, _ := source.Parse("fuzz.yaml", data)
		for _, doc := range docs {
			obj, ok := doc.Object()
			if !ok {
				continue
			}
			if e, _ := ParseException(doc, obj); e != nil {
				e.Refers(&Policy{Name: e.Name, Kind: KindGeneratingPolicy})
				for _, mc := range e.MatchConditions {
					positions(mc.Expression)
				}
			}
			p, _ := Parse(doc, obj)
			if p == nil {
				continue
			}
			Validate(p)
			for _, e := range expressions(p) {
				positions(e)
			}
			m := p.Spec.MatchConstraints
			a := Attributes{Operation: admission.OpCreate, Version: "v1", Resource: "pods", Name: "p", Namespace: "ns", Object: obj, OldObject: obj,
				NamespaceLabels: map[string]string{"a": "b"}, Kind: resource.GVK{Version: "v1", Kind: "Pod"}}
			m.Match(a)
			a.Resource, a.Namespace, a.Operation = "namespaces", "", admission.OpDelete
			m.Match(a)
			for _, tt := range m.TriggerTargets() {
				m.TriggerCandidate(tt, obj, func(string) (map[string]string, bool) { return map[string]string{"a": "b"}, true })
			}
			StatusReady("2026-01-01T00:00:00Z", p.Spec.Evaluation.AdmissionEnabled)
		}
	})
}

func expressions(p *Policy) []Expression {
	var out []Expression
	for _, n := range append(p.Spec.MatchConditions, p.Spec.Variables...) {
		out = append(out, n.Expression)
	}
	for _, g := range p.Spec.Generate {
		if g.Expression != nil {
			out = append(out, *g.Expression)
		}
		if g.Template != nil {
			out = append(out, g.Template.Value)
		}
	}
	for _, a := range p.Spec.AuditAnnotations {
		out = append(out, a.ValueExpression)
	}
	return out
}

// positions maps every position of the expression's text, and some past
// it, back to the file.
func positions(e Expression) {
	line, col := 1, 1
	for _, r := range e.Text + "  " {
		e.PosAt(line, col)
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	e.PosAt(0, 0)
	e.PosAt(line+2, -3)
	e.PosAtOffset(-1)
	e.PosAtOffset(len(e.Text) + 5)
}
