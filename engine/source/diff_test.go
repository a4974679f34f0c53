package source

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// diffLinePool is small so that generated texts share many lines, which is
// what exercises the matcher's tie-breaking; it has an empty line, a CR-only
// line and lines that differ only by their end.
var diffLinePool = []string{
	"apiVersion: v1", "kind: ConfigMap", "metadata:", "  name: x", "  name: y",
	"  labels:", "    app: web", "spec:", "  - a", "  - b", "", "\r", "data: {}",
	"a", "a ", " a", "x: 1", "x: 2",
}

// randomLines returns n lines drawn from the pool (or made unique), each
// ended by "\n" or, in a CRLF text, "\r\n".
func randomLines(r *rand.Rand, n int, crlf bool) []string {
	lines := make([]string, n)
	for i := range lines {
		l := diffLinePool[r.IntN(len(diffLinePool))]
		if r.IntN(8) == 0 {
			l = fmt.Sprintf("unique-%d", r.Int())
		}
		if crlf || r.IntN(20) == 0 {
			l += "\r"
		}
		lines[i] = l + "\n"
	}
	return lines
}

// editLines applies up to k random deletions, insertions, replacements and
// moves to a copy of lines.
func editLines(r *rand.Rand, lines []string, k int, crlf bool) []string {
	out := append([]string(nil), lines...)
	for range r.IntN(k + 1) {
		switch op := r.IntN(4); {
		case op == 0 && len(out) > 0:
			i := r.IntN(len(out))
			out = append(out[:i], out[i+1:]...)
		case op == 1:
			i := r.IntN(len(out) + 1)
			out = append(out[:i], append(randomLines(r, 1+r.IntN(3), crlf), out[i:]...)...)
		case op == 2 && len(out) > 0:
			out[r.IntN(len(out))] = randomLines(r, 1, crlf)[0]
		case op == 3 && len(out) > 1:
			i, j := r.IntN(len(out)), r.IntN(len(out))
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

// joinText joins lines, sometimes dropping the final newline.
func joinText(r *rand.Rand, lines []string) []byte {
	s := strings.Join(lines, "")
	if s != "" && r.IntN(4) == 0 {
		s = strings.TrimSuffix(strings.TrimSuffix(s, "\n"), "\r")
	}
	return []byte(s)
}

// diffPairs are generated (a, b) pairs covering the shapes Diff meets and
// its edge cases.
func diffPairs(r *rand.Rand) [][2][]byte {
	var pairs [][2][]byte
	add := func(a, b []byte) { pairs = append(pairs, [2][]byte{a, b}) }
	add(nil, nil)
	add(nil, []byte{})
	add([]byte("x"), nil)
	add(nil, []byte("x"))
	add([]byte("\n"), nil)
	add([]byte("x"), []byte("x\n"))
	add([]byte("x\r\n"), []byte("x\n"))
	add([]byte("\n\n\n"), []byte("\n\n"))
	for range 3000 {
		crlf := r.IntN(5) == 0
		a := randomLines(r, r.IntN(45), crlf)
		var b []string
		switch r.IntN(10) {
		case 0:
			b = nil // deleted
		case 1:
			a, b = nil, a // created
		case 2:
			b = a // identical, perhaps but for the final newline
		case 3:
			b = randomLines(r, r.IntN(45), crlf) // unrelated
		default:
			b = editLines(r, a, 1+r.IntN(8), crlf)
		}
		add(joinText(r, a), joinText(r, b))
	}
	// Texts whose changed middles match in more lines than a byte counts,
	// or just fewer.
	for _, n := range []int{254, 255, 256, 300} {
		a := make([]string, n)
		for i := range a {
			a[i] = fmt.Sprintf("%d\n", i)
		}
		b := append([]string(nil), a...)
		b[0], b[n-1], b[n/2] = "first\n", "last\n", "middle\n"
		add([]byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
		b = append(b, "more\n")
		add([]byte(strings.Join(a, "")), []byte(strings.Join(b, "")))
	}
	// Long texts: one whose changed middle is exactly maxDiffCells lines
	// squared (still matched) and one just beyond (shown as removed and
	// re-added), with common lines around them.
	for _, n := range []int{2048, 2049} {
		common := randomLines(r, 10, false)
		am, bm := make([]string, n), make([]string, n)
		for i := range n {
			am[i] = fmt.Sprintf("a%d\n", i%7)
			bm[i] = fmt.Sprintf("b%d\n", i)
		}
		am[0], bm[n-1] = "first\n", "last\n"
		bm[n/2] = am[n/3]
		text := func(mid []string) []byte {
			return []byte(strings.Join(common, "") + strings.Join(mid, "") + strings.Join(common, ""))
		}
		add(text(am), text(bm))
	}
	return pairs
}

func TestDiffMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i, p := range diffPairs(r) {
		a, b := p[0], p[1]
		want := referenceDiff("before", "after", a, b)
		got, size := diff("before", "after", a, b)
		if got != want {
			t.Fatalf("pair %d: Diff(%q, %q)\n got %q\nwant %q", i, a, b, got, want)
		}
		if len(got) != size {
			t.Fatalf("pair %d: Diff(%q, %q) is %d bytes, computed %d", i, a, b, len(got), size)
		}
	}
}

// TestDiffAllocatesOnlyItsResult checks that the diffs the timeline shows
// most, of created, deleted and slightly edited objects, allocate nothing
// but their result.
func TestDiffAllocatesOnlyItsResult(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage counters change allocations")
	}
	for _, c := range benchDiffs() {
		t.Run(c.name, func(t *testing.T) {
			allocs := testing.AllocsPerRun(20, func() { Diff("before", "after", c.a, c.b) })
			if allocs != 1 {
				t.Errorf("Diff allocates %v times, want 1", allocs)
			}
		})
	}
}

func FuzzDiffMatchesReference(f *testing.F) {
	f.Add([]byte(""), []byte("a: 1\nb: 2\n"))
	f.Add([]byte("a: 1\nb: 2\n"), []byte(""))
	f.Add([]byte("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"), []byte("1\n2\nX\n4\n5\n6\n7\n8\n9\n10\n11\nY\n13\n"))
	f.Add([]byte("x\r\ny\r\n"), []byte("x\r\nz"))
	f.Add([]byte("a\nb\na\nb\n"), []byte("b\na\nb\na"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		want := referenceDiff("a.yaml (before)", "a.yaml (after)", a, b)
		got, size := diff("a.yaml (before)", "a.yaml (after)", a, b)
		if got != want {
			t.Fatalf("Diff(%q, %q)\n got %q\nwant %q", a, b, got, want)
		}
		if len(got) != size {
			t.Fatalf("Diff(%q, %q) is %d bytes, computed %d", a, b, len(got), size)
		}
	})
}

// benchYAML is a rendering like the engine diffs: a generated
// NetworkPolicy of about 25 lines.
const benchYAML = `apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata:
  labels:
    app.kubernetes.io/managed-by: kyverno
    generate.kyverno.io/policy-name: add-networkpolicy
    generate.kyverno.io/policy-namespace: ""
    generate.kyverno.io/rule-name: default-deny
    generate.kyverno.io/source-group: ""
    generate.kyverno.io/source-kind: Namespace
    generate.kyverno.io/source-namespace: ""
    generate.kyverno.io/source-uid: 00000000-0000-0000-0000-000000000042
    generate.kyverno.io/source-version: v1
    generate.kyverno.io/trigger-group: ""
    generate.kyverno.io/trigger-kind: Namespace
  name: default-deny
  namespace: team-00042
  resourceVersion: "1234"
  uid: 00000000-0000-0000-0000-000000001234
spec:
  podSelector: {}
  policyTypes:
  - Ingress
  - Egress
`

type benchDiff struct {
	name string
	a, b []byte
}

// benchDiffs are the diffs the timeline shows most: of a created, a deleted
// and an updated object.
func benchDiffs() []benchDiff {
	edited := strings.Replace(benchYAML, `"1234"`, `"1240"`, 1)
	return []benchDiff{
		{"created", nil, []byte(benchYAML)},
		{"deleted", []byte(benchYAML), nil},
		{"edited", []byte(benchYAML), []byte(strings.Replace(edited, "  - Egress\n", "", 1))},
		// Changed at both ends of a block of 15 lines, like a recreated
		// object's creationTimestamp and uid.
		{"edited apart", []byte(benchYAML), []byte(strings.Replace(edited, "managed-by: kyverno", "managed-by: other", 1))},
	}
}

func BenchmarkDiff(b *testing.B) {
	for _, c := range benchDiffs() {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Diff("networking.k8s.io/v1/NetworkPolicy team-00042/default-deny (before)", "networking.k8s.io/v1/NetworkPolicy team-00042/default-deny (after)", c.a, c.b)
			}
		})
	}
}
