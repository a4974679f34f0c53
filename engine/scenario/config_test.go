package scenario

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfigurationReadsWhatChangesARun(t *testing.T) {
	v1 := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Configuration
metadata:
  name: configuration
spec:
  parallel: 1
  timeouts:
    apply: 1m30s
  skipDelete: true
  failFast: true
  testFile: test
  includeTestRegex: chainsaw/generate-.*
  excludeTestRegex: chainsaw/.*-flaky
  namespace: shared
`
	c, diags := ParseConfiguration(".chainsaw.yaml", []byte(v1))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Equal(t, []string{"test.yaml", "test.yml"}, c.TestFileNames())
	assert.True(t, c.FailFast)
	assert.Equal(t, "shared", c.Namespace)
	assert.True(t, c.Selected("generate-netpol"))
	assert.False(t, c.Selected("validate-netpol"), "not included")
	assert.False(t, c.Selected("generate-netpol-flaky"), "excluded")
	require.Len(t, c.Ignored, 3)
	assert.Contains(t, c.Ignored[0], "spec.parallel: ignored")
	assert.Contains(t, c.Ignored[1], "spec.skipDelete: ignored: genplay never runs chainsaw's clean-up")
	assert.Contains(t, c.Ignored[2], "spec.timeouts: ignored: genplay's time is logical")

	v2 := `apiVersion: chainsaw.kyverno.io/v1alpha2
kind: Configuration
metadata:
  name: configuration
spec:
  discovery:
    testFile: chainsaw-test.yml
    fullName: true
    excludeTestRegex: 'chainsaw/policies/skipped\[.*\]'
  cleanup:
    skipDelete: true
  execution:
    failFast: true
    parallel: 4
  timeouts:
    assert: 30s
`
	c, diags = ParseConfiguration(".chainsaw.yaml", []byte(v2))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.Equal(t, []string{"chainsaw-test.yml"}, c.TestFileNames())
	assert.True(t, c.FullName && c.FailFast)
	assert.False(t, c.Selected("policies/skipped[x]"))
	assert.True(t, c.Selected("policies/kept[x]"))
	assert.Len(t, c.Ignored, 3, "cleanup.skipDelete, execution.parallel, timeouts")
	assert.True(t, c.Templating, "templating is on by default")
	assert.Equal(t, Report{}, c.Report, "no report unless one is asked for")
}

func TestParseConfigurationReadsEveryFieldOfCurrentChainsaw(t *testing.T) {
	v2 := `apiVersion: chainsaw.kyverno.io/v1alpha2
kind: Configuration
metadata:
  name: configuration
spec:
  cleanup:
    delayBeforeCleanup: 1s
    skipDelete: false
  clusters: {}
  deletion:
    propagation: Foreground
  discovery:
    fullName: true
    includeTestRegex: x
  error:
    catch: []
  execution:
    failFast: true
    forceTerminationGracePeriod: 1s
    parallel: 1
    repeatCount: 2
  namespace:
    name: shared
    fastDelete: true
    compiler: cel
    template:
      metadata:
        labels:
          a: b
  report:
    format: JUNIT-STEP
    path: out
    name: genplay
  templating:
    enabled: false
    compiler: jp
  timeouts:
    apply: 10s
`
	c, diags := ParseConfiguration(".chainsaw.yaml", []byte(v2))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.False(t, c.Templating, "templating.enabled: false changes every test that does not set its own")
	assert.Equal(t, Report{Format: "JUNIT-STEP", Path: "out", Name: "genplay"}, c.Report)
	assert.Equal(t, "shared", c.Namespace)
	notes := strings.Join(c.Ignored, "\n")
	for _, field := range []string{"spec.namespace.fastDelete", "spec.namespace.template", "spec.namespace.compiler",
		"spec.cleanup.delayBeforeCleanup", "spec.execution.forceTerminationGracePeriod", "spec.execution.parallel",
		"spec.execution.repeatCount", "spec.deletion", "spec.error", "spec.clusters", "spec.timeouts"} {
		assert.Contains(t, notes, field+": ignored: ", "every field set that changes nothing in genplay is a note")
	}
	assert.NotContains(t, notes, "spec.templating", "jp is the default compiler, and enabled is applied")
	assert.NotContains(t, notes, "spec.report", "the report is written")

	v1 := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Configuration
metadata:
  name: configuration
spec:
  template: false
  compiler: cel
  namespaceTemplateCompiler: jp
  fastNamespaceDeletion: true
  reportFormat: JSON
  reportName: out
`
	c, diags = ParseConfiguration(".chainsaw.yaml", []byte(v1))
	require.False(t, diags.HasErrors(), diags.Error())
	assert.False(t, c.Templating)
	assert.Equal(t, Report{Format: "JSON", Name: "out"}, c.Report)
	assert.Equal(t, []string{
		"spec.compiler: ignored: " + configIgnored["compiler: cel"],
		"spec.fastNamespaceDeletion: ignored: " + configIgnored["fastNamespaceDeletion"],
	}, c.Ignored)
}

