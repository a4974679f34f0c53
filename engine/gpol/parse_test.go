package gpol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

func TestParseAcceptsEveryServedVersion(t *testing.T) {
	for _, tc := range []struct{ kind, version string }{
		{KindGeneratingPolicy, "v1"},
		{KindGeneratingPolicy, "v1beta1"},
		{KindGeneratingPolicy, "v1alpha1"},
		{KindNamespacedGeneratingPolicy, "v1"},
		{KindNamespacedGeneratingPolicy, "v1beta1"},
	} {
		t.Run(tc.kind+" "+tc.version, func(t *testing.T) {
			text := strings.Replace(minimal, "policies.kyverno.io/v1", "policies.kyverno.io/"+tc.version, 1)
			text = strings.Replace(text, "kind: GeneratingPolicy", "kind: "+tc.kind, 1)
			text = strings.Replace(text, "  name: netpol", "  name: netpol\n  namespace: team-a", 1)
			p := parse(t, text)
			assert.Equal(t, "policies.kyverno.io/"+tc.version, p.APIVersion)
			assert.Equal(t, tc.kind, p.Kind)
			assert.True(t, IsPolicy(p.Raw))
			if tc.kind == KindNamespacedGeneratingPolicy {
				assert.True(t, p.Namespaced())
				assert.Equal(t, "team-a", p.Namespace)
				assert.Equal(t, "NamespacedGeneratingPolicy/team-a/netpol", p.Key())
			} else {
				assert.False(t, p.Namespaced())
				assert.Empty(t, p.Namespace, "a cluster-scoped policy has no namespace")
				assert.Equal(t, "GeneratingPolicy/netpol", p.Key())
			}
		})
	}
}

func TestParseRefusesAVersionTheAPIServerDoesNotServe(t *testing.T) {
	for _, tc := range []struct{ kind, version string }{
		{KindNamespacedGeneratingPolicy, "v1alpha1"},
		{KindGeneratingPolicy, "v2"},
	} {
		text := strings.Replace(minimal, "policies.kyverno.io/v1", "policies.kyverno.io/"+tc.version, 1)
		text = strings.Replace(text, "kind: GeneratingPolicy", "kind: "+tc.kind, 1)
		p, diags := Parse(doc(t, text), nil)
		assert.Nil(t, p)
		assert.Equal(t, []string{`policy.yaml:1:1: no matches for kind "` + tc.kind + `" in version "policies.kyverno.io/` + tc.version + `"`}, diagStrings(diags))
		assert.False(t, IsPolicy(resource.Object{"apiVersion": "policies.kyverno.io/" + tc.version, "kind": tc.kind}))
		assert.True(t, IsPolicyKind(resource.Object{"apiVersion": "policies.kyverno.io/" + tc.version, "kind": tc.kind}))
	}
}

func TestParseRefusesWhatIsNotAGeneratingPolicy(t *testing.T) {
	for _, obj := range []resource.Object{
		nil,
		{"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy"},
		{"apiVersion": "policies.kyverno.io/v1", "kind": "ValidatingPolicy"},
	} {
		p, diags := Parse(nil, obj)
		assert.Nil(t, p)
		require.Len(t, diags, 1)
		assert.Contains(t, diags[0].Message, "not a policies.kyverno.io GeneratingPolicy or NamespacedGeneratingPolicy")
	}
}

func diagStrings(ds source.Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Error()
	}
	return out
}

func TestParseAppliesKyvernosDefaults(t *testing.T) {
	p := parse(t, minimal)
	assert.Equal(t, Evaluation{AdmissionEnabled: true, SkipBackgroundRequests: true}, p.Spec.Evaluation)
	require.NotNil(t, p.Spec.MatchConstraints)
	assert.Equal(t, MatchPolicyEquivalent, p.Spec.MatchConstraints.MatchPolicy)
	assert.Equal(t, "*", p.Spec.MatchConstraints.ResourceRules[0].Scope)
	assert.Nil(t, p.Spec.MatchConstraints.NamespaceSelector)
	assert.Nil(t, p.Spec.MatchConstraints.ObjectSelector)
	assert.Nil(t, p.Spec.WebhookTimeoutSeconds)
	assert.False(t, p.Spec.UseServerSideApply)
	assert.Empty(t, p.Spec.MatchConditions)
	assert.Empty(t, p.Spec.Variables)
	assert.Empty(t, p.Spec.AuditAnnotations)

	tp := parse(t, strings.Replace(minimal, "  - expression: generator.Apply(object.metadata.name, [variables.np])\n", "  - template:\n      value: 'kind: ConfigMap'\n", 1))
	require.NotNil(t, tp.Spec.Generate[0].Template)
	assert.Equal(t, InterpolateNone, tp.Spec.Generate[0].Template.Interpolate)
}

