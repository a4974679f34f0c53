//go:build !js

package site

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const bareClusterPolicy = `# a bare policy, as people have it
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: team-netpol
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds: [Namespace]
          names: ["team-*"]
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          podSelector: {}
`

const bareGeneratingPolicy = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: add-quota
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
    objectSelector:
      matchLabels:
        quota: "on"
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [{"apiVersion": "v1", "kind": "ResourceQuota",
        "metadata": {"name": "default"}, "spec": {"hard": {"pods": "10"}}}])
`

// paste replaces the editor's text by pasting, as a user does with
// Ctrl+A then Ctrl+V (a paste event with the text on its clipboard).
func (p *page) paste(text string) {
	p.t.Helper()
	// Click the editor where a user sees it: below the sticky toolbar (when
	// the page is scrolled, the toolbar covers the editor's top, and a click
	// there lands on a button).
	xy := eval[[]float64](p, `(() => { const r = document.querySelector('#editor .cm-scroller').getBoundingClientRect();
		const top = Math.max(r.top, document.querySelector('.bar').getBoundingClientRect().bottom);
		return [r.left + r.width / 2, top + Math.min(40, (r.bottom - top) / 2)]; })()`)
	p.do(chromedp.MouseClickXY(xy[0], xy[1]))
	eval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const cm = document.querySelector('#editor .cm-content');
		cm.focus();
		document.execCommand('selectAll');
		const dt = new DataTransfer();
		dt.setData('text/plain', %s);
		cm.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true}));
	})()`, js(text)))
}

// dropFile drops a file on the editor, as a user drags one from the desktop.
func (p *page) dropFile(name, text string) {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const dt = new DataTransfer();
		dt.items.add(new File([%s], %s, {type: 'text/yaml'}));
		const ed = document.querySelector('#editor .cm-content');
		ed.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		ed.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true}));
	})()`, js(text), js(name)))
}

func (p *page) wrapNotes() string {
	return eval[string](p, `(() => { const b = document.querySelector('#wrap-notes'); return b && !b.hidden ? b.textContent : ''; })()`)
}

// waitScenario waits until the editor holds a chainsaw Test that ran and
// the cluster view shows ref.
func (p *page) waitScenario(ref string) {
	p.t.Helper()
	p.waitFor(`/^kind: Test$/m.test(genplayPlayground.text())`, "the text to be wrapped into a scenario")
	p.waitFor(fmt.Sprintf(`document.querySelector(%s)`, js(`#cluster button.object[data-ref="`+ref+`"]`)), ref+" in the cluster view")
	p.waitFor(`document.querySelector('#status').dataset.kind === 'ok'`, "the scenario's checks to pass")
}

func TestWrapBarePolicies(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")

	t.Run("pasting a bare ClusterPolicy gives a running scenario with its downstream", func(t *testing.T) {
		p.t = t
		require.False(t, p.hasObject("NetworkPolicy team-demo/default-deny"))
		p.paste(bareClusterPolicy)
		p.waitScenario("NetworkPolicy team-demo/default-deny")
		text := p.text()
		assert.Contains(t, text, "# a bare policy, as people have it", "the user's own text, comments kept")
		assert.Contains(t, text, `names: ["team-*"]`)
		assert.Contains(t, p.wrapNotes(), "Wrapped 1 policy from policy.yaml into a scenario with 1 trigger")
		assert.Contains(t, eval[string](p, `document.querySelector('#status').textContent`), "checks passed")
		assert.True(t, p.hasObject("Namespace team-demo"), "the derived trigger")
		p.shot("wrap-01-clusterpolicy")
	})

	t.Run("Undo wrap brings back the pasted text, and the wrap is offered, not forced", func(t *testing.T) {
		p.t = t
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#wrap-undo"))) })
		assert.Equal(t, bareClusterPolicy, p.text())
		p.waitFor(`document.querySelector('#wrap-offer')`, "the offer to wrap")
		assert.Contains(t, p.wrapNotes(), "holds policies, not a scenario")
		p.shot("wrap-02-undo")
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#wrap-offer"))) })
		p.waitScenario("NetworkPolicy team-demo/default-deny")
	})

	t.Run("pasting a bare GeneratingPolicy gives a running scenario with its downstream", func(t *testing.T) {
		p.t = t
		p.paste(bareGeneratingPolicy)
		p.waitScenario("ResourceQuota demo/default")
		assert.Contains(t, p.text(), "template: false")
		assert.Contains(t, p.wrapNotes(), "Wrapped 1 policy")
		assert.True(t, p.hasObject("Namespace demo"))
		p.shot("wrap-03-generatingpolicy")
	})

	t.Run("a rule whose trigger cannot be derived says why at its line", func(t *testing.T) {
		p.t = t
		p.paste(strings.Replace(bareClusterPolicy, `names: ["team-*"]`, "operations: [DELETE]", 1))
		p.waitFor(`/^kind: Test$/m.test(genplayPlayground.text())`, "the wrap")
		p.waitFor(`document.querySelector('#wrap-notes .diag.warning')`, "the warning")
		notes := p.wrapNotes()
		assert.Contains(t, notes, "0 triggers and 1 warning (below)")
		assert.Contains(t, notes, "selects only [DELETE] requests")
		line := eval[int](p, `Number(document.querySelector('#wrap-notes .diag.warning button').textContent.replace('line ', ''))`)
		assert.Equal(t, "              match:", strings.Split(p.text(), "\n")[line-1], "the note links to the rule's match")
		p.shot("wrap-04-refusal")
	})

	t.Run("a policy file dropped on the editor is wrapped", func(t *testing.T) {
		p.t = t
		p.dropFile("team-netpol.yaml", bareClusterPolicy)
		p.waitScenario("NetworkPolicy team-demo/default-deny")
		assert.Contains(t, p.wrapNotes(), "from team-netpol.yaml")
	})

	t.Run("a policy imported through the Import dialog is wrapped", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Click(chromedp.CSS("#import")))
		p.waitFor(`document.querySelector('#import-dialog').open`, "the import dialog")
		eval[chromedp.Void](p, fmt.Sprintf(`(() => { const ta = document.querySelector('#import-text'); ta.value = %s;
			ta.dispatchEvent(new Event('input', {bubbles: true})); })()`, js(bareGeneratingPolicy)))
		p.do(chromedp.Click(chromedp.CSS("#import-load")))
		p.waitScenario("ResourceQuota demo/default")
		assert.Contains(t, p.wrapNotes(), "Wrapped 1 policy")
	})

	t.Run("New scenario loads the template, which runs, and Undo brings back what was there", func(t *testing.T) {
		p.t = t
		before := p.text()
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#new-scenario"))) })
		p.waitScenario("ConfigMap team-a/settings")
		assert.Contains(t, p.text(), "name: new-scenario")
		assert.Contains(t, eval[string](p, `document.querySelector('#status').textContent`), "new-scenario")
		p.shot("wrap-05-new-scenario")
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#wrap-undo"))) })
		assert.Equal(t, before, p.text())
	})

	t.Run("a text that is neither is not wrapped, and the run says what is wrong", func(t *testing.T) {
		p.t = t
		p.afterRun(func() { p.paste("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n") })
		assert.Empty(t, p.wrapNotes())
		p.waitFor(`document.querySelector('#status').dataset.kind === 'error'`, "the error")
		assert.Contains(t, eval[string](p, `document.querySelector('#diagnostics').textContent`), "kind Test")
	})
}
