package source

import (
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// markerPos finds the 1-based line and column of the only X in text.
func markerPos(t *testing.T, text string) (int, int) {
	t.Helper()
	require.Equal(t, 1, strings.Count(text, "X"), "the text must hold exactly one X")
	before := text[:strings.Index(text, "X")]
	line := strings.Count(before, "\n") + 1
	col := len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1
	return line, col
}

func TestScalarPosAtMapsAColumnInsideTheValueToTheFile(t *testing.T) {
	tests := []struct {
		name string
		yaml string
	}{
		{"a plain scalar", "spec:\n  expression: object.metadata.X == 'a'\n"},
		{"a plain scalar folded over lines", "spec:\n  expression: object.metadata.name\n    == 'a' && X\n"},
		{"a single-quoted scalar", "spec:\n  expression: 'object.metadata.X'\n"},
		{"a single-quoted scalar with a doubled quote", "spec:\n  expression: 'object[''a''] == X'\n"},
		{"a single-quoted scalar over lines", "spec:\n  expression: 'a &&\n    b && X'\n"},
		{"a double-quoted scalar", "spec:\n  expression: \"object.metadata.X\"\n"},
		{"a double-quoted scalar with escapes", "spec:\n  expression: " + `"a == \"\u00e9\t\\\" && X"` + "\n"},
		{"a double-quoted scalar with an escaped line break", "spec:\n  expression: \"a &&\\\n    b && X\"\n"},
		{"a double-quoted scalar over lines", "spec:\n  expression: \"a &&\n\n    X\"\n"},
		{"a literal block", "spec:\n  expression: |\n    a &&\n      b &&\n    X\n"},
		{"a literal block with a strip indicator", "spec:\n  expression: |-\n    a\n    && X\n"},
		{"a literal block with keep and a comment", "spec:\n  expression: |+ # keep\n    a\n\n    && X\n\n"},
		{"a literal block with an indentation indicator", "spec:\n  expression: |2\n      a\n    X\n"},
		{"a literal block indicator before chomping", "spec:\n  expression: |2-\n      a\n    X\n"},
		{"a folded block", "spec:\n  expression: >\n    a &&\n    b &&\n    X\n"},
		{"a folded block with more-indented lines", "spec:\n  expression: >-\n    a\n      b\n\n    c X\n"},
		{"a sequence entry", "list:\n- first\n- >-\n  [\n    X\n  ]\n"},
		{"a tagged scalar", "spec:\n  expression: !!str object.X\n"},
		{"an anchored block", "spec:\n  expression: &e |\n    a\n    X\n"},
		{"a non-ASCII text", "spec:\n  expression: ö == \"é\" + 'ü' + X\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc := parseOne(t, tc.yaml)
			path := []any{"spec", "expression"}
			if strings.HasPrefix(tc.yaml, "list:") {
				path = []any{"list", 1}
			}
			s := doc.Scalar(path...)
			require.NotNil(t, s)
			vl, vc := markerPos(t, s.Value())
			fl, fc := markerPos(t, tc.yaml)
			assert.Equal(t, Pos{File: "in.yaml", Line: fl, Col: fc}, s.PosAt(vl, vc), "value %q", s.Value())
		})
	}
}

func TestScalarPosAtTheStartIsTheFirstCharacter(t *testing.T) {
	doc := parseOne(t, "spec:\n  a: |\n    first\n  b: 'x'\n  c: plain\n")
	assert.Equal(t, Pos{File: "in.yaml", Line: 3, Col: 5}, doc.Scalar("spec", "a").PosAt(1, 1), "a block starts on its first content line")
	assert.Equal(t, Pos{File: "in.yaml", Line: 4, Col: 7}, doc.Scalar("spec", "b").PosAt(1, 1), "a quoted scalar starts after its quote")
	assert.Equal(t, Pos{File: "in.yaml", Line: 5, Col: 6}, doc.Scalar("spec", "c").PosAt(1, 1))
	assert.Equal(t, Pos{File: "in.yaml", Line: 4, Col: 6}, doc.Scalar("spec", "b").Pos(), "Pos is where the node starts")
}

func TestScalarPosAtPastTheEndIsJustAfterTheLastCharacter(t *testing.T) {
	doc := parseOne(t, "spec:\n  expression: a.b(\n")
	assert.Equal(t, Pos{File: "in.yaml", Line: 2, Col: 19}, doc.Scalar("spec", "expression").PosAt(1, 5))
	assert.Equal(t, Pos{File: "in.yaml", Line: 2, Col: 19}, doc.Scalar("spec", "expression").PosAt(1, 50))
}

func TestScalarIsNilForWhatIsNotAScalar(t *testing.T) {
	doc := parseOne(t, "spec:\n  m: {a: 1}\n  l: [1]\n  anchor: &x text\n  alias: *x\n")
	assert.Nil(t, doc.Scalar("spec", "m"))
	assert.Nil(t, doc.Scalar("spec", "l"))
	assert.Nil(t, doc.Scalar("spec", "missing"))
	assert.Nil(t, doc.Scalar("spec", "alias"), "an alias has no text of its own")
	assert.NotNil(t, doc.Scalar("spec", "anchor"))
	var none *Document
	assert.Nil(t, none.Scalar("spec"))
}

