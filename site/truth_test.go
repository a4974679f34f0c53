//go:build !js

package site

// The browser tests of issue 14: the playground shows every run as it
// happened (failures, no-ops, the newest step), in words that match the
// timeline, with edits that respect the user's text.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// setScenario replaces the editor's text as a user pasting it would, and
// waits for the run.
func (p *page) setScenario(text string) {
	p.t.Helper()
	p.afterRun(func() {
		eval[chromedp.Void](p, `document.querySelector('#editor .cm-content').focus()`)
		p.do(chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(text))
	})
}

// importScenario loads a scenario through the Import dialog.
func (p *page) importScenario(text string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS("#import")))
	p.waitFor(`document.querySelector('#import-dialog').open`, "the import dialog")
	p.do(chromedp.Click(chromedp.CSS("#import-text")), insertText(text))
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#import-load"))) })
}

// editInDialog edits the selected object in the Edit dialog and saves.
func (p *page) editInDialog(yaml string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(`#details button[data-action="edit"]`)))
	p.waitFor(`document.querySelector('#object-dialog').open`, "the edit dialog")
	eval[chromedp.Void](p, `document.querySelector('#object-editor .cm-content').focus()`)
	p.do(chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(yaml))
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#object-dialog-save"))) })
}

// viewShot saves what the viewport shows (shot saves the whole page).
func (p *page) viewShot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	require.NoError(p.t, err)
	require.NoError(p.t, os.MkdirAll(outputDir, 0o755))
	require.NoError(p.t, os.WriteFile(filepath.Join(outputDir, name+".png"), png, 0o644))
	p.t.Logf("screenshot: site/%s/%s.png", outputDir, name)
}

func (p *page) text() string { return eval[string](p, `genplayPlayground.text()`) }

func exampleText(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("examples", file))
	require.NoError(t, err)
	return string(b)
}

// lastStep is the text of the timeline's last step.
func (p *page) lastStep() string {
	return eval[string](p, `document.querySelector('#timeline > li.step:last-child')?.textContent || ''`)
}

// matrixCell is the cell of the matrix row whose heading contains row, in
// the column whose data-combo is combo ("sync off, orphan off").
func (p *page) matrixCell(row, combo string) string {
	return eval[string](p, fmt.Sprintf(`(() => {
		const cols = [...document.querySelectorAll('#matrix thead th')].map(th => th.dataset.combo || '');
		const i = cols.indexOf(%s);
		const tr = [...document.querySelectorAll('#matrix tbody tr')].find(r => r.querySelector('th').textContent.includes(%s));
		return tr && i > 0 ? tr.children[i].textContent : '(no cell)';
	})()`, js(combo), js(row)))
}

func TestTruthFailingRunIsShown(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)

	t.Run("a failed assertion shows the run as it ran, the failing step marked", func(t *testing.T) {
		p.t = t
		text := strings.Replace(exampleText(t, netpolExample), "                name: default-deny\n                namespace:", "                name: deny-all\n                namespace:", 1)
		p.setScenario(text)
		assert.True(t, eval[bool](p, `document.querySelector('#stale').hidden`), "no 'last result' banner for a run that ran")
		assert.True(t, p.hasObject("NetworkPolicy team-a/deny-all"), "the cluster this run produced")
		failed := eval[string](p, `document.querySelector('#timeline li.step.failed')?.textContent || ''`)
		assert.Contains(t, failed, "expected", "the failing step says what was expected")
		assert.Contains(t, failed, "found", "and what was found")
		assert.Contains(t, failed, `networkpolicies "default-deny" not found`)
		assert.True(t, eval[bool](p, `document.querySelector('#timeline li.step.failed').classList.contains('selected')`), "the failing step is selected")
		assert.Contains(t, p.status(), "failed")
		p.shot("truth-01-failed-assert")
	})

	t.Run("a rule that fails is a failed event in the timeline", func(t *testing.T) {
		p.t = t
		p.setScenario(strings.Replace(exampleText(t, netpolExample), "request.object.metadata.name", "request.object.metadata.nmae", 1))
		assert.True(t, eval[bool](p, `document.querySelector('#stale').hidden`))
		ev := eval[string](p, `[...document.querySelectorAll('#timeline .event[data-action=failed]')].map(e => e.textContent).join('\n')`)
		assert.Contains(t, ev, "nmae", "the failed rule is an event with its reason")
		p.shot("truth-02-failed-rule")
	})

	t.Run("input errors keep the last result that ran", func(t *testing.T) {
		p.t = t
		p.setScenario(exampleText(t, netpolExample))
		p.setScenario(exampleText(t, netpolExample) + "  - name: bad\n    try:\n    - apply:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n          metadata:\n            name: Bad_Name\n")
		assert.False(t, eval[bool](p, `document.querySelector('#stale').hidden`), "an invalid object is an input error")
		assert.True(t, p.hasObject(netpol), "the last good cluster stays")
	})
}

