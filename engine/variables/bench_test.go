package variables

import (
	"testing"

	"github.com/genplay/genplay/engine/resource"
)

// benchData is shaped like a generate rule's data: nested maps, a list and
// one variable, most strings without any.
func benchData() map[string]any {
	return map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"owner": "{{request.object.metadata.name}}"}},
		"spec": map[string]any{
			"podSelector": map[string]any{"matchLabels": map[string]any{"rev": "0"}},
			"policyTypes": []any{"Ingress", "Egress"},
		},
	}
}

func benchContext() map[string]any {
	obj := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}}
	return map[string]any{"request": map[string]any{"operation": "CREATE", "object": map[string]any(obj), "name": "team-a"}}
}

func BenchmarkSubstitute(b *testing.B) {
	e := New(Options{})
	ctx, data := benchContext(), benchData()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Substitute(ctx, data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSubstitutePlainString(b *testing.B) {
	e := New(Options{})
	ctx := benchContext()
	var s any = "networking.k8s.io/v1"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.Substitute(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkNew(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		New(Options{})
	}
}
