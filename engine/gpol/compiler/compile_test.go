package compiler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
)

func TestCompileRefusesWhatKyvernoRefuses(t *testing.T) {
	const cluster, namespaced = gpol.KindGeneratingPolicy, gpol.KindNamespacedGeneratingPolicy
	tests := []struct {
		name, kind, expr, want string
	}{
		{"the one-argument generator.apply does not exist in a cluster policy", cluster,
			`generator.apply([{"kind": "ConfigMap"}])`,
			`spec.generate[0].expression: Invalid value: "generator.apply([{\"kind\": \"ConfigMap\"}])": ERROR: <input>:1:16: found no matching overload for 'apply' applied to 'generator.Context.(list(map(string, string)))'`},
		{"the two-argument generator.apply does not exist in a namespaced policy", namespaced,
			`generator.apply("other", [{"kind": "ConfigMap"}])`, "found no matching overload for 'apply'"},
		{"resource.get compared with null is a type error", cluster,
			`resource.get("v1", "secrets", "ns", "s") != null && true`,
			"found no matching overload for '_!=_' applied to '(map(string, any), null)'"},
		{"a namespaced resource.get takes no namespace", namespaced,
			`dyn(resource.get("v1", "secrets", "ns", "s")) == null`, "found no matching overload for 'get'"},
		{"a generate expression must be exactly bool", cluster, `"yes"`, "output is expected to be of type bool, got string"},
		{"dyn is not exactly bool", cluster, `dyn(true)`, "output is expected to be of type bool, got dyn"},
		{"an unknown function is an error", cluster, `nope(1)`, "undeclared reference to 'nope'"},
		{"a syntax error is an error", cluster, `generator.apply(`, "Syntax error"},
		{"two-variable comprehensions are not enabled", cluster, `[1].all(i, v, v > 0)`, "all"},
		{"strings reverse (v3) is not available", cluster, `"ab".reverse() == "ba"`, "reverse"},
		{"http in a namespaced policy is forbidden", namespaced, `dyn(http.get("http://x")) != null`,
			"spec: Forbidden: http.* is not allowed in namespaced policies; set --allowHTTPInNamespacedPolicies to enable"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Compile(generatePolicy(t, tt.kind, tt.expr), Options{})
			require.NotEmpty(t, diags)
			assert.Contains(t, diags.Error(), tt.want)
		})
	}
}

func TestCompileAcceptsWhatKyvernoAccepts(t *testing.T) {
	const cluster, namespaced = gpol.KindGeneratingPolicy, gpol.KindNamespacedGeneratingPolicy
	tests := []struct{ name, kind, expr string }{
		{"a cluster generator.apply takes a namespace and a list", cluster, `generator.apply("ns", [{"kind": "ConfigMap", "data": {"a": 1}}])`},
		{"the PascalCase name is kept", cluster, `generator.Apply("ns", [dyn({"kind": "ConfigMap"})])`},
		{"a namespaced generator.apply takes a list", namespaced, `generator.apply([{"kind": "ConfigMap"}])`},
		{"a List object from resource.list can be applied", cluster, `generator.apply("ns", [resource.list("v1", "secrets", "default")])`},
		{"a namespaced resource.get takes apiVersion, resource and name", namespaced, `dyn(resource.get("v1", "secrets", "s")) == null`},
		{"resource.Get through ToGVR", cluster, `dyn(resource.Get(resource.ToGVR("v1", "ConfigMap"), "ns", "n")) == null`},
		{"a variable may call generator.apply", cluster, `true`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Compile(generatePolicy(t, tt.kind, tt.expr), Options{})
			assert.Empty(t, diags)
		})
	}
	t.Run("http in a namespaced policy is accepted with AllowHTTPInNamespacedPolicies", func(t *testing.T) {
		p, diags := Compile(generatePolicy(t, namespaced, `dyn(http.get("http://x")) != null`), Options{AllowHTTPInNamespacedPolicies: true})
		require.Empty(t, diags)
		assert.True(t, p.UsesHTTP())
	})
}

func TestCompileStopsAtTheFirstFailingSection(t *testing.T) {
	spec := `  matchConditions:
  - name: m
    expression: 'nope1()'
  variables:
  - name: v
    expression: 'nope2()'
  generate:
  - expression: 'nope3()'
  auditAnnotations:
  - key: k
    valueExpression: 'nope4()'
`
	tests := []struct {
		name, spec, want, notWant string
	}{
		{"matchConditions errors hide the later sections", spec, "nope1", "nope2"},
		{"variables errors hide generate", stripFirst(spec, "nope1()", "true"), "nope2", "nope3"},
		{"generate errors hide auditAnnotations", stripFirst(stripFirst(spec, "nope1()", "true"), "nope2()", "1"), "nope3", "nope4"},
		{"auditAnnotations errors come last", stripFirst(stripFirst(stripFirst(spec, "nope1()", "true"), "nope2()", "1"), "nope3()", "true"), "nope4", "nope3"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, tt.spec)), Options{})
			require.NotEmpty(t, diags)
			assert.Contains(t, diags.Error(), tt.want)
			assert.NotContains(t, diags.Error(), tt.notWant)
		})
	}
}

func stripFirst(s, old, new string) string {
	for i := 0; i+len(old) <= len(s); i++ {
		if s[i:i+len(old)] == old {
			return s[:i] + new + s[i+len(old):]
		}
	}
	return s
}

