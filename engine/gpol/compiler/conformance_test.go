package compiler

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

// conformanceDir holds Kyverno's chainsaw tests (read at test time, never
// copied into the repository).
const conformanceDir = "../../../../shared/conformance/chainsaw/generating-policies"

// expectedCompileErrors are the conformance policies Kyverno refuses at
// admission because of their CEL, with a part of the message.
var expectedCompileErrors = map[string]string{
	"validate/invalid-cel-expression/policy.yaml": "found no matching overload for 'apply'",
}

func TestEveryConformancePolicyCompilesAsInKyverno(t *testing.T) {
	if _, err := os.Stat(conformanceDir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the conformance tests are missing: %v", err)
		}
		t.Skipf("the conformance tests are missing (%v): nothing to compile", err)
	}
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
