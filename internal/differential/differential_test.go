//go:build !js

package differential

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// TestTheCorpusRunsInGenplay: every hand-written case parses and runs in
// genplay, and generates something (a case that generates nothing compares
// nothing), except where a CLI limitation is the point.
func TestTheCorpusRunsInGenplay(t *testing.T) {
	cases, err := LoadCorpus("testdata/corpus")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(cases), 20)
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := RunGenplay(c)
			require.NoError(t, r.Err)
			if strings.HasPrefix(c.Name, "invalid-") {
				assert.Contains(t, r.Log, "rejected", "the policy is invalid")
				return
			}
			if c.Limitation == "" && c.Name != "typed-configmap-data" {
				assert.NotEmpty(t, r.Objects, "genplay generated nothing:\n%s", r.Log)
			}
			assert.NotContains(t, r.Log, "rejected", "the policy is valid")
		})
	}
}

func TestRandomCasesReplayAndAreValid(t *testing.T) {
	a, b := Random(7, 40), Random(7, 40)
	require.Len(t, a, 40)
	generated := 0
	for i := range a {
		assert.Equal(t, a[i], b[i], "the same seed draws the same case")
		r := RunGenplay(a[i])
		require.NoError(t, r.Err, a[i].Name)
		assert.NotContains(t, r.Log, "rejected", "%s: the policy is valid:\n%s", a[i].Name, a[i].Policy)
		assert.NotContains(t, r.Log, "kyverno failed", "%s: no rule fails:\n%s\n%s", a[i].Name, r.Log, a[i].Policy)
		generated += len(r.Objects)
	}
	assert.Greater(t, generated, 20, "the cases generate objects to compare")
	assert.NotEqual(t, Random(8, 1)[0].Policy, a[0].Policy, "another seed, other cases")
	assert.Equal(t, Random(7, 40)[39], Random(7, 41)[39], "case i does not depend on how many are drawn")
}

func TestParseCaseReadsSections(t *testing.T) {
	c, err := ParseCase("x", []byte("# what it covers\n# on two lines\n-- policy.yaml --\na: 1\n-- resources.yaml --\nb: 2\n-- limitation --\ndefaulting\n"))
	require.NoError(t, err)
	assert.Equal(t, "what it covers\non two lines", c.Comment)
	assert.Equal(t, "a: 1\n", string(c.Policy))
	assert.Equal(t, "b: 2\n", string(c.Resources))
	assert.Equal(t, "defaulting", c.Limitation)
	_, err = ParseCase("x", []byte("-- policy.yaml --\na: 1\n-- resources.yaml --\nb: 2\n-- limitation --\nnope\n"))
	assert.ErrorContains(t, err, `unknown limitation "nope"`)
	_, err = ParseCase("x", []byte("-- policy.yaml --\na: 1\n"))
	assert.ErrorContains(t, err, "needs a policy.yaml and a resources.yaml")
}

func TestComparisonIgnoresOnlyServerFieldsAndUIDs(t *testing.T) {
	obj := func(labels map[string]any, data map[string]any) resource.Object {
		return resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "data": data,
			"metadata": map[string]any{"name": "c", "namespace": "default", "labels": labels}}
	}
	g := obj(map[string]any{"generate.kyverno.io/trigger-uid": "00000000-0000-4000-8000-000000000009", "a": "b"}, map[string]any{"k": "v"})
	g.Metadata()["uid"], g.Metadata()["resourceVersion"] = "u", "7"
	k := obj(map[string]any{"generate.kyverno.io/trigger-uid": "", "a": "b"}, map[string]any{"k": "v"})
	d, n := diffObjects([]resource.Object{g}, []resource.Object{k})
	assert.Equal(t, "", d)
	assert.Equal(t, 1, n)

	k2 := obj(map[string]any{"generate.kyverno.io/trigger-uid": "x", "a": "c"}, map[string]any{"k": "v"})
	d, _ = diffObjects([]resource.Object{g}, []resource.Object{k2})
	assert.Contains(t, d, "-    a: b\n+    a: c", "a label differs")
	d, _ = diffObjects(nil, []resource.Object{k})
	assert.Contains(t, d, "only Kyverno's CLI generated ConfigMap default/c")
}

func TestDefaultingIsALimitationOnlyWhenItExplainsTheWholeDifference(t *testing.T) {
	ns := func(labels map[string]any) resource.Object {
		return resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "blue", "labels": labels}}
	}
	gp := ns(map[string]any{"team": "blue", "kubernetes.io/metadata.name": "blue"})
	gp["status"] = map[string]any{"phase": "Active"}
	g := Result{Objects: []resource.Object{gp}}
	l := explain(Case{}, g, Result{Objects: []resource.Object{ns(map[string]any{"team": "blue"})}})
	require.NotNil(t, l)
	assert.Equal(t, "defaulting", l.ID)
	assert.Nil(t, explain(Case{}, g, Result{Objects: []resource.Object{ns(map[string]any{"team": "red"})}}))
}

func TestTheLimitationsAreTheDocumentedOnes(t *testing.T) {
	all, err := readDoc()
	require.NoError(t, err)
	_, doc, ok := bytes.Cut(all, []byte("## Where the CLI is not a faithful cluster"))
	require.True(t, ok, "docs/differential.md has the section of the limitations")
	doc, _, _ = bytes.Cut(doc, []byte("\n## "))
	for _, l := range Limitations {
		assert.True(t, bytes.Contains(doc, []byte("`"+l.ID+"`")), "docs/differential.md lists %s", l.ID)
	}
	assert.Equal(t, len(Limitations), strings.Count(string(doc), "\n- `"), "one list, the same length")
}
