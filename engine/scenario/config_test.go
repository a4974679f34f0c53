package scenario

import (
	"regexp"
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
}

func TestParseConfigurationRejectsWhatItCannotRead(t *testing.T) {
	cases := map[string]string{
		"an unknown field":             "apiVersion: chainsaw.kyverno.io/v1alpha2\nkind: Configuration\nspec:\n  discovery:\n    testfile: x\n",
		"a bad regex":                  "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Configuration\nspec:\n  excludeTestRegex: '('\n",
		"another kind":                 "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nspec: {}\n",
		"a v1alpha2 field in v1alpha1": "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Configuration\nspec:\n  discovery: {}\n",
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
