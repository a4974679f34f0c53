package compiler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
)

// templateSpec is a spec with one cel template whose value is the given
// YAML, indented as a literal block under value:.
func templateSpec(interpolate, value string) string {
	out := "  variables:\n  - name: nsName\n    expression: object.metadata.name\n  generate:\n  - template:\n"
	if interpolate != "" {
		out += "      interpolate: " + interpolate + "\n"
	}
	out += "      value: |\n"
	for _, line := range splitLines(value) {
		out += "        " + line + "\n"
	}
	return out
}

func splitLines(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

func TestTemplatesRenderAsKyvernoDoes(t *testing.T) {
	tests := []struct {
		name, kind, interpolate, value string
		want                           []generated
	}{
		{"plain YAML is generated as it is", gpol.KindGeneratingPolicy, "", "kind: ConfigMap\nmetadata:\n  name: (( not interpolated ))\n  namespace: a\ndata:\n  n: 1\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "(( not interpolated ))", "namespace": "a"}, "data": map[string]any{"n": float64(1)}}}}}},
		{"a whole-scalar placeholder splices its value", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: (( variables.nsName ))\n  labels: \"(( {'a': 'b'} ))\"\ndata:\n  n: (( 1 + 2 ))\n  l: (( [1, 'x'] ))\n  z: (( null ))\n",
			[]generated{{"team-a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "team-a", "labels": map[string]any{"a": "b"}},
				"data": map[string]any{"n": float64(3), "l": []any{float64(1), "x"}, "z": nil}}}}}},
		{"text with placeholders is interpolated", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: (( variables.nsName ))-config\n  namespace: a\ndata:\n  s: \"n=(( 1 )) b=(( true )) d=(( 1.5 )) q=(( ')) (' ))\"\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "team-a-config", "namespace": "a"}, "data": map[string]any{"s": "n=1 b=true d=1.5 q=)) ("}}}}}},
		{"an escaped placeholder is literal text", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\ndata:\n  s: \\(( x )) and (( 'y' ))\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "a"}, "data": map[string]any{"s": "(( x )) and y"}}}}}},
		{"an escape alone in a subtree is literal text too", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\ndata:\n  s: \\(( x ))\n  n: 1\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "a"}, "data": map[string]any{"s": "(( x ))", "n": float64(1)}}}}}},
		{"without interpolation an escape stays as written", gpol.KindGeneratingPolicy, "", "kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\ndata:\n  s: \\(( x ))\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "cm", "namespace": "a"}, "data": map[string]any{"s": "\\(( x ))"}}}}}},
		{"nested parentheses stay inside the placeholder", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: \"(( ((1 + 2) * 2) == 6 ? 'six' : 'no' ))\"\n  namespace: a\n",
			[]generated{{"a", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "six", "namespace": "a"}}}}}},
		{"documents are grouped by namespace in the order they appear", gpol.KindGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: a\n  namespace: x\n---\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: y\n---\n---\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: x\n",
			[]generated{
				{"x", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "a", "namespace": "x"}}, {"kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "x"}}}},
				{"y", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "b", "namespace": "y"}}}},
			}},
		{"a cluster policy passes an empty namespace through", gpol.KindGeneratingPolicy, "cel", "kind: ClusterRole\nmetadata:\n  name: (( variables.nsName ))\n",
			[]generated{{"", []map[string]any{{"kind": "ClusterRole", "metadata": map[string]any{"name": "team-a"}}}}}},
		{"a namespaced policy defaults the namespace to its own", gpol.KindNamespacedGeneratingPolicy, "cel", "kind: ConfigMap\nmetadata:\n  name: (( variables.nsName ))\n",
			[]generated{{"team", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "team-a"}}}}}},
		{"a whole-document placeholder renders a map", gpol.KindGeneratingPolicy, "cel", "\"(( {'kind': 'ConfigMap', 'metadata': {'name': 'w', 'namespace': 'q'}} ))\"\n",
			[]generated{{"q", []map[string]any{{"kind": "ConfigMap", "metadata": map[string]any{"name": "w", "namespace": "q"}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compilePolicy(t, tt.kind, templateSpec(tt.interpolate, tt.value), Options{})
			h := newHost()
			require.NoError(t, p.Generate(nsInput, h))
			assert.Equal(t, tt.want, h.generated)
		})
	}
}

func TestTemplateRenderErrors(t *testing.T) {
	tests := []struct{ name, kind, value, want string }{
		{"an interpolated map is an error", gpol.KindGeneratingPolicy, "kind: ConfigMap\nmetadata:\n  name: \"x-(( {'a': 1} ))\"\n",
			"spec.generate[0].template: placeholder (( {'a': 1} )): a map cannot be interpolated into a string"},
		{"an interpolated null is an error", gpol.KindGeneratingPolicy, "kind: ConfigMap\nmetadata:\n  name: x-(( null ))\n", "null_type cannot be interpolated"},
		{"a namespaced policy cannot generate into another namespace", gpol.KindNamespacedGeneratingPolicy, "kind: ConfigMap\nmetadata:\n  name: a\n  namespace: (( 'other' ))\n",
			`spec.generate[0].template: cross-namespace generation denied: a policy in namespace "team" cannot generate resources into namespace "other"`},
		{"a document that renders to a list is an error", gpol.KindGeneratingPolicy, "(( [1] ))\n", "must render to a mapping"},
		{"a huge uint is refused", gpol.KindGeneratingPolicy, "kind: ConfigMap\nmetadata:\n  name: a\ndata:\n  n: (( 18446744073709551615u ))\n", "overflows int64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compilePolicy(t, tt.kind, templateSpec("cel", tt.value), Options{})
			err := p.Generate(nsInput, newHost())
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestTemplateCompileErrorsPointAtTheTemplate(t *testing.T) {
	// The template value starts on line 19 of the policy (templateSpec),
	// indented by 8: line k of the template is line 18+k, column 8+c.
	tests := []struct {
		name, value, want string
		line, col         int
	}{
		{"a placeholder that does not compile", "kind: ConfigMap\nmetadata:\n  name: (( 1 + nope ))\n",
			"spec.generate[0].template.value: Invalid value: \"1 + nope\": ERROR: <input>:1:5: undeclared reference to 'nope'", 21, 24},
		{"a placeholder in a key", "kind: ConfigMap\ndata:\n  (( 'k' )): v\n", "placeholders are not allowed in mapping keys", 21, 11},
		{"a merge key next to placeholders", "base: &b\n  x: 1\nkind: ConfigMap\ndata:\n  <<: *b\n  y: (( 1 ))\n", "YAML merge keys (<<) are not supported", 23, 11},
		{"an unterminated placeholder", "kind: ConfigMap\nmetadata:\n  name: (( 1 + \n", "unterminated placeholder", 21, 17},
		{"an empty placeholder", "kind: ConfigMap\nmetadata:\n  name: (( ))\n", "empty placeholder", 21, 17},
		{"a document that is not a mapping", "- a\n- b\n", "each template document must be a mapping", 19, 9},
		{"a template without documents", "---\n", "the template has no document", 19, 9},
		{"invalid YAML", "a: b\nc: [\n", "failed to parse template", 20, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name+" is an error at its line", func(t *testing.T) {
			_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, templateSpec("cel", tt.value))), Options{})
			require.NotEmpty(t, diags)
			assert.Contains(t, diags[0].Message, tt.want)
			assert.Equal(t, tt.line, diags[0].Line, "line")
			assert.Equal(t, tt.col, diags[0].Col, "column")
		})
	}
}

func TestPlaceholderErrorsInLiteralBlocksPointAtTheirLine(t *testing.T) {
	// A literal block inside the template: its content is indented by 4 in
	// the template (12 in the policy); the template starts on line 19.
	value := "kind: ConfigMap\ndata:\n  script: |\n    echo (( 1 +\n      nope ))\n    done\n"
	_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, templateSpec("cel", value))), Options{})
	require.NotEmpty(t, diags)
	d := diags[0]
	assert.Contains(t, d.Message, "ERROR: <input>:2:3: undeclared reference to 'nope'")
	assert.Equal(t, 23, d.Line, "line")
	assert.Equal(t, 15, d.Col, "column")
}
