package compiler

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/internal/testenv"
)

// conformanceDir holds Kyverno's generating-policies suite (read at test
// time, never copied into the repository; testenv's rule when it is missing).
func conformanceDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(testenv.Conformance(t), "generating-policies")
}

// expectedCompileErrors are the conformance policies Kyverno refuses at
// admission because of their CEL, with a part of the message.
var expectedCompileErrors = map[string]string{
	"validate/invalid-cel-expression/policy.yaml": "found no matching overload for 'apply'",
}

func TestEveryConformancePolicyCompilesAsInKyverno(t *testing.T) {
	conformanceDir := conformanceDir(t)
	var files []string
	err := filepath.WalkDir(conformanceDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	})
	assert.NoError(t, err)
	compiled := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		assert.NoError(t, err)
		docs, diags := source.Parse(f, data)
		if diags.HasErrors() {
			continue
		}
		rel, _ := filepath.Rel(conformanceDir, f)
		for _, doc := range docs {
			obj, ok := doc.Object()
			if !ok || !gpol.IsPolicy(obj) {
				continue
			}
			p, pd := gpol.Parse(doc, obj)
			if pd.HasErrors() {
				continue // refused by the schema, not by CEL
			}
			if p.Namespaced() && p.Namespace == "" {
				p.Namespace = "default"
			}
			t.Run(rel+" "+p.Name+" compiles as in Kyverno", func(t *testing.T) {
				_, cd := Compile(p, Options{})
				if want, ok := expectedCompileErrors[rel]; ok {
					assert.ErrorContains(t, cd, want)
					return
				}
				assert.Empty(t, cd)
			})
			compiled++
		}
	}
	assert.Greater(t, compiled, 60, "the suite has more than 60 policies")
}

// The template tests of the suite: the policy, applied to the test's
// Namespace, renders what the test's assert files expect.
func TestConformanceTemplatesRenderWhatTheTestsAssert(t *testing.T) {
	dir := filepath.Join(conformanceDir(t), "template")
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	read := func(t *testing.T, path string) []map[string]any {
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		docs, diags := source.Parse(path, data)
		require.Empty(t, diags)
		var out []map[string]any
		for _, d := range docs {
			if m, ok := d.Value.(map[string]any); ok {
				out = append(out, m)
			}
		}
		return out
	}
	ran := 0
	for _, e := range entries {
		test := filepath.Join(dir, e.Name())
		asserts, _ := filepath.Glob(filepath.Join(test, "*-assert.yaml"))
		t.Run(e.Name()+" renders the asserted objects", func(t *testing.T) {
			docs, diags := source.Parse("policy.yaml", mustRead(t, filepath.Join(test, "policy.yaml")))
			require.Empty(t, diags)
			p, pd := gpol.Parse(docs[0], nil)
			require.Empty(t, pd)
			compiled, cd := Compile(p, Options{})
			require.Empty(t, cd)
			ns := read(t, filepath.Join(test, "namespace.yaml"))[0]
			h := newHost()
			require.NoError(t, compiled.Generate(Input{Object: ns, Request: map[string]any{"operation": "CREATE"}}, h))
			var got []map[string]any
			for _, g := range h.generated {
				got = append(got, g.objects...)
			}
			checked := 0
			for _, a := range asserts {
				for _, want := range read(t, a) {
					if want["kind"] == "CustomResourceDefinition" {
						continue
					}
					found := false
					for _, g := range got {
						found = found || contains(g, want)
					}
					assert.True(t, found, "%s: no generated object holds %v; generated %v", filepath.Base(a), want, got)
					checked++
				}
			}
			assert.Positive(t, checked)
		})
		ran++
	}
	assert.Equal(t, 3, ran)
}

func mustRead(t *testing.T, path string) []byte {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// contains is chainsaw's assertion: every field of want is in got.
func contains(got, want any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, v := range w {
			if !contains(g[k], v) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !contains(g[i], w[i]) {
				return false
			}
		}
		return true
	}
	return got == want
}
