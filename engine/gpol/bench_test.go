package gpol

import (
	"testing"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/source"
)

func BenchmarkParse(b *testing.B) {
	docs, diags := source.Parse("policy.yaml", []byte(everyField))
	if len(diags) > 0 || len(docs) != 1 {
		b.Fatal(diags)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, diags := Parse(docs[0], nil); len(diags) > 0 {
			b.Fatal(diags)
		}
	}
}

// BenchmarkMatch is the engine's check of one request against a policy
// with both selectors: a match, and a miss with its reason.
func BenchmarkMatch(b *testing.B) {
	m := &MatchResources{
		ResourceRules:     []ResourceRule{rule(core, v1, pods, crUp)},
		NamespaceSelector: &LabelSelector{MatchLabels: map[string]string{"env": "prod"}},
		ObjectSelector:    &LabelSelector{MatchExpressions: []Requirement{{Key: "app", Operator: "Exists"}}},
	}
	hit := podCreate("team-a", "web", map[string]any{"app": "web"})
	hit.NamespaceLabels = map[string]string{"env": "prod"}
	miss := hit
	miss.Operation = admission.OpDelete
	b.Run("match", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ok, _ := m.Match(hit); !ok {
				b.Fatal("no match")
			}
		}
	})
	b.Run("miss", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if ok, _ := m.Match(miss); ok {
				b.Fatal("match")
			}
		}
	})
}
