package export_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/export"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/site/examples"
)

var opts = engine.Options{Families: []engine.Family{controller.New}, Scripts: shell.New}

// scenario is a policy with a trigger in the test namespace, its
// downstream deleted, and comments the export must keep.
const scenario = `# top comment
apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cm-per-secret
spec:
  steps:
  - name: policy
    try:
    - apply:   # the policy
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: cm
          spec:
            rules:
            - name: cm
              match:
                any:
                - resources:
                    kinds: [ConfigMap]
                    names: [trigger]
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: copy
                namespace: '{{request.object.metadata.namespace}}'
                synchronize: true
                data:
                  data:
                    from: '{{request.object.metadata.namespace}}'

  - name: trigger
    try: [{apply: {resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: trigger}}}}]
  - name: delete
    try:
    # delete the copy
    - delete:
        ref: {apiVersion: v1, kind: ConfigMap, name: copy}
    finally:
    - sleep:
        duration: 1s
`

func TestExportKeepsTheTextAndChecksWhatKyvernoDid(t *testing.T) {
	r, err := export.Test("t.yaml", []byte(scenario), opts)
	require.NoError(t, err)
	assertSubsequence(t, scenario, r.Text)
	// Readiness right after the policy's apply, at its indentation.
	assert.Contains(t, r.Text, "    # genplay: wait until Kyverno reports ClusterPolicy cm ready\n    - assert:\n")
	// The flow-style try gets its checks in a step of their own.
	assert.Contains(t, r.Text, "  - name: 'trigger: genplay''s checks'\n    try:\n")
	// The downstream in the test namespace: no namespace, ($namespace) in values.
	assert.Contains(t, r.Text, "generate.kyverno.io/trigger-namespace: ($namespace)")
	assert.Contains(t, r.Text, "from: ($namespace)")
	assert.NotContains(t, r.Text, engine.TestNamespace)
	for _, field := range []string{"uid:", "resourceVersion:", "creationTimestamp:", "trigger-uid"} {
		assert.NotContains(t, r.Text, field)
	}
	// The recreated copy, after the delete and before the finally.
	del := strings.Index(r.Text, "# delete the copy")
	rec := strings.Index(r.Text, "# genplay: Kyverno recreated ConfigMap")
	fin := strings.Index(r.Text, "    finally:")
	assert.True(t, del < rec && rec < fin, "the check follows its operation:\n%s", r.Text)
	assert.Equal(t, 3, r.Asserts, r.Text)
	assert.Equal(t, 0, r.Errors)

	again, err := export.Test("t.yaml", []byte(scenario), opts)
	require.NoError(t, err)
	assert.Equal(t, r.Text, again.Text, "the same scenario exports to the same bytes")
}

// TestExportTemplatesNamesMadeFromTheNamespace: a value that holds the test
// namespace inside it is written as a join around $namespace.
func TestExportTemplatesNamesMadeFromTheNamespace(t *testing.T) {
	text := strings.NewReplacer("name: copy\n", "name: '{{request.object.metadata.namespace}}-copy'\n",
		"from: '{{request.object.metadata.namespace}}'", "from: \"it's {{request.object.metadata.namespace}}\"",
		"name: copy}", "name: chainsaw-test-copy}").Replace(scenario)
	r, err := export.Test("t.yaml", []byte(text), opts)
	require.NoError(t, err)
	assert.Contains(t, r.Text, `name: (join('', [$namespace, '-copy']))`)
	assert.Contains(t, r.Text, `from: (join('', ['it\'s ', $namespace]))`)
	for _, line := range strings.Split(r.Text, "\n") {
		if !strings.Contains(line, "# genplay:") && !strings.Contains(line, "name: chainsaw-test-copy}") {
			assert.NotContains(t, line, engine.TestNamespace, "the checks do not name the namespace chainsaw picks at random")
		}
	}
}

func TestExportKeepsCRLF(t *testing.T) {
	crlf := strings.ReplaceAll(scenario, "\n", "\r\n")
	r, err := export.Test("t.yaml", []byte(crlf), opts)
	require.NoError(t, err)
	assert.NotContains(t, strings.ReplaceAll(r.Text, "\r\n", ""), "\n", "every line ends in CRLF")
}