func TestVariablesAreTypedInOrder(t *testing.T) {
	t.Run("a variable sees the earlier ones with their types", func(t *testing.T) {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, `  variables:
  - name: a
    expression: '[1, 2]'
  - name: b
    expression: 'variables.a.map(x, x * 2)'
  generate:
  - expression: 'variables.b.size() == 2'
`)), Options{})
		assert.Empty(t, diags)
	})
	t.Run("a variable does not see the later ones", func(t *testing.T) {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, `  variables:
  - name: a
    expression: 'variables.b'
  - name: b
    expression: '1'
  generate:
  - expression: 'true'
`)), Options{})
		assert.ErrorContains(t, diags, "undefined field 'b'")
	})
	t.Run("a variable's type is checked where it is used", func(t *testing.T) {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, `  variables:
  - name: s
    expression: '"text"'
  generate:
  - expression: 'variables.s > 1'
`)), Options{})
		assert.ErrorContains(t, diags, "found no matching overload for '_>_' applied to '(string, int)'")
	})
	t.Run("matchConditions do not see variables", func(t *testing.T) {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, `  matchConditions:
  - name: m
    expression: 'variables.v == 1'
  variables:
  - name: v
    expression: '1'
  generate:
  - expression: 'true'
`)), Options{})
		assert.ErrorContains(t, diags, "undefined field 'v'")
	})
	t.Run("auditAnnotations must be string or null", func(t *testing.T) {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, `  generate:
  - expression: 'true'
  auditAnnotations:
  - key: k
    valueExpression: '1'
`)), Options{})
		assert.ErrorContains(t, diags, "spec.auditAnnotations[0].valueExpression")
		assert.ErrorContains(t, diags, "output is expected to be of type string or null, got int")
	})
}

// The column Kyverno reports inside the expression, and the YAML line and
// column of the offending part, for each scalar style.
func TestCompileErrorsPointAtTheOffendingPartOfTheExpression(t *testing.T) {
	tests := []struct {
		name, generate string
		line, col      int
		inExpr         string
	}{
		{"a plain scalar", "  - expression: 1 + nope == 2\n", 13, 21, "<input>:1:5"},
		{"a single-quoted scalar", "  - expression: '1 + nope == 2'\n", 13, 22, "<input>:1:5"},
		{"a double-quoted scalar", "  - expression: \"1 + nope == 2\"\n", 13, 22, "<input>:1:5"},
		{"a literal block scalar", "  - expression: |\n      1 +\n        nope == 2\n", 15, 9, "<input>:2:3"},
		{"a folded block scalar", "  - expression: >-\n      1 +\n        nope == 2\n", 15, 9, "<input>:2:3"},
	}
	for _, tt := range tests {
		t.Run(tt.name+" gives the line and column of the error", func(t *testing.T) {
			_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, "  generate:\n"+tt.generate)), Options{})
			require.Len(t, diags, 1)
			d := diags[0]
			assert.Contains(t, d.Message, "spec.generate[0].expression")
			assert.Contains(t, d.Message, tt.inExpr)
			assert.Contains(t, d.Message, "undeclared reference to 'nope'")
			assert.Equal(t, "policy.yaml", d.File)
			assert.Equal(t, tt.line, d.Line, "line")
			assert.Equal(t, tt.col, d.Col, "column")
		})
	}
}

func TestVariableTypesDoNotLeakBetweenPolicies(t *testing.T) {
	list := "  variables:\n  - name: v\n    expression: '[1]'\n  generate:\n  - expression: 'variables.v[0] == 1'\n"
	str := "  variables:\n  - name: v\n    expression: '\"x\"'\n  generate:\n  - expression: 'variables.v == \"x\"'\n"
	none := "  generate:\n  - expression: 'variables.v == \"x\"'\n"
	for i, spec := range []string{list, str, list, str} {
		_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, spec)), Options{})
		assert.Empty(t, diags, "compilation %d", i)
	}
	_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, none)), Options{})
	assert.ErrorContains(t, diags, "undefined field 'v'", "a policy without variables does not see the last policy's")
}

func TestHTTPIsForbiddenAnywhereInANamespacedPolicy(t *testing.T) {
	tests := []struct{ name, spec string }{
		{"in a variable", "  variables:\n  - name: r\n    expression: 'http.get(\"http://x\")'\n  generate:\n  - expression: 'true'\n"},
		{"in a match condition", "  matchConditions:\n  - name: m\n    expression: 'dyn(http.Get(\"http://x\")) != null'\n  generate:\n  - expression: 'true'\n"},
		{"in a template placeholder", "  generate:\n  - template:\n      interpolate: cel\n      value: |\n        kind: ConfigMap\n        data:\n          a: (( string(http.get(\"http://x\")) ))\n"},
		{"in an audit annotation", "  generate:\n  - expression: 'true'\n  auditAnnotations:\n  - key: k\n    valueExpression: 'string(http.get(\"http://x\"))'\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindNamespacedGeneratingPolicy, tt.spec)), Options{})
			require.Len(t, diags, 1)
			assert.Equal(t, httpForbidden, diags[0].Message)
			assert.Positive(t, diags[0].Line)
			p, diags := Compile(parsePolicy(t, policyYAML(gpol.KindNamespacedGeneratingPolicy, tt.spec)), Options{AllowHTTPInNamespacedPolicies: true})
			require.Empty(t, diags)
			assert.True(t, p.UsesHTTP())
			c, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, tt.spec)), Options{})
			require.Empty(t, diags, "a cluster policy may use http")
			assert.True(t, c.UsesHTTP())
		})
	}
}