func TestTruthMatrixPerCell(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	p.selectObject(netpol)
	p.editInDialog("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny\n  namespace: team-a\n" +
		"spec:\n  podSelector: {}\n  policyTypes:\n  - Ingress\n")
	p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
	p.waitFor(`document.querySelector('#matrix table')`, "the matrix, even though one combination fails")
	update := "update " + netpol
	assert.Contains(t, p.matrixCell(update, "sync off, orphan off"), "failed", "the failing cell says what failed")
	assert.Contains(t, p.matrixCell(update, "sync off, orphan off"), "not found")
	assert.Contains(t, p.matrixCell(update, "sync on, orphan off"), "reverted", "the other cells show their own outcome")
	assert.Equal(t, "sync on, orphan off", eval[string](p, `document.querySelector('#matrix thead th.current')?.dataset.combo || ''`), "the current settings' column is marked")
	assert.NotEmpty(t, eval[string](p, `document.querySelector('#matrix td .reaction')?.title || ''`), "a cell's reason is a hover away")
	assert.Contains(t, p.matrixCell("delete "+netpol, "sync off, orphan off"), "stays deleted", "a downstream that stays deleted does not read kept")
	assert.NotContains(t, p.matrixCell("delete "+netpol, "sync off, orphan off"), "kept")
	p.shot("truth-03-matrix")

	t.Run("a column can be applied to the scenario", func(t *testing.T) {
		p.t = t
		p.afterRun(func() {
			p.do(chromedp.Click(chromedp.CSS(`#matrix thead th[data-combo="sync off, orphan on"] button`)))
		})
		text := p.text()
		assert.Contains(t, text, "synchronize: false")
		assert.Contains(t, text, "orphanDownstreamOnPolicyDelete: true")
		p.waitFor(`document.querySelector('#matrix thead th.current')?.dataset.combo === 'sync off, orphan on'`, "the new column marked current")
	})
}

func TestTruthNoOpsSayWhy(t *testing.T) {
	b := newBrowser(t)
	for _, tt := range []struct{ file, want string }{
		{"nosync-data-edit-not-propagated.yaml", "not propagated: synchronize is false"},
		{"foreach-element-left.yaml", "its element left the foreach list"},
		{"scan-without-generate-existing.yaml", "generateExisting is false"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.open("")
			data, err := os.ReadFile(filepath.Join("..", "engine", "testdata", "scenarios", tt.file))
			require.NoError(t, err)
			p.importScenario(string(data))
			assert.Contains(t, p.lastStep(), tt.want)
		})
	}
	t.Run("a namespaced Policy says it ignores another namespace", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample("namespaced-policy.yaml")
		got := eval[string](p, `[...document.querySelectorAll('#timeline li.step')].find(s => s.textContent.includes('apply Service team-b/web'))?.textContent || ''`)
		assert.Contains(t, got, "skipped")
		assert.Contains(t, got, "only matches resources in its own namespace")
		p.shot("truth-04-namespaced-ignored")
	})
}

