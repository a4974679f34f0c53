package source

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func parseOne(t *testing.T, text string) *Document {
	t.Helper()
	docs, diags := Parse("in.yaml", []byte(text))
	require.Empty(t, diags)
	require.Len(t, docs, 1)
	return docs[0]
}

func TestParseScalarsFollowYAML11(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want any
	}{
		{"plain yes is a boolean", "yes", true},
		{"plain Yes is a boolean", "Yes", true},
		{"plain on is a boolean", "on", true},
		{"plain y is a boolean", "y", true},
		{"plain NO is a boolean", "NO", false},
		{"plain off is a boolean", "Off", false},
		{"plain n is a boolean", "n", false},
		{"plain FALSE is a boolean", "FALSE", false},
		{"a quoted on stays a string", `"on"`, "on"},
		{"a single-quoted yes stays a string", `'yes'`, "yes"},
		{"an integer becomes a float64", "42", 42.0},
		{"a negative integer becomes a float64", "-7", -7.0},
		{"a leading zero is octal as in YAML 1.1", "0755", 493.0},
		{"hex is an integer", "0x1F", 31.0},
		{"underscores group digits", "1_000", 1000.0},
		{"a float is a float64", "2.5", 2.5},
		{"an exponent is a float", "1e3", 1000.0},
		{"a binary literal is an integer", "0b101", 5.0},
		{"tilde is null", "~", nil},
		{"Null is null", "Null", nil},
		{"a date stays a string", "2021-01-01", "2021-01-01"},
		{"a version stays a string", "1.2.3", "1.2.3"},
		{"an explicit str tag keeps digits a string", "!!str 123", "123"},
		{"an explicit float tag turns an integer into a float", "!!float 3", 3.0},
		{"an unknown tag decodes as a string", "!thing 12", "12"},
		{"a literal block is a string", "|\n  a\n  b\n", "a\nb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := parseOne(t, "v: "+tt.in+"\n")
			assert.Equal(t, map[string]any{"v": tt.want}, doc.Value)
		})
	}
}

func TestParseStringifiesKeys(t *testing.T) {
	doc := parseOne(t, "1: a\ntrue: b\n1.5: c\nn: d\n")
	assert.Equal(t, map[string]any{"1": "a", "true": "b", "1.5": "c", "false": "d"}, doc.Value,
		"a plain n key is the boolean false, as in Kubernetes")
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name      string
		in        string
		line, col int
		message   string
	}{
		{"a duplicate key is an error at the second key", "a: 1\nb: 2\na: 3\n", 3, 1, `key "a" already set in map (first set on line 1)`},
		{"keys that stringify alike are duplicates", "1: a\n\"1\": b\n", 2, 1, `key "1" already set in map`},
		{"yes and true are the same key", "true: a\nyes: b\n", 2, 1, `key "true" already set in map`},
		{"a syntax error names its line", "a: [1, 2\nb: 3\n", 0, 0, "yaml:"},
		{"an explicit int tag on text is an error", "a: !!int abc\n", 1, 4, "cannot decode !!str `abc` as a !!int"},
		{"infinity is not JSON", "a: .inf\n", 1, 4, "JSON has no NaN or infinity"},
		{"a null key is not supported", "~: a\n", 1, 1, "unsupported map key: null"},
		{"a mapping key is not supported", "? {a: 1}\n: b\n", 1, 3, "only scalar keys"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Parse("in.yaml", []byte(tt.in))
			require.NotEmpty(t, diags)
			d := diags[0]
			assert.Equal(t, SeverityError, d.Severity)
			assert.Contains(t, d.Message, tt.message)
			assert.Equal(t, "in.yaml", d.File)
			if tt.line > 0 {
				assert.Equal(t, tt.line, d.Line)
				assert.Equal(t, tt.col, d.Col)
			} else {
				assert.Positive(t, d.Line)
			}
		})
	}
}

