//go:build !js

package site

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestToolsLoadTheFullBuild: genplay.tool (wasm/doc.go) on a ClusterPolicy
// page, which runs on the core build, loads the full build and is answered
// there; an unknown tool is an answer with an error, never a rejection.
func TestToolsLoadTheFullBuild(t *testing.T) {
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
	assert.True(t, fetchedFull(p), "the call loaded the full build")
	assert.Equal(t, "full", eval[string](p, `genplay.build`))
	assert.True(t, eval[bool](p, `Array.isArray(genplay.tools)`), "genplay.tools lists the full build's tools")
}
