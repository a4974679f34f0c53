package policy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/source"
)

// scopes is a fake KindResolver: "apiVersion/Kind" → namespaced.
type scopes map[string]bool

func (s scopes) Namespaced(apiVersion, kind string) (bool, bool) {
	if apiVersion == "" {
		for k, ns := range s {
			if strings.HasSuffix(k, "/"+kind) {
				return ns, true
			}
		}
		return false, false
	}
	ns, ok := s[apiVersion+"/"+kind]
	return ns, ok
}

var testKinds = scopes{
	"v1/ConfigMap":                       true,
	"v1/Secret":                          true,
	"v1/Namespace":                       false,
	"networking.k8s.io/v1/NetworkPolicy": true,
	"rbac.authorization.k8s.io/v1/ClusterRole": false,
}

// want is an expected diagnostic: severity, line and a part of the message.
type want struct {
	severity string
	line     int
	message  string
}

func errAt(line int, message string) want  { return want{source.SeverityError, line, message} }
func warnAt(line int, message string) want { return want{source.SeverityWarning, line, message} }

func assertDiagnostics(t *testing.T, got source.Diagnostics, wants []want) {
	t.Helper()
	require.Len(t, got, len(wants), "diagnostics: %v", got)
	for i, w := range wants {
		assert.Equal(t, w.severity, got[i].Severity, "diagnostic %d: %v", i, got[i])
		assert.Equal(t, w.line, got[i].Line, "diagnostic %d: %v", i, got[i])
		assert.Contains(t, got[i].Message, w.message, "diagnostic %d", i)
		assert.Equal(t, "policy.yaml", got[i].File)
	}
}

// parse reads one policy document; text is dedented by its first line's indent.
func parse(t *testing.T, text string) (*Policy, source.Diagnostics) {
	t.Helper()
	docs, diags := source.Parse("policy.yaml", []byte(text))
	require.Empty(t, diags)
	require.Len(t, docs, 1)
	return Parse(docs[0], nil)
}

func mustParse(t *testing.T, text string) *Policy {
	t.Helper()
	p, diags := parse(t, text)
	require.Empty(t, diags)
	return p
}

const basePolicy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: netpol
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds:
          - Namespace
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          podSelector: {}
`

func TestParseFillsTheModel(t *testing.T) {
	p := mustParse(t, basePolicy)
	assert.Equal(t, "ClusterPolicy/netpol", p.Key())
	assert.Equal(t, "kyverno.io/v1", p.APIVersion)
	assert.True(t, p.Spec.Background, "background defaults to true")
	assert.True(t, p.Spec.Admission, "admission defaults to true")
	assert.Equal(t, "All", p.Spec.ApplyRules)
	require.Len(t, p.Spec.Rules, 1)
	r := p.Spec.Rules[0]
	assert.Equal(t, "default-deny", r.Name)
	assert.True(t, r.SkipBackgroundRequests, "skipBackgroundRequests defaults to true")
	require.Len(t, r.Match.Any, 1)
	assert.Equal(t, []string{"Namespace"}, r.Match.Any[0].Resources.Kinds)
	assert.True(t, r.Exclude.Empty())
	require.NotNil(t, r.Generate)
	g := r.Generate
	assert.Equal(t, "NetworkPolicy", g.Kind)
	assert.Equal(t, "{{request.object.metadata.name}}", g.Namespace)
	assert.True(t, g.Synchronize)
	assert.True(t, g.HasData)
	assert.Equal(t, map[string]any{"spec": map[string]any{"podSelector": map[string]any{}}}, g.Data)
	assert.Nil(t, g.GenerateExisting)
	assert.False(t, p.GenerateExisting(&r))
	assert.Empty(t, Validate(p, testKinds))
}

func TestParseReadsEveryGenerateForm(t *testing.T) {
	p := mustParse(t, `apiVersion: kyverno.io/v2beta1
kind: Policy
metadata:
  name: p
  namespace: team-a