func TestParseBoundsHostileInput(t *testing.T) {
	t.Run("an alias bomb is rejected with its position", func(t *testing.T) {
		in := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
		prev := "a"
		for _, n := range []string{"b", "c", "d", "e", "f"} {
			in += n + ": &" + n + " [" + strings.Repeat("*"+prev+", ", 9) + "*" + prev + "]\n"
			prev = n
		}
		docs, diags := Parse("bomb.yaml", []byte(in))
		assert.Empty(t, docs)
		require.Len(t, diags, 1)
		assert.Contains(t, diags[0].Message, "alias bomb")
		assert.Positive(t, diags[0].Line)
	})
	t.Run("aliases within the budget are expanded", func(t *testing.T) {
		doc := parseOne(t, "base: &b {x: 1}\ncopy: *b\n")
		assert.Equal(t, map[string]any{"x": 1.0}, doc.Value.(map[string]any)["copy"])
	})
	t.Run("deep nesting is rejected", func(t *testing.T) {
		in := strings.Repeat("[", MaxDepth+5) + strings.Repeat("]", MaxDepth+5)
		_, diags := Parse("deep.yaml", []byte(in))
		require.NotEmpty(t, diags)
		assert.Contains(t, diags[0].Message, "nested too deeply")
	})
	t.Run("a file over the size limit is rejected", func(t *testing.T) {
		_, diags := Parse("big.yaml", make([]byte, MaxInputSize+1))
		require.Len(t, diags, 1)
		assert.Equal(t, "big.yaml:1:1: file is too large: 2097153 bytes, the limit is 2097152", diags[0].Error())
	})
	t.Run("invalid UTF-8 is rejected at its byte", func(t *testing.T) {
		_, diags := Parse("bad.yaml", []byte("a: 1\nb: x\xffy\n"))
		require.Len(t, diags, 1)
		assert.Equal(t, "bad.yaml:2:5: invalid UTF-8 byte sequence", diags[0].Error())
	})
}

func TestParseMergeKeys(t *testing.T) {
	doc := parseOne(t, "base: &b {p: 1, q: 2}\nm:\n  <<: *b\n  q: 3\n")
	assert.Equal(t, map[string]any{"p": 1.0, "q": 3.0}, doc.Value.(map[string]any)["m"], "explicit keys win over merged ones")
	assert.Equal(t, Pos{File: "in.yaml", Line: 1, Col: 11}, doc.Pos("m", "p"), "a merged key points at its anchor")
	assert.Equal(t, Pos{File: "in.yaml", Line: 4, Col: 3}, doc.Pos("m", "q"))
}

func TestParseSplitsDocuments(t *testing.T) {
	in := "# only a comment\n---\na: 1\n---\n---\nb: 2\n...\n---\n- x\n"
	docs, diags := Parse("multi.yaml", []byte(in))
	require.Empty(t, diags)
	require.Len(t, docs, 3)
	for i, want := range []struct {
		line  int
		value any
	}{{3, map[string]any{"a": 1.0}}, {6, map[string]any{"b": 2.0}}, {9, []any{"x"}}} {
		assert.Equal(t, i, docs[i].Index)
		assert.Equal(t, want.line, docs[i].Line)
		assert.Equal(t, want.value, docs[i].Value)
	}
	_, ok := docs[2].Object()
	assert.False(t, ok, "a sequence is not an object")
	obj, ok := docs[0].Object()
	assert.True(t, ok)
	assert.Equal(t, 1.0, obj["a"])
}

func TestDocumentPos(t *testing.T) {
	doc := parseOne(t, `apiVersion: v1
kind: ConfigMap
metadata:
  name: x
data:
  list:
    - a
    - key: b
`)
	tests := []struct {
		name      string
		path      []any
		line, col int
	}{
		{"the root is the first node", nil, 1, 1},
		{"a key points at the key", []any{"metadata", "name"}, 4, 3},
		{"an index points at the element", []any{"data", "list", 1}, 8, 7},
		{"a key inside an element", []any{"data", "list", 1, "key"}, 8, 7},
		{"a missing key falls back to its parent", []any{"metadata", "labels", "x"}, 3, 1},
		{"an index out of range falls back to the list", []any{"data", "list", 9}, 6, 3},
		{"an index into a mapping falls back", []any{"metadata", 0}, 3, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, Pos{File: "in.yaml", Line: tt.line, Col: tt.col}, doc.Pos(tt.path...))
		})
	}
	var none *Document
	assert.Equal(t, Pos{}, none.Pos("a"), "a nil document has no position")
}

func TestDiagnostics(t *testing.T) {
	ds := Diagnostics{
		Warningf(Pos{File: "b.yaml", Line: 2, Col: 1}, "careful"),
		Errorf(Pos{File: "a.yaml", Line: 3, Col: 4}, "bad %s", "thing"),
		Errorf(Pos{File: "a.yaml"}, "no line"),
	}
	assert.True(t, ds.HasErrors())
	assert.Len(t, ds.Errors(), 2)
	assert.Len(t, ds.Warnings(), 1)
	assert.Equal(t, "b.yaml:2:1: careful\na.yaml:3:4: bad thing\na.yaml: no line", ds.Error())
	assert.Equal(t, "a.yaml", ds.Sorted()[0].File)
	assert.False(t, ds.Warnings().HasErrors())
	assert.NoError(t, ds.Warnings().Err())
	assert.Error(t, ds.Err())
	capped := ds.Capped(1)
	require.Len(t, capped, 2)
	assert.Equal(t, "too many diagnostics: 2 more not shown", capped[1].Message)
}

