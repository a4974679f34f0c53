package source

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryYAMLErrorSaysLineAndColumn checks that syntax errors, including
// those the YAML library reports without a line or column, point at the
// offending text and quote a short excerpt of it.
func TestEveryYAMLErrorSaysLineAndColumn(t *testing.T) {
	long := "a: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20\nb: 3\n"
	for _, c := range []struct{ name, in, where, msg string }{
		{"an unknown alias", "x: 1\na: *nope\n", "f.yaml:2:4", `unknown alias *nope: no anchor &nope is defined before it, near "*nope"`},
		{"an unclosed flow sequence", "a: [1, 2\nb: 3\n", "f.yaml:1:4", `(a [ or { here is not closed), near "[1, 2"`},
		{"an unclosed flow mapping", "k: v\na: {x: 1\n", "f.yaml:2:4", `near "{x: 1"`},
		{"bad !!binary", "a: !!binary '%%%'\n", "f.yaml:1:4", "!!binary value contains invalid base64 data"},
		{"a mapping value on the first line", "a: b: c\n", "f.yaml:1:5", `mapping values are not allowed in this context, near ": c"`},
		{"an unterminated quoted string", "a: 1\nb: 'open\n", "f.yaml:2:4", `(a quoted string here is not closed), near "'open"`},
		{"a long line is cut in the excerpt", long, "f.yaml:1:4", `…"`},
		{"an unknown alias with a 5,000-character name is quoted in part", "x: 1\na: *" + strings.Repeat("n", 5000) + "\n", "f.yaml:2:4",
			"unknown alias *" + strings.Repeat("n", 40) + "…: no anchor &" + strings.Repeat("n", 40) + "…"},
		{"a long duplicate key is quoted in part", "x:\n  " + strings.Repeat("k", 1000) + ": 1\n  " + strings.Repeat("k", 1000) + ": 2\n", "f.yaml:3:3",
			`key "` + strings.Repeat("k", 40) + `…" already set in map (first set on line 2)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Parse("f.yaml", []byte(c.in))
			require.True(t, diags.HasErrors())
			d := diags.Errors()[0]
			assert.Equal(t, c.where, d.Pos.String())
			assert.Contains(t, d.Message, c.msg)
			assert.Less(t, len(d.Message), 200, "the excerpt is short")
		})
	}
}

// TestStructureErrorsPointAtTheLineThatBrokeIt checks that an indentation
// error is reported at the line whose indentation broke the structure, not
// at the start of the block around it (where the YAML library reports it).
func TestStructureErrorsPointAtTheLineThatBrokeIt(t *testing.T) {
	const doc = `# a comment
apiVersion: v1
kind: ConfigMap
metadata:
  name: x
  labels:
    a: b
    c: d
data:
  list:
  - one
  - two
  nested:
    deeper:
      key: value
      other: value
`
	dedent := func(line int, to string) string {
		lines := strings.Split(doc, "\n")
		lines[line-1] = to + strings.TrimLeft(lines[line-1], " ")
		return strings.Join(lines, "\n")
	}
	for _, c := range []struct{ name, in, where, msg string }{
		{"a key dedented to one space", dedent(8, " "), "f.yaml:8:2", "did not find expected key"},
		{"a key dedented inside a nested block", dedent(16, "     "), "f.yaml:16:6", "did not find expected key"},
		{"a sequence item dedented", dedent(12, " "), "f.yaml:12:2", "did not find expected key"},
		{"a key after a block indented too far", dedent(5, "    "), "f.yaml:6:3", "did not find expected key"},
		{"a key dedented in the second document", "a: 1\n---\n" + dedent(8, " "), "f.yaml:10:2", "did not find expected key"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, diags := Parse("f.yaml", []byte(c.in))
			require.True(t, diags.HasErrors())
			d := diags.Errors()[0]
			assert.Equal(t, c.where, d.Pos.String(), "%s", d.Message)
			assert.Contains(t, d.Message, c.msg)
		})
	}
}
