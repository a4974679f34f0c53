//go:build !js

package site

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// scriptedScenario labels a namespace with kubectl in a script operation
// (op is how the operation is written) and asserts the label.
func scriptedScenario(op string) string {
	return `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scripted
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
` + op + `    - assert:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
            labels:
              tier: web
`
}

// TestScriptsRunInTheFullBuild: the core build has no shell (its size
// budget), so the loader sends a scenario with a script or command
// operation to the full build: seen in the text, or from the core build's
// answer when the text hid it (a flow-style operation). Either way the
// page runs the script and says it loaded the full engine.
func TestScriptsRunInTheFullBuild(t *testing.T) {
	b := newBrowser(t)
	for _, c := range []struct{ name, op string }{
		{"a script operation in the text loads the full build before the run", "    - script:\n        content: kubectl label namespace team-a tier=web\n"},
		{"a flow-style command the text hides: the core build's answer loads it", "    - {command: {entrypoint: kubectl, args: [label, namespace, team-a, tier=web]}}\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.open("")
			require.Equal(t, "core", eval[string](p, `genplay.build`), "the default example runs in the core build")
			require.False(t, fetchedFull(p))
			eval[chromedp.Void](p, `(() => { window.__loadingSeen = '';
				addEventListener('genplay:cel-loading', () => { window.__loadingSeen = document.querySelector('#status').textContent; }); })()`)
			p.setScenario(scriptedScenario(c.op))
			p.waitFor(`document.body.dataset.celEngine === 'ready' && /scripted: /.test(document.querySelector('#status').textContent)`, "the run in the full build")
			assert.True(t, fetchedFull(p), "the full build was fetched")
			assert.Equal(t, "full", eval[string](p, `genplay.build`))
			assert.Contains(t, eval[string](p, `window.__loadingSeen`), "Loading the full engine (kubectl for script steps")
			status := p.status()
			assert.Contains(t, status, "passed", "the script ran and the assert held")
			assert.NotContains(t, strings.ToLower(status), "skipped")
			summaries := strings.Join(p.timelineSummaries(), "\n")
			assert.Contains(t, summaries, "kubectl label", "the kubectl call is a step")
		})
	}
}