func TestTruthBadgesMatchTheTimeline(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)

	t.Run("a recreated object reads recreated", func(t *testing.T) {
		p.t = t
		p.selectObject(netpol)
		p.act("delete")
		assert.Equal(t, "recreated", eval[string](p, fmt.Sprintf(`document.querySelector('#cluster button.object[data-ref=%s] .badge.change')?.textContent || ''`, js(netpol))))
		assert.Equal(t, "recreated", eval[string](p, fmt.Sprintf(`document.querySelector('#changes [data-ref=%s] .badge.change')?.textContent || ''`, js(netpol))))
	})

	t.Run("the diff of a reverted edit shows the edit and the revert; churn can be hidden", func(t *testing.T) {
		p.t = t
		p.selectObject(netpol)
		p.editInDialog("apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny\n  namespace: team-a\n" +
			"spec:\n  podSelector: {}\n  policyTypes:\n  - Ingress\n")
		diff := eval[string](p, fmt.Sprintf(`document.querySelector('#changes [data-ref=%s]')?.textContent || ''`, js(netpol)))
		assert.Regexp(t, `\n-\s+- Egress\n`, diff, "the user's edit removed Egress")
		assert.Regexp(t, `\n\+\s+- Egress\n`, diff, "and Kyverno's revert put it back")
		p.do(chromedp.Click(chromedp.CSS("#hide-churn")))
		assert.NotContains(t, eval[string](p, `document.querySelector('#changes').textContent`), "resourceVersion", "churn hidden with one switch")
		p.shot("truth-05-reverted-diff")
	})

	t.Run("a trigger keeps its badge when its downstream is gone", func(t *testing.T) {
		p.t = t
		p.selectObject(policy)
		p.act("toggle-synchronize")
		p.selectObject(netpol)
		p.act("delete")
		require.False(t, p.hasObject(netpol))
		assert.True(t, eval[bool](p, `!!document.querySelector('#cluster button.object[data-ref="Namespace team-a"] .badge.trigger')`), "team-a is still the trigger")
		assert.False(t, eval[bool](p, `!!document.querySelector('#cluster .ns-group.quiet button.object[data-ref="Namespace team-a"]')`), "and not an empty namespace")
	})

	t.Run("copies are not badged clone source", func(t *testing.T) {
		p.t = t
		p.loadExample("clone-registry-secret.yaml")
		assert.True(t, eval[bool](p, `!!document.querySelector('#cluster button.object[data-ref="Secret platform/regcred"] .badge.source')`))
		assert.False(t, eval[bool](p, `!!document.querySelector('#cluster button.object[data-ref="Secret team-a/regcred"] .badge.source')`))
	})

	t.Run("an error step that passes is not red", func(t *testing.T) {
		p.t = t
		p.loadExample("namespaced-policy.yaml")
		colors := eval[[]string](p, `(() => { const b = document.querySelector('#timeline li.step[data-operation=error] .badge.op');
			const e = document.createElement('p'); e.className = 'error'; document.body.append(e);
			const out = [getComputedStyle(b).color, getComputedStyle(e).color]; e.remove(); return out; })()`)
		assert.NotEqual(t, colors[1], colors[0], "a passing error step is not shown in the error color")
	})

	t.Run("no 'assertions pass' without assertions; one warning once", func(t *testing.T) {
		p.t = t
		p.importScenario("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: no-asserts\nspec:\n  steps:\n  - try:\n    - apply:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n          metadata:\n            name: team-z\n")
		assert.NotContains(t, p.status(), "assertions pass")
		// Changing a rule's target warns about stale targets.
		example := exampleText(t, netpolExample)
		pol := example[strings.Index(example, "          apiVersion: kyverno.io/v1"):strings.Index(example, "    - assert:")]
		changed := strings.Replace(pol, "                name: default-deny\n                namespace:", "                name: deny-all\n                namespace:", 1)
		p.setScenario(example + "  - name: rename the target\n    try:\n    - update:\n        resource:\n" + changed)
		require.Contains(t, eval[string](p, `document.querySelector('#timeline').textContent`), "stale targets")
		text := p.text()
		// A warning is shown once where it was given: once in its step (two
		// writes that are each warned, such as a deprecated kind's create and
		// update, are two warnings), and not again under the editor.
		count := eval[int](p, `(() => { let most = 0; const key = (e) => e.textContent.replace(/^.*warning: /, '').trim();
			const inTimeline = new Set();
			for (const step of document.querySelectorAll('#timeline li.step')) {
				const seen = {};
				for (const e of step.querySelectorAll('.warning, .event[data-action=warned] .reason')) {
					const k = key(e); inTimeline.add(k); seen[k] = (seen[k] || 0) + 1; most = Math.max(most, seen[k]); }
			}
			for (const d of document.querySelectorAll('#diagnostics li.warning')) if (inTimeline.has(key(d))) most = Math.max(most, 2);
			return most; })()`)
		assert.LessOrEqual(t, count, 1, "each warning shown once (%d bytes of scenario)", len(text))
	})
}