const everyField = `apiVersion: policies.kyverno.io/v1beta1
kind: NamespacedGeneratingPolicy
metadata:
  name: every-field
  namespace: team-a
spec:
  evaluation:
    admission:
      enabled: false
    generateExisting:
      enabled: true
    synchronize:
      enabled: true
    orphanDownstreamOnPolicyDelete:
      enabled: true
    skipBackgroundRequests: false
  matchConstraints:
    matchPolicy: Exact
    namespaceSelector:
      matchLabels:
        env: prod
    objectSelector:
      matchExpressions:
      - key: app
        operator: In
        values: [web, api]
    resourceRules:
    - apiGroups: [apps]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [deployments, deployments/scale]
      resourceNames: [web]
      scope: Namespaced
    excludeResourceRules:
    - apiGroups: ["*"]
      apiVersions: ["*"]
      operations: ["*"]
      resources: ["*"]
      resourceNames: [legacy]
  matchConditions:
  - name: labelled
    expression: has(object.metadata.labels)
  variables:
  - name: ns
    expression: object.metadata.namespace
  - name: cm
    expression: "{'kind': 'ConfigMap'}"
  generate:
  - expression: generator.Apply(variables.ns, [variables.cm])
  - template:
      interpolate: cel
      value: |
        kind: ConfigMap
        metadata:
          name: ((object.metadata.name))
  webhookConfiguration:
    timeoutSeconds: 15
  auditAnnotations:
  - key: owner
    valueExpression: "'team-a'"
  useServerSideApply: true
`

func TestParseReadsEveryField(t *testing.T) {
	p := parse(t, everyField)
	s := p.Spec
	assert.Equal(t, Evaluation{GenerateExisting: true, Synchronize: true, OrphanDownstreamOnPolicyDelete: true}, s.Evaluation)
	assert.True(t, s.UseServerSideApply)
	require.NotNil(t, s.WebhookTimeoutSeconds)
	assert.Equal(t, int32(15), *s.WebhookTimeoutSeconds)

	mc := s.MatchConstraints
	require.NotNil(t, mc)
	assert.Equal(t, MatchPolicyExact, mc.MatchPolicy)
	assert.Equal(t, map[string]string{"env": "prod"}, mc.NamespaceSelector.MatchLabels)
	assert.Equal(t, []Requirement{{Key: "app", Operator: "In", Values: []string{"web", "api"}}}, mc.ObjectSelector.MatchExpressions)
	assert.Equal(t, []ResourceRule{{
		APIGroups: []string{"apps"}, APIVersions: []string{"v1"}, Operations: []string{"CREATE"},
		Resources: []string{"deployments", "deployments/scale"}, ResourceNames: []string{"web"}, Scope: "Namespaced",
	}}, mc.ResourceRules)
	assert.Equal(t, []ResourceRule{{
		APIGroups: []string{"*"}, APIVersions: []string{"*"}, Operations: []string{"*"},
		Resources: []string{"*"}, ResourceNames: []string{"legacy"}, Scope: "*",
	}}, mc.ExcludeResourceRules)

	require.Len(t, s.MatchConditions, 1)
	assert.Equal(t, "labelled", s.MatchConditions[0].Name)
	assert.Equal(t, "has(object.metadata.labels)", s.MatchConditions[0].Expression.Text)
	assert.Equal(t, "spec.matchConditions[0].expression", s.MatchConditions[0].Expression.Path)

	require.Len(t, s.Variables, 2)
	assert.Equal(t, "cm", s.Variables[1].Name)
	assert.Equal(t, "{'kind': 'ConfigMap'}", s.Variables[1].Expression.Text)
	assert.Equal(t, "spec.variables[1].expression", s.Variables[1].Expression.Path)

	require.Len(t, s.Generate, 2)
	require.NotNil(t, s.Generate[0].Expression)
	assert.Nil(t, s.Generate[0].Template)
	assert.Equal(t, "generator.Apply(variables.ns, [variables.cm])", s.Generate[0].Expression.Text)
	assert.Equal(t, "spec.generate[0].expression", s.Generate[0].Expression.Path)
	require.NotNil(t, s.Generate[1].Template)
	assert.Nil(t, s.Generate[1].Expression)
	assert.Equal(t, InterpolateCEL, s.Generate[1].Template.Interpolate)
	assert.Equal(t, "kind: ConfigMap\nmetadata:\n  name: ((object.metadata.name))\n", s.Generate[1].Template.Value.Text)
	assert.Equal(t, "spec.generate[1].template.value", s.Generate[1].Template.Value.Path)

	require.Len(t, s.AuditAnnotations, 1)
	assert.Equal(t, "owner", s.AuditAnnotations[0].Key)
	assert.Equal(t, "'team-a'", s.AuditAnnotations[0].ValueExpression.Text)
	assert.Equal(t, "spec.auditAnnotations[0].valueExpression", s.AuditAnnotations[0].ValueExpression.Path)
}