func TestMarshal(t *testing.T) {
	t.Run("keys are sorted and indented by two spaces", func(t *testing.T) {
		out, err := Marshal(map[string]any{
			"b": []any{map[string]any{"y": 1.0, "x": "s"}},
			"a": map[string]any{"n": true, "e": map[string]any{}, "l": []any{}},
		})
		require.NoError(t, err)
		assert.Equal(t, "a:\n  e: {}\n  l: []\n  \"n\": true\nb:\n  - x: s\n    \"y\": 1\n", string(out))
	})
	t.Run("strings a YAML 1.1 reader would misread are quoted", func(t *testing.T) {
		for _, s := range []string{"yes", "on", "n", "0755", "1e3", "", "null", "true", "12"} {
			out, err := Marshal(map[string]any{"v": s})
			require.NoError(t, err)
			doc := parseOne(t, string(out))
			assert.Equal(t, s, doc.Value.(map[string]any)["v"], "round trip of %q via %q", s, out)
		}
	})
	t.Run("values survive a round trip", func(t *testing.T) {
		v := map[string]any{
			"int": 3.0, "float": 2.5, "big": 1e21, "neg": -4.0, "null": nil, "bool": false,
			"multi": "line one\nline two\n", "nested": []any{[]any{"a"}, map[string]any{"k": "v"}},
		}
		out, err := Marshal(v)
		require.NoError(t, err)
		assert.Equal(t, v, parseOne(t, string(out)).Value)
	})
	t.Run("NaN cannot be marshalled", func(t *testing.T) {
		_, err := Marshal(map[string]any{"v": nan()})
		assert.Error(t, err)
	})
	t.Run("other types are normalised first", func(t *testing.T) {
		out, err := Marshal(map[string]any{"s": []string{"x"}, "n": 7})
		require.NoError(t, err)
		assert.Equal(t, "\"n\": 7\ns:\n  - x\n", string(out))
	})
}

func TestDiff(t *testing.T) {
	t.Run("equal texts have no diff", func(t *testing.T) {
		assert.Equal(t, "", Diff("a", "b", []byte("x\n"), []byte("x\n")))
	})
	t.Run("changes far apart make separate hunks", func(t *testing.T) {
		a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
		b := "1\n2\nX\n4\n5\n6\n7\n8\n9\n10\n11\nY\n13\n"
		assert.Equal(t, `--- before
+++ after
@@ -1,6 +1,6 @@
 1
 2
-3
+X
 4
 5
 6
@@ -9,4 +9,5 @@
 9
 10
 11
-12
+Y
+13
`, Diff("before", "after", []byte(a), []byte(b)))
	})
	t.Run("a created object is all additions", func(t *testing.T) {
		assert.Equal(t, "--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x: 1\n+y: 2\n", Diff("a", "b", nil, []byte("x: 1\ny: 2\n")))
	})
	t.Run("a deleted object is all removals", func(t *testing.T) {
		assert.Equal(t, "--- a\n+++ b\n@@ -1 +0,0 @@\n-x: 1\n", Diff("a", "b", []byte("x: 1\n"), nil))
	})
	t.Run("a missing final newline is marked", func(t *testing.T) {
		assert.Equal(t, "--- a\n+++ b\n@@ -1 +1 @@\n-x\n+y\n\\ No newline at end of file\n", Diff("a", "b", []byte("x\n"), []byte("y")))
	})
}

func nan() float64 {
	zero := 0.0
	return zero / zero
}
func TestSubPositionsAnInlineValueByItsOwnPaths(t *testing.T) {
	docs, diags := Parse("test.yaml", []byte("spec:\n  steps:\n  - resource:\n      kind: ConfigMap\n      metadata:\n        name: x\n"))
	require.False(t, diags.HasErrors())
	sub := docs[0].Sub("spec", "steps", 0, "resource")
	assert.Equal(t, Pos{File: "test.yaml", Line: 6, Col: 9}, sub.Pos("metadata", "name"))
	obj, ok := sub.Object()
	require.True(t, ok)
	assert.Equal(t, "ConfigMap", obj.Kind())
	assert.Same(t, docs[0], docs[0].Sub("no", "such", "path"), "a missing path gives the document itself")
}

func TestUnclosedFlowCollectionsPointAtTheirLine(t *testing.T) {
	for _, in := range []string{"a: 1\nb: [x\nc: 2\n", "a: 1\nb: {x: 1\n"} {
		_, diags := Parse("f.yaml", []byte(in))
		require.True(t, diags.HasErrors())
		assert.Equal(t, 2, diags[0].Line, "the line of %q's unclosed collection", in)
	}
}

func TestUnclosedFlowCollectionOnTheFirstLine(t *testing.T) {
	_, diags := Parse("f.yaml", []byte("b: [x\nc: 2\n"))
	require.True(t, diags.HasErrors())
	assert.Equal(t, 1, diags[0].Line)
}