func TestTruthEditsRespectText(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)

	t.Run("toggling synchronize appends only a step, in the user's own words", func(t *testing.T) {
		p.t = t
		before := p.text()
		p.selectObject(policy)
		p.act("toggle-synchronize")
		after := p.text()
		require.True(t, strings.HasPrefix(after, before), "the document is not re-indented or re-serialized:\n%s", after)
		added := after[len(before):]
		assert.Less(t, strings.Index(added, "match:"), strings.Index(added, "exclude:"), "keys keep the user's order, not alphabetical:\n%s", added)
		assert.Contains(t, added, "synchronize: false")
		assert.NotContains(t, added, "creationTimestamp")
	})

	t.Run("an action keeps the user's comments", func(t *testing.T) {
		p.t = t
		commented := strings.Replace(exampleText(t, netpolExample), "                synchronize: true\n",
			"                # the platform team wants this on\n                synchronize: true\n", 1)
		p.importScenario(commented)
		p.selectObject(policy)
		p.act("toggle-synchronize")
		after := p.text()
		require.True(t, strings.HasPrefix(after, commented))
		assert.Contains(t, after[len(commented):], "# the platform team wants this on", "the appended policy keeps the comment")
	})

	t.Run("add another like this writes no derived fields", func(t *testing.T) {
		p.t = t
		before := p.text()
		p.selectObject("Namespace team-a")
		p.act("add-another")
		after := p.text()
		require.True(t, strings.HasPrefix(after, before))
		assert.NotContains(t, after[len(before):], "kubernetes.io/metadata.name")
	})

	t.Run("the dialog refuses an invalid object and appends nothing", func(t *testing.T) {
		p.t = t
		before := p.text()
		p.do(chromedp.Click(chromedp.CSS("#add-object")))
		p.waitFor(`document.querySelector('#object-dialog').open`, "the add dialog")
		p.do(chromedp.Click(chromedp.CSS("#object-editor .cm-content")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())),
			insertText("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: Bad_Name\n"))
		p.do(chromedp.Click(chromedp.CSS("#object-dialog-save")))
		p.waitFor(`document.querySelector('#object-dialog-error').textContent.includes('Invalid value')`, "the API server's message in the dialog")
		assert.True(t, eval[bool](p, `document.querySelector('#object-dialog').open`), "the dialog stays open")
		assert.Equal(t, before, p.text(), "nothing appended")
		p.shot("truth-06-dialog-refuses")
		p.do(chromedp.Click(chromedp.CSS("#object-dialog-cancel")))
	})

	t.Run("steps can be undone and removed from the UI", func(t *testing.T) {
		p.t = t
		before := p.text()
		p.selectObject(netpol)
		p.act("delete")
		require.NotEqual(t, before, p.text())
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#undo-step"))) })
		assert.Equal(t, before, p.text(), "undo removes the last step")
		p.afterRun(func() {
			p.do(chromedp.Click(chromedp.CSS(`#timeline li.step:last-child button[data-action="remove-step"]`)))
		})
		assert.NotContains(t, p.text(), "create Namespace team-a-2", "the step is removed from the scenario")
	})

	t.Run("an invalid object's error points at metadata.name", func(t *testing.T) {
		p.t = t
		text := exampleText(t, netpolExample) + "  - name: bad\n    try:\n    - apply:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n          metadata:\n            name: Bad_Name\n"
		p.setScenario(text)
		line := strings.Count(text[:strings.Index(text, "name: Bad_Name")], "\n") + 1
		assert.Contains(t, eval[string](p, `document.querySelector('#diagnostics li.error')?.textContent || ''`), fmt.Sprintf(":%d", line))
	})
}