spec:
  background: false
  admission: true
  applyRules: One
  generateExisting: true
  useServerSideApply: true
  rules:
  - name: clone
    skipBackgroundRequests: false
    match:
      all:
      - resources:
          kinds: [ConfigMap]
          selector:
            matchLabels: {app: web}
            matchExpressions:
            - {key: tier, operator: In, values: [a, b]}
        subjects:
        - {kind: User, name: alice}
    generate:
      generateExisting: false
      orphanDownstreamOnPolicyDelete: true
      apiVersion: v1
      kind: Secret
      name: copy
      namespace: team-a
      clone: {namespace: team-a, name: source}
  - name: list
    match:
      any:
      - resources: {kinds: [ConfigMap]}
    generate:
      namespace: team-a
      cloneList:
        namespace: team-a
        kinds: [v1/Secret]
        selector: {matchLabels: {copy: "true"}}
  - name: each
    match:
      any:
      - resources: {kinds: [ConfigMap]}
    generate:
      foreach:
      - list: request.object.data.names
        context:
        - name: x
          variable: {value: 1}
        apiVersion: v1
        kind: ConfigMap
        name: "{{element}}"
        namespace: team-a
        data: null
`)
	assert.Equal(t, "Policy/team-a/p", p.Key())
	assert.False(t, p.Spec.Background)
	assert.Equal(t, "One", p.Spec.ApplyRules)
	assert.True(t, p.Spec.GenerateExisting)
	assert.True(t, p.Spec.UseServerSideApply)
	require.Len(t, p.Spec.Rules, 3)

	clone := p.Spec.Rules[0]
	assert.False(t, clone.SkipBackgroundRequests)
	require.Len(t, clone.Match.All, 1)
	f := clone.Match.All[0]
	assert.Equal(t, map[string]string{"app": "web"}, f.Resources.Selector.MatchLabels)
	assert.Equal(t, []Requirement{{Key: "tier", Operator: "In", Values: []string{"a", "b"}}}, f.Resources.Selector.MatchExpressions)
	assert.Equal(t, []Subject{{Kind: "User", Name: "alice"}}, f.Subjects)
	assert.Equal(t, &Clone{Namespace: "team-a", Name: "source"}, clone.Generate.Clone)
	assert.True(t, clone.Generate.OrphanDownstreamOnPolicyDelete)
	require.NotNil(t, clone.Generate.GenerateExisting)
	assert.False(t, p.GenerateExisting(&clone), "the rule's generateExisting overrides the policy's")
	assert.False(t, clone.Generate.HasData)

	list := p.Spec.Rules[1].Generate
	require.NotNil(t, list.CloneList)
	assert.Equal(t, []string{"v1/Secret"}, list.CloneList.Kinds)
	assert.Equal(t, map[string]string{"copy": "true"}, list.CloneList.Selector.MatchLabels)
	assert.True(t, p.GenerateExisting(&p.Spec.Rules[1]), "the policy's generateExisting is the fallback")

	each := p.Spec.Rules[2].Generate
	require.Len(t, each.ForEach, 1)
	assert.Equal(t, "request.object.data.names", each.ForEach[0].List)
	assert.Equal(t, "{{element}}", each.ForEach[0].Name)
	assert.Len(t, each.ForEach[0].Context, 1)
	assert.True(t, each.ForEach[0].HasData, "data: null is present")
	assert.Nil(t, each.ForEach[0].Data)

	assert.Empty(t, Validate(p, testKinds))
}

func TestParseLegacyMatchIsOneAllFilter(t *testing.T) {
	p := mustParse(t, `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: {name: legacy}
spec:
  background: false
  rules:
  - name: r
    match:
      resources:
        kinds: [Namespace]
        names: ["dev-*"]
      roles: [admin]
    exclude:
      clusterRoles: [viewer]
    generate: {apiVersion: v1, kind: ConfigMap, name: c, namespace: x}
