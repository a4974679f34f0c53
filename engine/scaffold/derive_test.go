package scaffold

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/source"
)

// clusterPolicy is a ClusterPolicy with one generate rule whose match is
// the given YAML (indented under match:) and a ConfigMap downstream.
func clusterPolicy(match string) string {
	return `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: r
    match:
` + indentLines(match, "      ") + `    generate:
      apiVersion: v1
      kind: ConfigMap
      name: generated
      namespace: "{{request.object.metadata.namespace}}"
      data:
        data:
          k: v
`
}

func legacyTrigger(t *testing.T, text string) (*trigger, error) {
	t.Helper()
	docs, diags := source.Parse("p.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	p, diags := policy.Parse(docs[0], nil)
	require.False(t, diags.HasErrors(), "%v", diags)
	return deriveRule(&p.Spec.Rules[0], knownKinds(), p.Namespace)
}

func TestLegacyTriggers(t *testing.T) {
	cases := []struct {
		name, match                   string
		kind, trigger, namespace      string
		labels, nsLabels, annotations map[string]string
	}{
		{name: "a bare kind gives a trigger of that kind in default", match: "any:\n- resources:\n    kinds: [ConfigMap]\n",
			kind: "ConfigMap", trigger: "demo", namespace: "default"},
		{name: "group/version/Kind resolves that version", match: "any:\n- resources:\n    kinds: [apps/v1/Deployment]\n",
			kind: "Deployment", trigger: "demo", namespace: "default"},
		{name: "a wildcard kind prefers ConfigMap", match: "any:\n- resources:\n    kinds: ['*']\n",
			kind: "ConfigMap", trigger: "demo", namespace: "default"},
		{name: "the first known kind of the list is taken", match: "any:\n- resources:\n    kinds: [Widget, Secret]\n",
			kind: "Secret", trigger: "demo", namespace: "default"},
		{name: "a wildcard name is resolved to a concrete name", match: "any:\n- resources:\n    kinds: [Namespace]\n    names: ['team-*']\n",
			kind: "Namespace", trigger: "team-demo"},
		{name: "a ? in a name becomes x", match: "any:\n- resources:\n    kinds: [Secret]\n    name: 'app-?'\n",
			kind: "Secret", trigger: "app-x", namespace: "default"},
		{name: "namespaces give the trigger's namespace, wildcards resolved", match: "any:\n- resources:\n    kinds: [ConfigMap]\n    namespaces: ['prod-*']\n",
			kind: "ConfigMap", trigger: "demo", namespace: "prod-demo"},
		{name: "namespaces name a Namespace trigger itself", match: "any:\n- resources:\n    kinds: [Namespace]\n    namespaces: [team-a]\n",
			kind: "Namespace", trigger: "team-a"},
		{name: "matchLabels become the trigger's labels, wildcards resolved",
			match: "any:\n- resources:\n    kinds: [Namespace]\n    selector:\n      matchLabels:\n        team: '*'\n        tier: web\n",
			kind:  "Namespace", trigger: "demo", labels: map[string]string{"team": "demo", "tier": "web"}},
		{name: "matchExpressions In, NotIn, Exists and DoesNotExist are satisfied",
			match: `any:
- resources:
    kinds: [Pod]
    selector:
      matchExpressions:
      - {key: env, operator: In, values: [prod, staging]}
      - {key: env, operator: NotIn, values: [dev]}
      - {key: owner, operator: Exists}
      - {key: owner, operator: NotIn, values: ["true"]}
      - {key: legacy, operator: DoesNotExist}
`,
			kind: "Pod", trigger: "demo", namespace: "default", labels: map[string]string{"env": "prod", "owner": "value-0"}},
		{name: "a namespaceSelector labels a namespace of the scenario's own",
			match: "any:\n- resources:\n    kinds: [ConfigMap]\n    namespaceSelector:\n      matchLabels:\n        managed: 'true'\n",
			kind:  "ConfigMap", trigger: "demo", namespace: "demo", nsLabels: map[string]string{"managed": "true"}},
		{name: "annotations are set, wildcards resolved", match: "any:\n- resources:\n    kinds: [Secret]\n    annotations:\n      sync: 'yes*'\n",
			kind: "Secret", trigger: "demo", namespace: "default", annotations: map[string]string{"sync": "yesdemo"}},
		{name: "match.all merges its filters", match: "all:\n- resources:\n    kinds: [ConfigMap, Secret]\n- resources:\n    kinds: [Secret]\n    selector:\n      matchLabels: {a: b}\n",
			kind: "Secret", trigger: "demo", namespace: "default", labels: map[string]string{"a": "b"}},
		{name: "a filter that cannot be derived gives way to the next any filter", match: "any:\n- subjects:\n  - kind: User\n    name: alice\n- resources:\n    kinds: [Secret]\n",
			kind: "Secret", trigger: "demo", namespace: "default"},
		{name: "the legacy match form (match.resources) is read", match: "resources:\n  kinds: [Namespace]\n",
			kind: "Namespace", trigger: "demo"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := legacyTrigger(t, clusterPolicy(c.match))
			require.NoError(t, err)
			assert.Equal(t, c.kind, tr.kind.Kind)
			assert.Equal(t, c.trigger, tr.name)
			assert.Equal(t, c.namespace, tr.namespace)
			assert.Equal(t, orEmpty(c.labels), orEmpty(tr.labels))
			assert.Equal(t, orEmpty(c.nsLabels), orEmpty(tr.nsLabels))
			assert.Equal(t, orEmpty(c.annotations), orEmpty(tr.annotations))
		})
	}
}