func TestTruthWhereTheEyeIs(t *testing.T) {
	b := newBrowser(t)

	t.Run("while the engine loads, actions are disabled", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.throttleURLs("/assets/*.wasm", 8, 40) // the engine crawls in at 1 kB/s: it is not ready while we look
		p.do(chromedp.Navigate(p.base + "/"))
		p.waitFor(`document.querySelector('#background-scan')`, "the page")
		require.NotEqual(t, "true", eval[string](p, `document.body.dataset.ready || ''`), "the engine is still loading")
		assert.True(t, eval[bool](p, `document.querySelector('#background-scan').disabled && document.querySelector('#add-object').disabled && document.querySelector('#run').disabled`),
			"the actions wait for the engine")
		p.do(chromedp.Click(chromedp.CSS("#background-scan")))
		p.do(chromedp.Click(chromedp.CSS("#background-scan")))
		assert.NotContains(t, p.text(), "duration: 1h1m", "clicks while loading append nothing")
		p.throttle(0, 0)
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true'`, "the engine")
		assert.False(t, eval[bool](p, `document.querySelector('#background-scan').disabled`))
	})

	for _, size := range []struct {
		name string
		w, h int64
	}{{"wide", 1440, 1000}, {"narrow", 390, 844}} {
		t.Run("the newest step is in view and the toolbar stays, "+size.name, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.do(chromedp.EmulateViewport(size.w, size.h))
			p.open("")
			p.loadExample(netpolExample)
			toolbarVisible := `(() => { const r = document.querySelector('#status').getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })()`
			assert.True(t, eval[bool](p, toolbarVisible), "choosing an example keeps the status in view")
			p.selectObject(netpol)
			p.act("delete")
			assert.True(t, eval[bool](p, toolbarVisible), "acting keeps the status in view")
			inView := eval[bool](p, `(() => { const li = document.querySelector('#timeline > li.step:last-child'); const r = li.getBoundingClientRect();
				const pane = document.querySelector('#timeline').closest('.pane').getBoundingClientRect();
				return r.top >= Math.max(0, pane.top) - 1 && r.top < Math.min(innerHeight, pane.bottom); })()`)
			assert.True(t, inView, "the newest step is scrolled into view")
			p.viewShot("truth-07-newest-step-" + size.name)
		})
	}

	t.Run("share link, selected step and matrix", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.do(chromedp.Click(chromedp.CSS("#share")))
		p.waitFor(`/#(s|example)=/.test(document.querySelector('#share-url').value)`, "the share link")
		p.selectObject(netpol)
		p.act("delete")
		assert.True(t, eval[bool](p, `document.querySelector('#share-box').hidden || document.querySelector('#share-url').value === ''`), "no stale share link")
		p.do(chromedp.Click(chromedp.CSS(`#timeline li.step[data-index="1"] .step-button`)))
		p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
		p.waitFor(`document.querySelector('#matrix table')`, "the matrix")
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the reload")
		assert.Equal(t, "1", eval[string](p, `document.querySelector('#step-range').value`), "the selected step survives a reload")
		assert.True(t, eval[bool](p, `document.querySelector('#matrix-box').open`), "and the open matrix")
		p.do(chromedp.Click(chromedp.CSS("#share")))
		p.waitFor(`/#(s|example)=/.test(document.querySelector('#share-url').value)`, "the share link")
		link := eval[string](p, `document.querySelector('#share-url').value`)
		q := b.page(true)
		q.t = t
		q.do(chromedp.Navigate(link))
		q.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the shared scenario")
		assert.Equal(t, "1", eval[string](q, `document.querySelector('#step-range').value`), "the step travels in the link")
		assert.True(t, eval[bool](q, `document.querySelector('#matrix-box').open`), "and the open matrix")
	})

	t.Run("keyboard", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject(netpol)
		p.do(chromedp.Focus(chromedp.CSS(`#details button[data-action="delete"]`)))
		p.afterRun(func() { p.do(chromedp.KeyEvent(kb.Enter)) })
		assert.True(t, eval[bool](p, `!!document.activeElement.closest('#details, #cluster')`), "focus stays on the object or its actions: %s",
			eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
		p.do(chromedp.Focus(chromedp.CSS(`#timeline > li.step:last-child .step-button`)))
		last := eval[int](p, `Number(document.querySelector('#step-range').value)`)
		p.do(chromedp.KeyEvent(kb.ArrowUp))
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('#step-range').value) === %d`, last-1), "ArrowUp moves to the previous step")
		assert.True(t, eval[bool](p, `!!document.activeElement.closest('#timeline')`), "focus stays in the timeline")
		eval[chromedp.Void](p, `document.querySelector('#editor .cm-content').focus()`)
		p.waitFor(`document.querySelector('#editor .cm-editor.cm-focused')`, "the editor focused")
		assert.NotEqual(t, "none", eval[string](p, `getComputedStyle(document.querySelector('#editor .cm-editor')).outlineStyle`), "the editor shows a focus ring")
		p.shot("truth-08-editor-focus")
		p.do(chromedp.KeyEvent(kb.Escape), chromedp.KeyEvent(kb.Tab))
		assert.False(t, eval[bool](p, `!!document.activeElement.closest('#editor')`), "Esc then Tab leaves the editor, as the hint says")
		assert.Contains(t, eval[string](p, `document.querySelector('.editor-pane').textContent`), "Esc", "how to leave the editor is shown")
		p.do(chromedp.Click(chromedp.CSS("#step-last")))
		p.selectObject(netpol)
		p.do(chromedp.Click(chromedp.CSS(`#details button[data-action="edit"]`)))
		p.waitFor(`document.querySelector('#object-dialog').open`, "the edit dialog")
		p.afterRun(func() {
			p.do(chromedp.Click(chromedp.CSS("#object-editor .cm-content")), chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(ctrlModifier())))
		})
		assert.False(t, eval[bool](p, `document.querySelector('#object-dialog').open`), "Ctrl+Enter saves in the dialog")
	})

	t.Run("the editors wrap long lines", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		assert.True(t, eval[bool](p, `(() => { const s = document.querySelector('#editor .cm-scroller'); return s.scrollWidth <= s.clientWidth + 1; })()`),
			"no line of the example is cut at 1440 px")
	})
}

