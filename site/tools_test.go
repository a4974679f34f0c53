//go:build !js

package site

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// fetchedTools tells whether the page has fetched the tools build.
func fetchedTools(p *page) bool {
	return eval[bool](p, `performance.getEntriesByType('resource').some(e => /genplay-tools-[0-9a-f]+\.wasm/.test(e.name))`)
}

// TestToolsLoadTheToolsBuild: genplay.tool (wasm/doc.go) on a ClusterPolicy
// page, which runs on the core build, loads the tools build (the full
// build and the authoring tools) and is answered there; an unknown tool is
// an answer with an error, never a rejection. The tools build then serves
// runs too: a CEL example needs no other download.
func TestToolsLoadTheToolsBuild(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.t = t
	p.open("")
	p.loadExample(netpolExample)
	assert.Equal(t, "core", eval[string](p, `genplay.build`))
	assert.False(t, fetchedFull(p))

	eval[bool](p, `(window.__answer = null, genplay.tool('no-such-tool', 'kind: x').then(a => { window.__answer = a; }, e => { window.__answer = {rejected: String(e)}; }), true)`)
	p.waitFor(`window.__answer`, "the tool's answer")
	answer := eval[map[string]any](p, `window.__answer`)
	assert.Nil(t, answer["rejected"], "tool never rejects")
	assert.Equal(t, "no-such-tool", answer["tool"])
	assert.Contains(t, answer["error"], `this build of genplay has no tool "no-such-tool" (it has: [`)
	assert.True(t, fetchedTools(p), "the call loaded the tools build")
	assert.False(t, fetchedFull(p), "and not the full build")
	assert.Equal(t, "full", eval[string](p, `genplay.build`), "a build with the CEL family serves runs")
	assert.Equal(t, []any{"export", "migrate", "wrap"}, eval[[]any](p, `genplay.tools`), "genplay.tools lists the tools build's tools")

	p.loadExample(celNetpolExample)
	assert.True(t, p.hasObject(netpol), "the tools build runs the CEL example")
	assert.False(t, fetchedFull(p), "without fetching the full build")
}