func orEmpty(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func TestLegacyRefusals(t *testing.T) {
	cases := []struct{ name, match, reason string }{
		{"a userInfo-only match is refused", "any:\n- subjects:\n  - kind: User\n    name: alice\n", "only by who sends the request"},
		{"an unknown kind is refused", "any:\n- resources:\n    kinds: [example.com/v1/Widget]\n", "is a kind genplay knows"},
		{"a subresource is refused", "any:\n- resources:\n    kinds: [Pod/exec]\n", "is a kind genplay knows"},
		{"contradicting selector terms are refused", "any:\n- resources:\n    kinds: [Pod]\n    selector:\n      matchLabels: {env: dev}\n      matchExpressions:\n      - {key: env, operator: NotIn, values: [dev]}\n", "not in [dev]"},
		{"Exists and DoesNotExist on one key are refused", "any:\n- resources:\n    kinds: [Pod]\n    selector:\n      matchExpressions:\n      - {key: a, operator: Exists}\n      - {key: a, operator: DoesNotExist}\n", "label a absent"},
		{"a DELETE-only match is refused", "any:\n- resources:\n    kinds: [Pod]\n    operations: [DELETE]\n", "selects only [DELETE] requests"},
		{"a namespaceSelector on a Namespace is refused", "any:\n- resources:\n    kinds: [Namespace]\n    namespaceSelector:\n      matchLabels: {a: b}\n", "never matches a Namespace"},
		{"an exclude that takes the derived trigger is said", "any:\n- resources:\n    kinds: [Namespace]\nexclude:\n  any:\n  - resources:\n      names: ['*']\n", "excluded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := clusterPolicy(c.match)
			if strings.Contains(c.match, "exclude:") {
				m, ex, _ := strings.Cut(c.match, "exclude:\n")
				text = strings.Replace(clusterPolicy(m), "    generate:", "    exclude:\n"+indentLines(ex, "      ")+"    generate:", 1)
			}
			_, err := legacyTrigger(t, text)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.reason)
			// Wrapped, the refusal is a warning at the rule's match.
			res := wrap(t, text)
			require.Len(t, res.Notes, 1)
			assert.True(t, res.Notes[0].Warning)
			assert.Equal(t, 8, res.Notes[0].Pos.Line, "at match:")
			assert.Contains(t, res.Notes[0].Message, c.reason)
			assert.Zero(t, res.Triggers)
		})
	}
}

func TestAPolicyTriggersInItsOwnNamespace(t *testing.T) {
	text := strings.Replace(strings.Replace(clusterPolicy("any:\n- resources:\n    kinds: [ConfigMap]\n"), "ClusterPolicy", "Policy", 1),
		"  name: p\n", "  name: p\n  namespace: team-a\n", 1)
	tr, err := legacyTrigger(t, text)
	require.NoError(t, err)
	assert.Equal(t, "team-a", tr.namespace)
	_, err = legacyTrigger(t, strings.Replace(text, "kinds: [ConfigMap]", "kinds: [ConfigMap]\n          namespaces: [other]", 1))
	assert.ErrorContains(t, err, "only sees its own namespace")
}

// gpolicy is a GeneratingPolicy with the given matchConstraints (indented
// under it) and a generator.apply of a ConfigMap into the trigger's
// namespace.
func gpolicy(kind, constraints string) string {
	ns := ""
	if kind == "NamespacedGeneratingPolicy" {
		ns = "  namespace: team-a\n"
	}
	return `apiVersion: policies.kyverno.io/v1
kind: ` + kind + `
metadata:
  name: g
` + ns + `spec:
  matchConstraints:
` + indentLines(constraints, "    ") + `  generate:
  - expression: >-
      generator.Apply(object.metadata.namespace, [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "generated"}, "data": {"k": "v"}}])
`
}