func TestTruthEmbeds(t *testing.T) {
	b := newBrowser(t)

	t.Run("open in playground carries the switch and the step, before the player is in view", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.do(chromedp.EmulateViewport(1100, 300))
		p.do(chromedp.Navigate(p.base + docsPage))
		p.waitFor(`document.querySelectorAll('[data-genplay]').length === 2`, "two players")
		sync := player{p, 0}
		p.waitFor(sync.part("a.open")+`.href.includes('#s=')`, "a link with the scenario before the player is in view")
		assert.Equal(t, "waiting", eval[string](p, sync.host()+`.dataset.genplay`), "the player has not started")
		p.do(chromedp.EmulateViewport(1100, 800), chromedp.ScrollIntoView(chromedp.JSPath(sync.host())))
		p.waitFor(sync.host()+`.dataset.genplay === 'ready'`, "the player")
		sync.choose("false")
		sync.stepTo(3)
		// After the player's step 3 (the delete) is the playground's step index 3.
		p.waitFor(sync.part("a.open")+`.href.endsWith('&step=3&synchronize=false')`, "the switch and the step in the link")
		link := eval[string](p, sync.part("a.open")+`.href`)
		step := 3
		q := b.page(true)
		q.t = t
		q.do(chromedp.Navigate(link))
		q.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the playground")
		assert.Contains(t, q.text(), "synchronize: false", "the player's switch, written into the scenario")
		assert.Equal(t, fmt.Sprint(step), eval[string](q, `document.querySelector('#step-range').value`), "the player's step selected")
		assert.Contains(t, eval[string](q, `document.querySelector('#timeline li.step.selected').textContent`), "delete ConfigMap team-a/team-settings")
		q.shot("truth-09-opened-from-embed")
	})

	t.Run("without JavaScript both pages say so and the scenario stays readable", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			_, err := cdp.Call(ctx, tg, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true})
			return err
		}))
		p.do(chromedp.Navigate(p.base + "/"))
		p.waitFor(`document.readyState === 'complete'`, "the playground")
		msg := eval[string](p, `(() => { const e = document.querySelector('.noscript'); const r = e?.getBoundingClientRect();
			return e && r.height > 0 && r.top < 60 ? e.textContent : ''; })()`)
		assert.Contains(t, msg, "JavaScript", "the playground says so at the top")
		p.shot("truth-10-noscript-playground")
		p.do(chromedp.Navigate(p.base + docsPage))
		p.waitFor(`document.readyState === 'complete'`, "the docs page")
		msg = eval[string](p, `(() => { const e = document.querySelector('.noscript'); const r = e?.getBoundingClientRect();
			return e && r.height > 0 && r.top < 120 ? e.textContent : ''; })()`)
		assert.Contains(t, msg, "JavaScript", "the docs page says so at the top")
		scenario := eval[string](p, `[...document.querySelectorAll('pre')].filter(e => e.offsetHeight > 0).map(e => e.textContent).join('\n')`)
		assert.Contains(t, scenario, "kind: Test", "the scenario is readable as text")
		assert.Contains(t, scenario, "synchronize: true")
		p.shot("truth-11-noscript-docs")
	})
}