func TestExportRefusesWhatDoesNotPass(t *testing.T) {
	for name, text := range map[string]string{
		"does not load": "kind: [",
		"no test":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		"fails": strings.Replace(scenario, "    # delete the copy\n", `    - assert:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: absent}}
`, 1),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := export.Test("t.yaml", []byte(text), opts)
			require.Error(t, err)
			t.Log(err)
		})
	}
}

// TestExportAbsenceWaits: what Kyverno deleted is checked absent, after a
// sleep, so that chainsaw's error cannot pass before Kyverno acted.
func TestExportAbsenceWaits(t *testing.T) {
	text := scenario + `  - name: delete the policy
    try:
    - delete:
        ref: {apiVersion: kyverno.io/v1, kind: ClusterPolicy, name: cm}
`
	r, err := export.Test("t.yaml", []byte(text), opts)
	require.NoError(t, err)
	i := strings.Index(r.Text, "- sleep:\n        duration: 3s")
	j := strings.Index(r.Text, "# genplay: Kyverno deleted ConfigMap")
	require.True(t, i > 0 && j > i, r.Text)
	assert.Contains(t, r.Text[j:], "- error:")
	assert.Equal(t, 1, r.Errors)
}

func TestExportGallery(t *testing.T) {
	list, err := examples.All()
	require.NoError(t, err)
	for _, ex := range list {
		r, err := export.Test(ex.File, ex.Text, opts)
		if assert.NoError(t, err, ex.File) {
			assertSubsequence(t, string(ex.Text), r.Text)
			assert.Positive(t, r.Asserts, ex.File)
			assertNoRepeat(t, ex.File, r.Text)
		}
	}
}

// assertNoRepeat checks that no operation of an exported test is the one
// before it again (a readiness wait inserted before the test's own).
func assertNoRepeat(t *testing.T, file, text string) {
	t.Helper()
	var test struct {
		Spec struct {
			Steps []struct {
				Name string           `json:"name"`
				Try  []map[string]any `json:"try"`
			} `json:"steps"`
		} `json:"spec"`
	}
	require.NoError(t, yaml.Unmarshal([]byte(text), &test))
	for _, st := range test.Spec.Steps {
		for i := 1; i < len(st.Try); i++ {
			assert.NotEqual(t, st.Try[i-1], st.Try[i], "%s, step %q: operation %d repeats the one before", file, st.Name, i)
		}
	}
}

// assertSubsequence checks that every line of orig is in out, in order:
// the export only inserts.
func assertSubsequence(t *testing.T, orig, out string) {
	t.Helper()
	o := strings.Split(out, "\n")
	k := 0
	for _, line := range strings.Split(orig, "\n") {
		for k < len(o) && o[k] != line {
			k++
		}
		if !assert.Less(t, k, len(o), "line %q of the scenario is not in the export", line) {
			return
		}
		k++
	}
}

// TestExportWritesValuesChainsawWouldReadAsExpressionsLiterally: values
// that chainsaw reads as its own forms ("(expr)", "\text\", "-> binding")
// are escaped, with or without the random test namespace, and the exported
// test passes.
func TestExportWritesValuesChainsawWouldReadAsExpressionsLiterally(t *testing.T) {
	values := "from: '{{request.object.metadata.namespace}}'\n                    expr: '\\(b)\\'\n                    bind: 'a -> b'"
	for name, text := range map[string]string{
		"in the random namespace": strings.Replace(scenario, "from: '{{request.object.metadata.namespace}}'", values, 1),
		"in a namespace the test names": strings.Replace(strings.Replace(scenario, "from: '{{request.object.metadata.namespace}}'", values, 1),
			"spec:\n  steps:", "spec:\n  namespace: fixed\n  steps:", 1),
	} {
		t.Run(name, func(t *testing.T) {
			r, err := export.Test("t.yaml", []byte(text), opts)
			require.NoError(t, err)
			assert.Contains(t, r.Text, `expr: \(b)\`)
			assert.Contains(t, r.Text, `bind: \a -> b\`)
			res := engine.Run("t.yaml", []byte(r.Text), opts)
			assert.True(t, res.Passed, "the exported test passes:\n%s", r.Text)
		})
	}
}
