package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
)

// A policy that a generate rule writes is a write like any other on a
// cluster: Kyverno's policy webhook admits it (or denies the background
// controller's request) and its policy controllers take it up, in both
// families. And the background controller writes with its own permissions:
// Kyverno admits a GeneratingPolicy without checking them (unlike a
// ClusterPolicy), so the API server's refusal is what the user sees.

// aggregatedRole grants Kyverno's background controller verbs on resources
// of group through the chart's aggregation label.
func aggregatedRole(name, group, resources string) string {
	return `    - apply:
        resource:
          apiVersion: rbac.authorization.k8s.io/v1
          kind: ClusterRole
          metadata:
            name: ` + name + `
            labels:
              rbac.kyverno.io/aggregate-to-background-controller: "true"
          rules:
          - apiGroups: ["` + group + `"]
            resources: [` + resources + `]
            verbs: [create, update, delete, get, list, watch]
`
}

// gpolSpawningGpol is a GeneratingPolicy that, for the Namespace seed,
// writes a GeneratingPolicy child, which writes a ConfigMap into every new
// Namespace; childExpr is child's generate expression (a CEL string).
func gpolSpawningGpol(childExpr string) string {
	return `    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: parent
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [namespaces]
            matchConditions:
            - name: seed
              expression: object.metadata.name == "seed"
            generate:
            - expression: >-
                generator.Apply("", [{
                  "apiVersion": "policies.kyverno.io/v1", "kind": "GeneratingPolicy",
                  "metadata": {"name": "child"},
                  "spec": {
                    "matchConstraints": {"resourceRules": [{"apiGroups": [""], "apiVersions": ["v1"], "operations": ["CREATE"], "resources": ["namespaces"]}]},
                    "generate": [{"expression": ` + childExpr + `}]}}])
`
}

func TestAGeneratingPolicyWrittenByAGeneratingPolicyIsAdmittedAndGenerates(t *testing.T) {
	child := `"generator.Apply(object.metadata.name, [{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\", \"metadata\": {\"name\": \"from-child\"}}])"`
	steps := "  - try:\n" + aggregatedRole("kyverno-may-manage-gpols", "policies.kyverno.io", "generatingpolicies") + gpolSpawningGpol(child) +
		"    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: seed}}}\n" +
		"  - try:\n    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}}\n" +
		"    - assert: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: from-child, namespace: team-a}}}\n" +
		"    - assert: {resource: {apiVersion: policies.kyverno.io/v1, kind: GeneratingPolicy, metadata: {name: child}, status: {conditionStatus: {ready: true}}}}\n"
	res := Run("gpol.yaml", scenarioYAML("gpol-spawns-gpol", steps), Options{Families: celFamilies})
	out, err := timeline.Marshal(res)
	require.NoError(t, err)
	assert.True(t, res.Passed, "%s", out)
	created := eventsWith(res, timeline.ActionCreated, "generator.apply created it")
	require.NotEmpty(t, created)
	assert.Equal(t, "GeneratingPolicy/child", created[len(created)-1].Policy, "the written policy generated")
}

func TestAPolicyTheWebhookDeniesFailsTheBackgroundControllersWrite(t *testing.T) {
	// The child has no generate entry: Kyverno's policy webhook denies it,
	// so the parent's UpdateRequest fails with the webhook's message.
	steps := "  - try:\n" + aggregatedRole("kyverno-may-manage-gpols", "policies.kyverno.io", "generatingpolicies") +
		strings.Replace(gpolSpawningGpol(`"x"`), `"generate": [{"expression": "x"}]`, `"generate": [{"expression": "1 + "}]`, 1) +
		"    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: seed}}}\n"
	res := Run("gpol.yaml", scenarioYAML("gpol-denied", steps), Options{Families: celFamilies})
	failed := eventsWith(res, timeline.ActionFailed, "spec.generate[0].expression")
	require.NotEmpty(t, failed, "the parent's UpdateRequest failed")
	assert.Contains(t, failed[0].Reason, "Syntax error")
	for _, c := range res.Clusters() {
		for _, o := range c.Objects() {
			assert.NotEqual(t, "child", o.Name(), "the denied policy was not stored")
		}
	}
}

func TestACELPolicyWritesWithTheBackgroundControllersPermissions(t *testing.T) {
	policy := `    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata: {name: copy-secret}
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [namespaces]
            generate:
            - expression: >-
                generator.Apply(object.metadata.name, [{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}, "stringData": {"k": "v"}}])
`
	ns := "    - apply: {resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}}\n"
	t.Run("a default install may not create Secrets: the API server refuses, Kyverno says permission denied", func(t *testing.T) {
		res := Run("gpol.yaml", scenarioYAML("no-secrets", "  - try:\n"+policy+ns), Options{Families: celFamilies})
		failed := eventsWith(res, timeline.ActionFailed, "permission denied")
		require.Len(t, failed, 1, "the policy is admitted (no permission check for a GeneratingPolicy) and its write fails")
		assert.Contains(t, failed[0].Reason, `failed to generate resources: permission denied: secrets is forbidden: `+
			`User "system:serviceaccount:kyverno:kyverno-background-controller" cannot create resource "secrets" in API group "" in the namespace "team-a"`)
	})
	t.Run("a ClusterRole aggregated into the background controller's grants it", func(t *testing.T) {
		res := Run("gpol.yaml", scenarioYAML("secrets", "  - try:\n"+aggregatedRole("secrets", "", "secrets")+policy+ns+
			"    - assert: {resource: {apiVersion: v1, kind: Secret, metadata: {name: s, namespace: team-a}}}\n"), Options{Families: celFamilies})
		assert.True(t, res.Passed)
		assert.Empty(t, eventsWith(res, timeline.ActionFailed, ""))
	})
	t.Run("the legacy family's policy is refused when it is admitted, as Kyverno's canIGenerate does", func(t *testing.T) {
		legacy := `    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata: {name: copy-secret}
          spec:
            rules:
            - name: r
              match: {any: [{resources: {kinds: [Namespace]}}]}
              generate: {apiVersion: v1, kind: Secret, name: s, namespace: "{{request.object.metadata.name}}", data: {stringData: {k: v}}}
`
		res := Run("legacy.yaml", scenarioYAML("legacy-secrets", "  - try:\n"+legacy), Options{})
		require.NotEmpty(t, res.Steps)
		assert.Contains(t, res.Steps[0].Error, `denied the request: spec.rules[0].generate: system:serviceaccount:kyverno:kyverno-background-controller requires permissions get,create for resource v1/Secret`)
	})
}