func TestATestFollowsTheConfigurationsTemplatingUnlessItSetsItsOwn(t *testing.T) {
	test := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: t
spec:
  steps:
  - try:
    - apply:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
  - template: true
    try:
    - apply:
        resource: {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
`
	off := &Configuration{Templating: false}
	tests, diags := loadData(nil, "t.yaml", []byte(test), off)
	require.False(t, diags.HasErrors(), diags.Error())
	assert.False(t, tests[0].Steps[0].Try[0].Template, "the Configuration turns templating off")
	assert.True(t, tests[0].Steps[1].Try[0].Template, "a step's own setting wins")
	tests, _ = loadData(nil, "t.yaml", []byte(test), nil)
	assert.True(t, tests[0].Steps[0].Try[0].Template, "chainsaw's default is on")
	tests, _ = loadData(nil, "t.yaml", []byte(strings.Replace(test, "spec:\n", "spec:\n  template: true\n", 1)), off)
	assert.True(t, tests[0].Steps[0].Try[0].Template, "a test's own setting wins")
}

func TestParseConfigurationRejectsWhatItCannotRead(t *testing.T) {
	cases := map[string]string{
		"an unknown field":             "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  discovery:\n    testfile: x\n",
		"a bad regex":                  "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Configuration\nspec:\n  excludeTestRegex: '('\n",
		"another kind":                 "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec: {}\n",
		"a v1alpha2 field in v1alpha1": "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Configuration\nspec:\n  discovery: {}\n",
		"an unknown report format":     "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  report:\n    format: HTML\n",
		"an unknown compiler":          "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  templating:\n    compiler: js\n",
	}
	for name, text := range cases {
		t.Run(name, func(t *testing.T) {
			_, diags := ParseConfiguration(".chainsaw.yaml", []byte(text))
			require.True(t, diags.HasErrors())
			assert.Greater(t, diags.Errors()[0].Pos.Line, 0)
		})
	}
}

func TestSelectedMatchesAsGoTestDoes(t *testing.T) {
	c := &Configuration{}
	assert.True(t, c.Selected("anything"))
	for _, tc := range []struct {
		include, exclude, name string
		want                   bool
	}{
		{"", "flaky", "a-flaky-test", true}, // one element: matched against "chainsaw" only
		{"", "chainsaw", "any", false},      // ... which excludes everything
		{"chainsaw/a|chainsaw/b", "", "b-test", true},
		{"chainsaw/a|chainsaw/b", "", "c-test", false},
		{"", "chainsaw/x/y", "x", true}, // partial: not skipped
		{"^chainsaw$/^exact$", "", "exact", true},
		{"^chainsaw$/^exact$", "", "exactly", false},
	} {
		c := &Configuration{}
		if tc.include != "" {
			c.Include = mustCompile(t, tc.include)
		}
		if tc.exclude != "" {
			c.Exclude = mustCompile(t, tc.exclude)
		}
		assert.Equal(t, tc.want, c.Selected(tc.name), "include %q exclude %q name %q", tc.include, tc.exclude, tc.name)
	}
}

func mustCompile(t *testing.T, s string) *regexp.Regexp {
	t.Helper()
	re, err := regexp.Compile(s)
	require.NoError(t, err)
	return re
}
