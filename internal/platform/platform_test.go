package platform

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

var keys = func() []string {
	out := make([]string, 12)
	for i := range out {
		out[i] = "metadata.key-" + strconv.Itoa(i)
	}
	return out
}()

// A map of a dozen string keys written and read back: a Kubernetes object's
// shape.
func BenchmarkPlatformMapOfStrings(b *testing.B) {
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		m := map[string]any{}
		for _, k := range keys {
			m[k] = k
		}
		for _, k := range keys {
			if m[k] != nil {
				n++
			}
		}
	}
	if n == 0 {
		b.Fatal("no lookups hit")
	}
}

type node struct {
	next *node
	name string
	n    int
}

// Small pointerful allocations, kept in a list: garbage the collector
// must trace.
func BenchmarkPlatformSmallAllocations(b *testing.B) {
	b.ReportAllocs()
	var keep *node
	for b.Loop() {
		var list *node
		for i := range 32 {
			list = &node{next: list, name: keys[i%len(keys)], n: i}
		}
		keep = list
	}
	if keep == nil {
		b.Fatal("nothing allocated")
	}
}

var text = strings.Repeat("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\n  podSelector: {}\n", 40)

// A byte loop over 3 KB of YAML, classifying characters.
func BenchmarkPlatformByteLoop(b *testing.B) {
	n := 0
	for b.Loop() {
		for i := 0; i < len(text); i++ {
			if c := text[i]; c == ':' || c == '{' || c == '\n' || 'A' <= c && c <= 'Z' {
				n++
			}
		}
	}
	if n == 0 {
		b.Fatal("nothing counted")
	}
}

// Sorting 64 strings, as ordered output needs.
func BenchmarkPlatformSortStrings(b *testing.B) {
	b.ReportAllocs()
	in := make([]string, 64)
	for i := range in {
		in[i] = keys[(i*7)%len(keys)] + strconv.Itoa(63-i)
	}
	for b.Loop() {
		s := slices.Clone(in)
		slices.Sort(s)
	}
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}

// A deep copy of a JSON-shaped object of ~30 values.
func BenchmarkPlatformDeepCopy(b *testing.B) {
	b.ReportAllocs()
	obj := map[string]any{"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
		"metadata": map[string]any{"name": "default-deny", "namespace": "team-00001", "uid": "00000000-0000-4000-8000-000000000001",
			"labels": map[string]any{"app.kubernetes.io/managed-by": "kyverno", "generate.kyverno.io/policy-name": "default-deny",
				"generate.kyverno.io/rule-name": "default-deny", "generate.kyverno.io/trigger-kind": "Namespace"}},
		"spec": map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress", "Egress"}}}
	var keep any
	for b.Loop() {
		keep = deepCopy(obj)
	}
	if keep == nil {
		b.Fatal("nothing copied")
	}
}

// fmt formatting a line of text.
func BenchmarkPlatformSprintf(b *testing.B) {
	b.ReportAllocs()
	var s string
	for i := 0; b.Loop(); i++ {
		s = fmt.Sprintf("%s %q was %s at %d", "NetworkPolicy", "default-deny", "recreated", i)
	}
	if s == "" {
		b.Fatal("nothing formatted")
	}
}