// find returns the position of the n-th (0-based) occurrence of sub in text.
func find(text, sub string, n int) source.Pos {
	off := 0
	for range n {
		off += strings.Index(text[off:], sub) + len(sub)
	}
	off += strings.Index(text[off:], sub)
	before := text[:off]
	return source.Pos{File: "policy.yaml", Line: strings.Count(before, "\n") + 1, Col: len([]rune(before[strings.LastIndex(before, "\n")+1:])) + 1}
}

func TestParsePositionsEveryExpression(t *testing.T) {
	p := parse(t, everyField)
	s := p.Spec
	assert.Equal(t, find(everyField, "has(object", 0), s.MatchConditions[0].Expression.Pos)
	assert.Equal(t, find(everyField, "object.metadata.namespace", 0), s.Variables[0].Expression.Pos)
	assert.Equal(t, find(everyField, `"{'kind'`, 0), s.Variables[1].Expression.Pos, "a quoted scalar starts at its quote")
	assert.Equal(t, find(everyField, "generator.Apply", 0), s.Generate[0].Expression.Pos)
	assert.Equal(t, find(everyField, "|\n", 0), s.Generate[1].Template.Value.Pos, "a block scalar starts at its indicator")
	assert.Equal(t, find(everyField, `"'team-a'"`, 0), s.AuditAnnotations[0].ValueExpression.Pos)

	// Columns inside the expressions map back to the file.
	assert.Equal(t, find(everyField, "(object.metadata.labels)", 0), s.MatchConditions[0].Expression.PosAt(1, 4), "the ( of has(")
	assert.Equal(t, find(everyField, "{'kind'", 0), s.Variables[1].Expression.PosAt(1, 1), "after the quote")
	assert.Equal(t, find(everyField, "((", 0), s.Generate[1].Template.Value.PosAt(3, 9), "the (( of the template's third line")
	tmpl := s.Generate[1].Template.Value
	assert.Equal(t, find(everyField, "((", 0), tmpl.PosAtOffset(len([]rune(tmpl.Text[:strings.Index(tmpl.Text, "((")]))))
	assert.Equal(t, find(everyField, "'team-a'", 0), s.AuditAnnotations[0].ValueExpression.PosAt(1, 1))
}

func TestExpressionsWithoutADocumentArePositionedAtTheFileOnly(t *testing.T) {
	obj, _ := doc(t, minimal).Object()
	p, diags := Parse(nil, obj)
	require.Empty(t, diags)
	e := p.Spec.Generate[0].Expression
	assert.Equal(t, source.Pos{}, e.Pos)
	assert.Equal(t, source.Pos{}, e.PosAt(1, 3))
}

func TestParseReportsUnknownFieldsAtTheirLine(t *testing.T) {
	text := strings.Replace(everyField, "    skipBackgroundRequests: false\n", "    skipBackgroundRequests: false\n    synchronise:\n      enabled: true\n", 1)
	text = strings.Replace(text, "      scope: Namespaced\n", "      scope: Namespaced\n      kinds: [Deployment]\n", 1)
	text = strings.Replace(text, "  useServerSideApply: true\n", "  useServerSideApply: true\n  failurePolicy: Fail\n", 1)
	text = strings.Replace(text, "      interpolate: cel\n", "      interpolate: cel\n      format: yaml\n", 1)
	p, diags := Parse(doc(t, text), nil)
	require.NotNil(t, p, "the policy is returned with its errors")
	assert.Equal(t, []string{
		`policy.yaml:17:5: strict decoding error: unknown field "spec.evaluation.synchronise"`,
		`policy.yaml:36:7: strict decoding error: unknown field "spec.matchConstraints.resourceRules[0].kinds"`,
		`policy.yaml:55:7: strict decoding error: unknown field "spec.generate[1].template.format"`,
		`policy.yaml:66:3: strict decoding error: unknown field "spec.failurePolicy"`,
	}, diagStrings(diags))
}