`)
	r := p.Spec.Rules[0]
	assert.Empty(t, r.Match.Any)
	require.Len(t, r.Match.All, 1)
	assert.Equal(t, []string{"Namespace"}, r.Match.All[0].Resources.Kinds)
	assert.Equal(t, []string{"dev-*"}, r.Match.All[0].Resources.Names)
	assert.Equal(t, []string{"admin"}, r.Match.All[0].Roles)
	require.Len(t, r.Exclude.All, 1)
	assert.Equal(t, []string{"viewer"}, r.Exclude.All[0].ClusterRoles)
}

// generate.orphaned is not a field of Kyverno's ClusterPolicy: a real API
// server (v1.36.3, Kyverno v1.19.0's CRDs) refused it under strict field
// validation with exactly this message (../shared/kyverno/ORACLE.md); genplay
// adds the field the author meant.
func TestParseRefusesTheOrphanedFieldAsTheAPIServerDoes(t *testing.T) {
	p, diags := parse(t, strings.Replace(basePolicy, "      synchronize: true\n", "      synchronize: true\n      orphaned: true\n", 1))
	require.Len(t, diags, 1)
	assert.Equal(t, `strict decoding error: unknown field "spec.rules[0].generate.orphaned"; did you mean "orphanDownstreamOnPolicyDelete"?`, diags[0].Message)
	if p != nil {
		assert.False(t, p.Spec.Rules[0].Generate.OrphanDownstreamOnPolicyDelete, "an unknown field sets nothing")
	}
}

func TestParseRejectsWhatTheAPIServerRejects(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		version string
		wants   []want
	}{
		{
			name:  "an unknown field is a strict decoding error at its line",
			edit:  func(s string) string { return strings.Replace(s, "synchronize: true", "synchronise: true", 1) },
			wants: []want{errAt(18, `strict decoding error: unknown field "spec.rules[0].generate.synchronise"`)},
		},
		{
			name: "a string where a list belongs is a type error",
			edit: func(s string) string {
				return strings.Replace(s, "          kinds:\n          - Namespace\n", "          kinds: Namespace\n", 1)
			},
			wants: []want{errAt(11, `spec.rules[0].match.any[0].resources.kinds: Invalid value: "string": spec.rules[0].match.any[0].resources.kinds in body must be of type array: "string"`)},
		},
		{
			name:  "a list where a boolean belongs is a type error",
			edit:  func(s string) string { return strings.Replace(s, "synchronize: true", "synchronize: [true]", 1) },
			wants: []want{errAt(18, `must be of type boolean: "array"`)},
		},
		{
			name:  "a quoted boolean is a string",
			edit:  func(s string) string { return strings.Replace(s, "synchronize: true", `synchronize: "yes"`, 1) },
			wants: []want{errAt(18, `must be of type boolean: "string"`)},
		},
		{
			name: "an enum outside its values is unsupported",
			edit: func(s string) string {
				return strings.Replace(s, "spec:\n  rules:", "spec:\n  applyRules: Some\n  rules:", 1)
			},
			wants: []want{errAt(6, `spec.applyRules: Unsupported value: "Some": supported values: "All", "One"`)},
		},
		{
			name: "a rule needs a name",
			edit: func(s string) string {
				return strings.Replace(s, "  - name: default-deny\n    match:", "  - match:", 1)
			},
			wants: []want{errAt(7, "spec.rules[0].name: Required value")},
		},
		{
			name:    "v2beta1 has no legacy match",
			version: "kyverno.io/v2beta1",
			edit: func(s string) string {
				return strings.Replace(s, "      any:\n      - resources:\n          kinds:\n          - Namespace\n", "      resources:\n        kinds: [Namespace]\n", 1)
			},
			wants: []want{errAt(9, `unknown field "spec.rules[0].match.resources"`)},
		},
		{
			name: "annotations hold strings only",
			edit: func(s string) string {
				return strings.Replace(s, "          - Namespace\n", "          - Namespace\n          annotations:\n            ready: true\n", 1)
			},
			wants: []want{errAt(14, `annotations.ready: Invalid value: "boolean"`)},
		},
		{
			name: "every error is reported",
			edit: func(s string) string {
				s = strings.Replace(s, "synchronize: true", "synchronise: true", 1)
				return strings.Replace(s, "    match:", "    matches: {}\n    match:", 1)
			},
			wants: []want{
				errAt(8, `unknown field "spec.rules[0].matches"`),
				errAt(19, `unknown field "spec.rules[0].generate.synchronise"`),
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text := tt.edit(basePolicy)
			if tt.version != "" {
				text = strings.Replace(text, "kyverno.io/v1", tt.version, 1)
			}
			_, diags := parse(t, text)
			assertDiagnostics(t, diags, tt.wants)
		})
	}
}

func TestParseRefusesWhatIsNoPolicy(t *testing.T) {
	_, diags := parse(t, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n")
	assertDiagnostics(t, diags, []want{errAt(1, "not a kyverno.io ClusterPolicy or Policy")})
	_, diags = parse(t, strings.Replace(basePolicy, "kyverno.io/v1", "kyverno.io/v9", 1))
	assertDiagnostics(t, diags, []want{errAt(1, `no matches for kind "ClusterPolicy" in version "kyverno.io/v9"`)})
	p, diags := Parse(nil, nil)
	assert.Nil(t, p)
	require.Len(t, diags, 1)
	assert.Equal(t, source.Pos{}, diags[0].Pos)
}
