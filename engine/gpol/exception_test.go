package gpol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

const exception = `apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata:
  name: skip-kube-system
  namespace: kyverno
  labels:
    polex.kyverno.io/priority: "10"
spec:
  policyRefs:
  - name: netpol
    kind: GeneratingPolicy
  - name: quota
    kind: NamespacedGeneratingPolicy
  matchConditions:
  - name: system
    expression: object.metadata.name == 'kube-system'
  images: [ghcr.io/*]
  allowedValues: [a, b]
  reportResult: pass
  expiresAt: "2030-01-01T00:00:00Z"
  properties:
    ticket: OPS-1
  evaluationMode: Kubernetes
`

func TestParseExceptionReadsEveryField(t *testing.T) {
	for _, v := range []string{"v1", "v1beta1", "v1alpha1"} {
		e, diags := ParseException(doc(t, strings.Replace(exception, "policies.kyverno.io/v1", "policies.kyverno.io/"+v, 1)), nil)
		require.Empty(t, diags, v)
		assert.Equal(t, "skip-kube-system", e.Name)
		assert.Equal(t, "kyverno", e.Namespace)
		assert.Equal(t, "PolicyException/kyverno/skip-kube-system", e.Key())
		assert.Equal(t, []PolicyRef{{"netpol", KindGeneratingPolicy}, {"quota", KindNamespacedGeneratingPolicy}}, e.PolicyRefs)
		require.Len(t, e.MatchConditions, 1)
		assert.Equal(t, "system", e.MatchConditions[0].Name)
		assert.Equal(t, "spec.matchConditions[0].expression", e.MatchConditions[0].Expression.Path)
		assert.Equal(t, find(exception, "object.metadata.name ==", 0), e.MatchConditions[0].Expression.Pos)
		assert.Equal(t, []string{"ghcr.io/*"}, e.Images)
		assert.Equal(t, []string{"a", "b"}, e.AllowedValues)
		assert.Equal(t, "pass", e.ReportResult)
		assert.Equal(t, "2030-01-01T00:00:00Z", e.ExpiresAt)
		assert.Equal(t, map[string]string{"ticket": "OPS-1"}, e.Properties)
		assert.Equal(t, "Kubernetes", e.EvaluationMode)
		assert.Equal(t, 10, e.Priority)
		assert.True(t, IsException(e.Raw))
	}
}

func TestParseExceptionDefaultsAndPriority(t *testing.T) {
	text := "apiVersion: policies.kyverno.io/v1\nkind: PolicyException\nmetadata:\n  name: e\n  labels:\n    polex.kyverno.io/priority: \"%s\"\nspec:\n  policyRefs:\n  - {name: p, kind: GeneratingPolicy}\n"
	for prio, want := range map[string]int{"3": 3, "0": 0, "-2": 0, "high": 0} {
		e, diags := ParseException(doc(t, strings.Replace(text, "%s", prio, 1)), nil)
		require.Empty(t, diags)
		assert.Equal(t, want, e.Priority, "priority %q: only positive integers count", prio)
		assert.Equal(t, "skip", e.ReportResult, "reportResult defaults to skip")
	}
}

func TestParseExceptionChecksTheSchema(t *testing.T) {
	_, diags := ParseException(doc(t, strings.Replace(exception, "reportResult: pass", "reportResult: fail", 1)), nil)
	assert.Equal(t, []string{`policy.yaml:19:3: spec.reportResult: Unsupported value: "fail": supported values: "skip", "pass"`}, diagStrings(diags))
	_, diags = ParseException(doc(t, strings.Replace(exception, "  evaluationMode: Kubernetes\n", "  background: true\n", 1)), nil)
	assert.Equal(t, []string{`policy.yaml:23:3: strict decoding error: unknown field "spec.background"`}, diagStrings(diags))
	_, diags = ParseException(doc(t, strings.Replace(exception, "  - name: quota\n", "  - nam: quota\n", 1)), nil)
	assert.Equal(t, []string{`policy.yaml:12:5: strict decoding error: unknown field "spec.policyRefs[1].nam"`, `policy.yaml:12:5: spec.policyRefs[1].name: Required value`}, diagStrings(diags))
	_, diags = ParseException(doc(t, "apiVersion: policies.kyverno.io/v1\nkind: PolicyException\nmetadata:\n  name: e\nspec: {}\n"), nil)
	assert.Equal(t, []string{`policy.yaml:5:1: spec.policyRefs: Required value`}, diagStrings(diags))
	e, diags := ParseException(doc(t, "apiVersion: policies.kyverno.io/v2\nkind: PolicyException\nmetadata:\n  name: e\n"), nil)
	assert.Nil(t, e)
	assert.Equal(t, []string{`policy.yaml:1:1: no matches for kind "PolicyException" in version "policies.kyverno.io/v2"`}, diagStrings(diags))
	e, diags = ParseException(doc(t, "apiVersion: kyverno.io/v2\nkind: PolicyException\nmetadata:\n  name: e\n"), nil)
	assert.Nil(t, e, "the legacy kyverno.io PolicyException is another kind")
	assert.True(t, IsExceptionKind(resource.Object{"apiVersion": "policies.kyverno.io/v9", "kind": "PolicyException"}))
	assert.False(t, IsException(resource.Object{"apiVersion": "policies.kyverno.io/v9", "kind": "PolicyException"}))
	assert.False(t, IsExceptionKind(resource.Object{"apiVersion": "kyverno.io/v2", "kind": "PolicyException"}))
	assert.Len(t, diags, 1)
}

func TestExceptionRefersToPoliciesByNameAndKind(t *testing.T) {
	e, diags := ParseException(doc(t, exception), nil)
	require.Empty(t, diags)
	assert.True(t, e.Refers(&Policy{Kind: KindGeneratingPolicy, Name: "netpol"}))
	assert.True(t, e.Refers(&Policy{Kind: KindNamespacedGeneratingPolicy, Name: "quota", Namespace: "anywhere"}), "the namespace is not compared")
	assert.False(t, e.Refers(&Policy{Kind: KindNamespacedGeneratingPolicy, Name: "netpol"}), "the kind must match")
	assert.False(t, e.Refers(&Policy{Kind: KindGeneratingPolicy, Name: "other"}))
}