func TestParseReportsWrongTypesAsTheAPIServerDoes(t *testing.T) {
	tests := []struct {
		name, from, to, want string
	}{
		{"a string for a boolean", "    generateExisting:\n      enabled: true\n", "    generateExisting:\n      enabled: \"yes\"\n",
			`policy.yaml:11:7: spec.evaluation.generateExisting.enabled: Invalid value: "string": spec.evaluation.generateExisting.enabled in body must be of type boolean: "string"`},
		{"a map for a list", "      resources: [deployments, deployments/scale]\n", "      resources: {a: b}\n",
			`policy.yaml:31:7: spec.matchConstraints.resourceRules[0].resources: Invalid value: "object": spec.matchConstraints.resourceRules[0].resources in body must be of type array: "object"`},
		{"a number for an expression", "    expression: object.metadata.namespace\n", "    expression: 42\n",
			`policy.yaml:45:5: spec.variables[0].expression: Invalid value: "integer": spec.variables[0].expression in body must be of type string: "integer"`},
		{"a string for a timeout", "    timeoutSeconds: 15\n", "    timeoutSeconds: fifteen\n",
			`policy.yaml:57:5: spec.webhookConfiguration.timeoutSeconds: Invalid value: "string": spec.webhookConfiguration.timeoutSeconds in body must be of type integer: "string"`},
		{"a list for the spec", "spec:\n  evaluation:\n", "spec: []\nx:\n  evaluation:\n",
			`policy.yaml:6:1: spec: Invalid value: "array": spec in body must be of type object: "array"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, everyField, tc.from)
			_, diags := Parse(doc(t, strings.Replace(everyField, tc.from, tc.to, 1)), nil)
			assert.Contains(t, diagStrings(diags), tc.want)
		})
	}
}

func TestParseChecksTheCRDSchema(t *testing.T) {
	gen := "  generate:\n  - expression: generator.Apply(object.metadata.name, [variables.np])\n"
	tests := []struct {
		name, from, to string
		want           []string
	}{
		{"a missing generate", gen, "", []string{`policy.yaml:5:1: spec.generate: Required value`}},
		{"an empty generate", gen, "  generate: []\n", []string{`policy.yaml:12:3: spec.generate: Invalid value: 0: spec.generate in body should have at least 1 items`}},
		{"both expression and template", gen, gen + "    template:\n      value: 'kind: ConfigMap'\n",
			[]string{`policy.yaml:13:5: spec.generate[0]: Invalid value: "object": exactly one of expression or template must be set`}},
		{"neither expression nor template", gen, "  generate:\n  - {}\n",
			[]string{`policy.yaml:13:5: spec.generate[0]: Invalid value: "object": exactly one of expression or template must be set`}},
		{"a template without a value", gen, "  generate:\n  - template:\n      interpolate: cel\n",
			[]string{`policy.yaml:13:5: spec.generate[0].template.value: Required value`}},
		{"an empty template", gen, "  generate:\n  - template:\n      value: \"\"\n",
			[]string{`policy.yaml:14:7: spec.generate[0].template.value: Invalid value: "": spec.generate[0].template.value in body should be at least 1 chars long`}},
		{"an unknown interpolation", gen, "  generate:\n  - template:\n      value: x\n      interpolate: jmespath\n",
			[]string{`policy.yaml:15:7: spec.generate[0].template.interpolate: Unsupported value: "jmespath": supported values: "none", "cel"`}},
		{"a match condition without a name", gen, gen + "  matchConditions:\n  - expression: 'true'\n",
			[]string{`policy.yaml:15:5: spec.matchConditions[0].name: Required value`}},
		{"two variables with one name", gen, gen + "  variables:\n  - name: a\n    expression: '1'\n  - name: a\n    expression: '2'\n",
			[]string{`policy.yaml:17:5: spec.variables[1]: Duplicate value: map[string]interface {}{"name":"a"}`}},
		{"an audit annotation without a key", gen, gen + "  auditAnnotations:\n  - valueExpression: \"'x'\"\n",
			[]string{`policy.yaml:15:5: spec.auditAnnotations[0].key: Required value`}},
		{"a selector expression without an operator", "      resources: [namespaces]\n", "      resources: [namespaces]\n    objectSelector:\n      matchExpressions:\n      - key: a\n",
			[]string{`policy.yaml:14:9: spec.matchConstraints.objectSelector.matchExpressions[0].operator: Required value`}},
		{"a missing spec", "spec:\n", "x:\n", []string{`policy.yaml:1:1: spec: Required value`, `policy.yaml:5:1: strict decoding error: unknown field "x"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.Contains(t, minimal, tc.from)
			text := strings.Replace(minimal, tc.from, tc.to, 1)
			_, diags := Parse(doc(t, text), nil)
			assert.Equal(t, tc.want, diagStrings(diags), "in:\n%s", text)
		})
	}
}

func TestParseRequiresAName(t *testing.T) {
	_, diags := Parse(doc(t, strings.Replace(minimal, "  name: netpol\n", "  labels: {}\n", 1)), nil)
	assert.Equal(t, []string{`policy.yaml:3:1: metadata.name: Required value: name or generateName is required`}, diagStrings(diags))
}