func TestScalarOfASubDocumentMapsIntoTheWholeFile(t *testing.T) {
	doc := parseOne(t, "steps:\n- apply:\n    resource:\n      spec:\n        expression: a && X\n")
	sub := doc.Sub("steps", 0, "apply", "resource")
	s := sub.Scalar("spec", "expression")
	require.NotNil(t, s)
	assert.Equal(t, Pos{File: "in.yaml", Line: 5, Col: 26}, s.PosAt(1, 6))
}

// TestScalarPosAtIsTheSameInAnyOrder: a scalar remembers where its last
// answer left the walk over its text; asked in increasing, decreasing or
// repeated order it answers what a fresh scalar answers, and positions
// asked one after the other cost one pass in all (a template with 2,000
// placeholders in one 60 KB block took seconds when each re-read the text).
func TestScalarPosAtIsTheSameInAnyOrder(t *testing.T) {
	for _, y := range []string{
		"a: |\n  x: ((o))\n  y: 'é'\n\n  z: ((p))\n",
		"a: >-\n  one\n    two\n\n  three\n",
		"a: \"q\\t\\u00e9 r\\\n   s\"\n",
		"a: 'it''s\n  here'\n",
		"a: plain words\n",
	} {
		docs, _ := Parse("in.yaml", []byte(y))
		require.NotEmpty(t, docs)
		s := docs[0].Scalar("a")
		require.NotNil(t, s, "%q", y)
		n := utf8.RuneCountInString(s.Value()) + 2
		want := make([]Pos, n)
		for i := range n {
			fresh := docs[0].Scalar("a")
			want[i] = fresh.PosAtOffset(i)
		}
		order := []int{}
		for i := range n {
			order = append(order, i, i)
		}
		for i := n - 1; i >= 0; i-- {
			order = append(order, i)
		}
		for _, i := range append(order, 0, n-1, n/2, 1) {
			assert.Equal(t, want[i], s.PosAtOffset(i), "%q at %d", y, i)
		}
	}
	var b strings.Builder
	b.WriteString("a: |\n")
	for i := range 2000 {
		b.WriteString("  k" + strconv.Itoa(i) + ": (( object.data.big ))\n")
	}
	docs, _ := Parse("in.yaml", []byte(b.String()))
	allocs := testing.AllocsPerRun(1, func() {
		s := docs[0].Scalar("a")
		for i := 0; i < len(s.Value()); i += 30 {
			_ = s.PosAtOffset(i)
		}
	})
	assert.Less(t, allocs, 100.0, "the text is read once")
}

func TestScalarPosAtNeverPanicsOnOddInput(t *testing.T) {
	for _, y := range []string{"a: \"\\x4\"\n", "a: \"\\\n\"\n", "a: |\n\n", "a: >\n  \t x\n", "a: '''\n", "a: \"\\U0001F600\"\n"} {
		docs, _ := Parse("in.yaml", []byte(y))
		for _, d := range docs {
			if s := d.Scalar("a"); s != nil {
				for l := 0; l < 3; l++ {
					for c := -1; c < 6; c++ {
						_ = s.PosAt(l, c)
					}
				}
			}
		}
	}
}

// FuzzScalarPosAt checks that mapping any position of any scalar of any
// input never panics and lands inside the file, at or after the scalar's
// start; for a value character that the file holds as written, on that
// very character.
func FuzzScalarPosAt(f *testing.F) {
	for _, seed := range []string{
		"a: plain text\n", "a: 'it''s'\n", "a: \"x\\ty\\u00e9\\\n  z\"\n", "a: |2-\n   x\n  y\n", "a: >+\n  p\n\n  q\n\n",
		"- |\n  a\n- >\n  b\n  c\n", "a: \"\\U0001F600 \\x41\"\n",
		"a:\r 0\n", "a: b\u00850: 0\n", "a: b\u2028c: 'd'\r\ne: |\r  f\r\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		docs, _ := Parse("in.yaml", data)
		text := yamlLines(data) // positions number lines as the parser does
		lines := strings.Count(string(text), "\n") + 1
		for _, d := range docs {
			var paths [][]any
			switch v := d.Value.(type) {
			case map[string]any:
				for k := range v {
					paths = append(paths, []any{k})
				}
			case []any:
				for i := range v {
					paths = append(paths, []any{i})
				}
			}
			for _, p := range paths {
				s := d.Scalar(p...)
				if s == nil {
					continue
				}
				start := s.Pos()
				n := 0
				for range s.Value() {
					n++
				}
				for off := -1; off <= n+1; off++ {
					pos := s.PosAtOffset(off)
					if pos.Line < start.Line || pos.Line > max(lines, start.Line) {
						t.Fatalf("offset %d of %q maps to line %d, outside %d..%d", off, s.Value(), pos.Line, start.Line, lines)
					}
				}
				if s.style == yaml.DoubleQuotedStyle {
					continue // escapes stand for other characters
				}
				for off, r := range []rune(s.Value()) {
					if r == ' ' || r == '\n' || r == '\'' || r == '\t' || r == '\r' {
						continue
					}
					pos := s.PosAtOffset(off)
					b, ok := byteOffset(text, pos.Line, pos.Col)
					if !ok {
						t.Fatalf("offset %d of %q maps to %v, not in the file", off, s.Value(), pos)
					}
					if keptBreak(r) {
						r = '\n' // LS and PS stay in the value; the text holds them as line breaks
					}
					if got, _ := utf8.DecodeRune(text[b:]); got != r {
						t.Fatalf("offset %d of %q (%q) maps to %v, which holds %q", off, s.Value(), r, pos, got)
					}
				}
			}
		}
	})
}
