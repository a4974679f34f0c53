package clitest_test

import (
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/clitest"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

const policy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: add-quota
spec:
  rules:
  - name: quota
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ResourceQuota
      name: default-quota
      namespace: '{{request.object.metadata.name}}'
      data:
        spec:
          hard:
            pods: "20"
  - name: require-team
    match:
      any:
      - resources:
          kinds: [Namespace]
    validate:
      message: a team label
      pattern:
        metadata:
          labels:
            team: "?*"
`

const resources = `apiVersion: v1
kind: Namespace
metadata:
  name: team-a
`

// build reads the kyverno-test.yaml text test next to the policy and the
// resources above and builds it.
func build(t *testing.T, test string, extra fstest.MapFS) (clitest.Test, []clitest.Check, string, error) {
	t.Helper()
	fsys := fstest.MapFS{
		"t/kyverno-test.yaml": {Data: []byte(test)},
		"t/policy.yaml":       {Data: []byte(policy)},
		"t/resources.yaml":    {Data: []byte(resources)},
	}
	for k, v := range extra {
		fsys[k] = v
	}
	docs, diags := source.Parse("t/kyverno-test.yaml", []byte(test))
	require.False(t, diags.HasErrors(), diags.Error())
	ct := clitest.Read(docs[0])
	tt, checks, skip, err := clitest.Build(fsys, "t/kyverno-test.yaml", ct)
	if err == nil && skip == "" {
		require.NotNil(t, tt)
		assert.Len(t, tt.Steps, 4, "namespaces and clone sources, policies, resources, results")
	}
	return ct, checks, skip, err
}

const head = "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: t\npolicies: [policy.yaml]\nresources: [resources.yaml]\n"

func TestBuildSaysWhatItCannotSimulate(t *testing.T) {
	cases := []struct {
		name, test, skip, err string
	}{
		{name: "a result of a validate rule",
			test: head + "results:\n- {policy: add-quota, rule: require-team, kind: Namespace, resources: [team-a], result: pass}\n",
			skip: "results[0] checks the validate rule add-quota/require-team: genplay simulates generate rules only"},
		{name: "an autogen rule",
			test: head + "results:\n- {policy: add-quota, rule: autogen-require-team, kind: Pod, resources: [x], result: pass}\n",
			skip: "results[0] checks the autogen rule autogen-require-team"},
		{name: "result fail of a generate rule",
			test: head + "results:\n- {policy: add-quota, rule: quota, kind: Namespace, resources: [team-a], result: fail}\n",
			skip: `results[0] expects "fail": for a generate rule genplay checks pass and skip`},
		{name: "no results",
			test: head + "results: []\n",
			skip: "the test has no results for generate rules"},
		{name: "a values file that is not there",
			test: head + "variables: values.yaml\nresults:\n- {policy: add-quota, rule: quota, kind: Namespace, resources: [team-a], result: pass}\n",
			err:  "variables: read values.yaml: open t/values.yaml: file does not exist"},
		{name: "a userinfo file",
			test: head + "userInfo: user.yaml\nresults:\n- {policy: add-quota, rule: quota, kind: Namespace, resources: [team-a], result: pass}\n",
			skip: "the test sets userinfo (user.yaml)"},
		{name: "a rule the policy does not have",
			test: head + "results:\n- {policy: add-quota, rule: nope, kind: Namespace, resources: [team-a], result: pass}\n",
			err:  "results[0]: no rule nope in policy add-quota"},
		{name: "a GeneratingPolicy the test does not hold",
			test: head + "results:\n- {policy: gen, isGeneratingPolicy: true, kind: Namespace, resources: [team-a], result: pass}\n",
			err:  "results[0]: no GeneratingPolicy gen among the policies"},
		{name: "a file that is not there",
			test: head + "results:\n- {policy: add-quota, rule: quota, kind: Namespace, resources: [team-a], generatedResource: missing.yaml, result: pass}\n",
			err:  "read missing.yaml: open t/missing.yaml: file does not exist"},
		{name: "a URL",
			test: "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\npolicies: [https://example.com/p.yaml]\n",
			err:  "https://example.com/p.yaml: URLs are not read; put the file next to the test"},
		{name: "a file outside the folder",
			test: "apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\npolicies: [../../p.yaml]\n",
			err:  "../../p.yaml: outside the folder tests are read from"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, skip, err := build(t, c.test, nil)
			if c.err != "" {
				assert.EqualError(t, err, c.err)
				return
			}
			require.NoError(t, err)
			assert.Contains(t, skip, c.skip)
		})
	}
}

func TestBuildChecksEachNamedResource(t *testing.T) {
	ct, checks, skip, err := build(t, head+`results:
- policy: add-quota
  rule: quota
  kind: Namespace
  resources: [team-a, other/team-b]
  result: pass
- policy: add-quota
  rule: quota
  kind: Namespace
  resource: team-c
  status: skip
`, nil)
	require.NoError(t, err)
	require.Empty(t, skip)
	assert.Equal(t, "t", ct.Name)
	require.Len(t, checks, 3, "resources and the older resource, each checked")
	assert.Equal(t, []bool{true, true, false}, []bool{checks[0].Generates, checks[1].Generates, checks[2].Generates},
		"result, or the older status, says pass or skip")
	assert.Equal(t, "other/team-b", checks[1].Name)
}

func TestIsRecognizesBothForms(t *testing.T) {
	assert.True(t, clitest.Is(resource.Object{"apiVersion": "cli.kyverno.io/v1alpha1", "kind": "Test"}))
	assert.True(t, clitest.Is(resource.Object{"name": "old", "policies": []any{"p.yaml"}}), "the form without apiVersion")
	assert.False(t, clitest.Is(resource.Object{"apiVersion": "chainsaw.kyverno.io/v1alpha1", "kind": "Test"}))
	assert.False(t, clitest.Is(nil))
}