func celTrigger(t *testing.T, text string) (*trigger, error) {
	t.Helper()
	docs, diags := source.Parse("g.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	p, diags := gpol.Parse(docs[0], nil)
	require.False(t, diags.HasErrors(), "%v", diags)
	return deriveCEL(p, knownKinds())
}

func TestCELTriggers(t *testing.T) {
	rules := func(s string) string { return "resourceRules:\n" + s }
	cases := []struct {
		name, kind, constraints string
		trigger, tkind, ns      string
		labels, nsLabels        map[string]string
	}{
		{name: "resourceRules give the kind", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [configmaps]\n"),
			tkind:       "ConfigMap", trigger: "demo", ns: "default"},
		{name: "a wildcard version takes the group's first", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: [apps]\n  apiVersions: ['*']\n  operations: ['*']\n  resources: [deployments]\n"),
			tkind:       "Deployment", trigger: "demo", ns: "default"},
		{name: "resourceNames name the trigger", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [namespaces]\n  resourceNames: [team-a]\n"),
			tkind:       "Namespace", trigger: "team-a"},
		{name: "objectSelector gives labels", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [secrets]\n") +
				"objectSelector:\n  matchExpressions:\n  - {key: app, operator: In, values: [web]}\n",
			tkind: "Secret", trigger: "demo", ns: "default", labels: map[string]string{"app": "web"}},
		{name: "a namespaceSelector labels a namespace of the scenario's own", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [configmaps]\n") +
				"namespaceSelector:\n  matchLabels: {env: prod}\n",
			tkind: "ConfigMap", trigger: "demo", ns: "demo", nsLabels: map[string]string{"env": "prod"}},
		{name: "a namespaceSelector on namespaces labels the Namespace itself", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [namespaces]\n") +
				"namespaceSelector:\n  matchExpressions:\n  - {key: tier, operator: Exists}\n",
			tkind: "Namespace", trigger: "demo", labels: map[string]string{"tier": "true"}},
		{name: "a NamespacedGeneratingPolicy triggers in its namespace", kind: "NamespacedGeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [configmaps]\n"),
			tkind:       "ConfigMap", trigger: "demo", ns: "team-a"},
		{name: "a rule of a subresource gives way to the next", kind: "GeneratingPolicy",
			constraints: rules("- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [pods/exec]\n- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [secrets]\n"),
			tkind:       "Secret", trigger: "demo", ns: "default"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := celTrigger(t, gpolicy(c.kind, c.constraints))
			require.NoError(t, err)
			assert.Equal(t, c.tkind, tr.kind.Kind)
			assert.Equal(t, c.trigger, tr.name)
			assert.Equal(t, c.ns, tr.namespace)
			assert.Equal(t, orEmpty(c.labels), orEmpty(tr.labels))
			assert.Equal(t, orEmpty(c.nsLabels), orEmpty(tr.nsLabels))
		})
	}
}

func TestCELRefusals(t *testing.T) {
	rr := "resourceRules:\n- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [%s]\n  resources: [%s]\n"
	cases := []struct{ name, constraints, reason string }{
		{"a DELETE-only rule is refused", strings.NewReplacer("%s", "DELETE").Replace(rr), "selects only [DELETE]"},
		{"an unknown resource is refused", strings.Replace(strings.Replace(rr, "%s", "CREATE", 1), "%s", "widgets", 1), "is a kind genplay knows"},
		{"an exclude rule that takes the trigger is said", strings.Replace(strings.Replace(rr, "%s", "CREATE", 1), "%s", "secrets", 1) +
			"excludeResourceRules:\n- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [secrets]\n", "exclude"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := gpolicy("GeneratingPolicy", c.constraints)
			_, err := celTrigger(t, text)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.reason)
			res := wrap(t, text)
			require.NotEmpty(t, res.Notes)
			assert.True(t, res.Notes[0].Warning)
			assert.Equal(t, 6, res.Notes[0].Pos.Line, "at matchConstraints:")
			assert.Zero(t, res.Triggers)
		})
	}
}

func TestMatchConditionsAreNotedAtTheirLine(t *testing.T) {
	text := gpolicy("GeneratingPolicy", "resourceRules:\n- apiGroups: ['']\n  apiVersions: [v1]\n  operations: [CREATE]\n  resources: [namespaces]\n")
	text = strings.Replace(text, "  generate:\n", "  matchConditions:\n  - name: labelled\n    expression: \"'team' in object.metadata.labels\"\n  generate:\n", 1)
	res := wrap(t, text)
	require.NotEmpty(t, res.Notes)
	assert.Equal(t, 13, res.Notes[0].Pos.Line)
	assert.Contains(t, res.Notes[0].Message, "match condition labelled is not evaluated")
	assert.Equal(t, 1, res.Triggers)
}

func TestSatisfy(t *testing.T) {
	assert.Equal(t, "demo", concrete("*"))
	assert.Equal(t, "team-demo", concrete("team-*"))
	assert.Equal(t, "axb", concrete("a?b"))
	assert.Equal(t, "exact", concrete("exact"))
}
