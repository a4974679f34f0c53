package migrate_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/migrate"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

func twoRuleTest() string {
	policy := clusterPolicy("", "  - name: first\n"+nsMatch+netpolData+"  - name: second\n"+nsMatch+netpolData)
	text := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - apply:
        resource:
` + indentBy(policy, 10) + `
    - assert:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: p
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
    - delete:
        ref:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          name: p
`
	return text
}

func TestConvertTestReplacesThePolicyOperationByOperation(t *testing.T) {
	text := twoRuleTest()
	tests, diags := scenario.Parse("t.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	res := migrate.ConvertTest(tests[0])
	require.Len(t, res.Policies, 1)
	assert.Equal(t, migrate.Full, res.Status())
	ops := res.Test.Steps[0].Try
	require.Len(t, ops, 5, "the delete of the policy became one delete per GeneratingPolicy")
	var applied []string
	for _, r := range ops[0].Resources {
		applied = append(applied, r.Object.Kind()+"/"+r.Object.Name())
	}
	assert.Equal(t, []string{"GeneratingPolicy/p-first", "GeneratingPolicy/p-second"}, applied)
	assert.False(t, ops[0].Template, "converted policies are applied without chainsaw templating")
	require.Len(t, ops[1].Resources, 2)
	assert.Equal(t, "GeneratingPolicy", ops[1].Resources[0].Object.Kind(), "the assert is on the converted policies")
	assert.Equal(t, "Namespace", ops[2].Resources[0].Object.Kind(), "other resources are unchanged")
	assert.Equal(t, "p-first", ops[3].Ref.Name)
	assert.Equal(t, "p-second", ops[4].Ref.Name)
	assert.Equal(t, "ClusterPolicy", tests[0].Steps[0].Try[0].Resources[0].Object.Kind(), "the original test is not changed")
}

func TestConvertTestDocumentWritesTheScenarioToAdopt(t *testing.T) {
	docs, diags := source.Parse("t.yaml", []byte(twoRuleTest()))
	require.False(t, diags.HasErrors())
	y, res, err := migrate.ConvertTestDocument(docs[0])
	require.NoError(t, err)
	assert.Equal(t, migrate.Full, res.Status())
	tests, diags := scenario.Parse("converted.yaml", []byte(y))
	require.False(t, diags.HasErrors(), "%v\n%s", diags, y)
	ops := tests[0].Steps[0].Try
	var kinds []string
	for _, op := range ops {
		switch {
		case op.Ref != nil:
			kinds = append(kinds, op.Type+" "+op.Ref.Kind+"/"+op.Ref.Name)
		default:
			kinds = append(kinds, op.Type+" "+op.Resources[0].Object.Kind()+"/"+op.Resources[0].Object.Name())
		}
	}
	assert.Equal(t, []string{"apply GeneratingPolicy/p-first", "apply GeneratingPolicy/p-second",
		"assert GeneratingPolicy/p-first", "assert GeneratingPolicy/p-second", "apply Namespace/team-a",
		"delete GeneratingPolicy/p-first", "delete GeneratingPolicy/p-second"}, kinds)
	assert.False(t, ops[0].Template, "written with template: false")
	_, _, err = migrate.ConvertTestDocument(&source.Document{Value: map[string]any{"kind": "ConfigMap"}})
	assert.Error(t, err)
}

func TestAPatchOfAPolicyConvertsThePatchedPolicy(t *testing.T) {
	text := strings.Replace(twoRuleTest(), `    - delete:
        ref:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          name: p
`, `    - patch:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: p
          spec:
            generateExisting: true
`, 1)
	tests, diags := scenario.Parse("t.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	res := migrate.ConvertTest(tests[0])
	op := res.Test.Steps[0].Try[3]
	assert.Equal(t, scenario.OpApply, op.Type)
	require.Len(t, op.Resources, 2)
	ev, _ := op.Resources[0].Object.Nested("spec", "evaluation", "generateExisting", "enabled")
	assert.Equal(t, true, ev, "the patch reached the converted policy")
}

func indentBy(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = strings.Repeat(" ", n) + l
		}
	}
	return strings.Join(lines, "\n")
}
