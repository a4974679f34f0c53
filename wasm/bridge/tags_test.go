package bridge

import (
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBuildTags checks that every Go file of the js/wasm adapters carries
// //go:build js && wasm, so no syscall/js code leaks into a native build.
// This package is the adapter's plain-Go half and is exempt.
func TestBuildTags(t *testing.T) {
	dirs := []string{"..", filepath.Join("..", "..", "cmd", "worker")}
	checked := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		require.NoError(t, err)
		for _, file := range files {
			checked++
			t.Run(file+" is built only for js/wasm", func(t *testing.T) {
				f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ParseComments|parser.PackageClauseOnly)
				require.NoError(t, err)
				var expr constraint.Expr
				for _, group := range f.Comments {
					for _, c := range group.List {
						if constraint.IsGoBuild(c.Text) {
							expr, err = constraint.Parse(c.Text)
							require.NoError(t, err)
						}
					}
				}
				require.NotNil(t, expr, "missing //go:build line")
				native := func(tag string) bool { return tag == "linux" || tag == "amd64" || tag == "gc" }
				wasm := func(tag string) bool { return tag == "js" || tag == "wasm" || tag == "gc" }
				assert.False(t, expr.Eval(native), "the file must not build natively")
				// The core build (no tag), the full one (cel: families_cel.go) or
				// the tools one (cel,tools: build_tools.go).
				full := func(tag string) bool { return wasm(tag) || tag == "cel" }
				tools := func(tag string) bool { return full(tag) || tag == "tools" }
				assert.True(t, expr.Eval(wasm) || expr.Eval(full) || expr.Eval(tools), "the file must build for js/wasm")
				assert.False(t, expr.Eval(func(tag string) bool { return native(tag) || tag == "cel" || tag == "tools" }),
					"nor natively with the cel and tools tags")
			})
		}
	}
	if _, err := os.Stat(".."); err == nil {
		assert.Positive(t, checked, "no adapter files found")
	}
}
