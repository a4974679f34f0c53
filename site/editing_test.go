//go:build !js

package site

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// editingScenario is what a user pastes: a policy whose generate rule has
// no synchronize yet.
const editingScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: editing
spec:
  steps:
  - name: policy
    try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: copy-secret
          spec:
            rules:
            - name: copy
              match:
                any:
                - resources:
                    kinds:
                    - Namespace
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: defaults
                namespace: '{{request.object.metadata.name}}'
                data:
                  data:
                    color: blue
`

// clickLine clicks the editor line whose text is text, then End: the
// cursor is at the end of that line.
func (p *page) clickLine(text string) {
	p.t.Helper()
	sel := fmt.Sprintf(`[...document.querySelectorAll('#editor .cm-line')].find(l => l.textContent === %s)`, js(text))
	p.waitFor(sel, "the line "+strings.TrimSpace(text))
	rect := eval[map[string]float64](p, fmt.Sprintf(`(() => { const r = %s.getBoundingClientRect(); return {x: r.right - 4, y: r.top + r.height / 2}; })()`, sel))
	p.do(chromedp.MouseClickXY(rect["x"], rect["y"]), chromedp.KeyEvent(kb.End))
}

// enter presses Enter as a keyboard does when the page handles the key
// down: chromedp's KeyEvent also sends the "\r" char, which the browser
// turns into further line breaks the editor did not ask for.
func enter() chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, input.DispatchKeyEventParams{
				Type: typ, Key: "Enter", Code: "Enter", WindowsVirtualKeyCode: 13, NativeVirtualKeyCode: 13,
			}); err != nil {
				return err
			}
		}
		return nil
	})
}

// typeKeys types s key by key, as a user does.
func (p *page) typeKeys(s string) {
	p.t.Helper()
	for _, r := range s {
		p.do(chromedp.KeyEvent(string(r)))
	}
}

// accept waits until the completion list has label selected, then takes
// it with Enter (the list ignores keys for a moment after it opens).
func (p *page) accept(label string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector('.cm-tooltip-autocomplete li[aria-selected] .cm-completionLabel')?.textContent === %s`, js(label)), label+" selected")
	time.Sleep(150 * time.Millisecond)
	p.do(enter())
}

// cursorLine is the text of the line the editor's cursor is on.
func (p *page) cursorLine() string {
	return eval[string](p, `(() => { const s = getSelection(); let n = s.focusNode; while (n && !(n.classList && n.classList.contains('cm-line'))) n = n.parentNode; return n ? n.textContent : '<none>'; })()`)
}

// completions lists the labels the completion popup shows.
func (p *page) completions() []string {
	return eval[[]string](p, `[...document.querySelectorAll('.cm-tooltip-autocomplete li .cm-completionLabel')].map(e => e.textContent)`)
}

// hoverWord moves the mouse over the first occurrence of word in the line
// whose text is line.
func (p *page) hoverWord(line, word string) {
	p.t.Helper()
	pos := eval[map[string]float64](p, fmt.Sprintf(`(() => {
		const l = [...document.querySelectorAll('#editor .cm-line')].find(l => l.textContent === %s);
		const w = document.createTreeWalker(l, NodeFilter.SHOW_TEXT);
		for (let n; (n = w.nextNode());) {
			const i = n.data.indexOf(%s);
			if (i < 0) continue;
			const r = document.createRange(); r.setStart(n, i + 2); r.setEnd(n, i + 3);
			const b = r.getBoundingClientRect(); return {x: b.left + b.width / 2, y: b.top + b.height / 2};
		}
		return null; })()`, js(line), js(word)))
	require.NotNil(p.t, pos, "%q in the line %q", word, line)
	p.do(chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, pos["x"]-30, pos["y"]+200), chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, pos["x"], pos["y"]))
}

// The editor helps a policy author from the schema genplay validates
// against: completion of fields and values, hover docs with a link to
// Kyverno's documentation, "did you mean" on an unknown field, and Enter
// after a key indenting the next line.
func TestEditorHelpsWriteAGenerateRule(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(editingScenario))
	})

	// Enter after `generate:` opens its mapping two spaces in.
	p.clickLine("                namespace: '{{request.object.metadata.name}}'")
	p.do(enter())
	assert.Equal(t, strings.Repeat(" ", 16), p.cursorLine(), "Enter after namespace: value stays in the generate mapping")

	// Completion under generate: offers synchronize, with its doc.
	p.do(chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the completion list")
	all := p.completions()
	for _, f := range []string{"synchronize", "orphanDownstreamOnPolicyDelete", "generateExisting", "clone", "cloneList", "foreach"} {
		assert.Contains(t, all, f)
	}
	for _, f := range []string{"namespace", "kind", "data", "orphaned", "steps", "rules"} {
		assert.NotContains(t, all, f, "written already, or not a generate field")
	}
	p.typeKeys("syn")
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete li .cm-completionLabel')?.textContent === 'synchronize'`, "synchronize first")
	p.waitFor(`document.querySelector('.cm-completionInfo .cm-field-doc')`, "the completion's doc")
	assert.Contains(t, eval[string](p, `document.querySelector('.cm-completionInfo').textContent`), "Keep the downstream in sync")
	p.shot("editor-01-completion")
	p.accept("synchronize")
	assert.Equal(t, strings.Repeat(" ", 16)+"synchronize: ", p.cursorLine())

	// Its values: true and false.
	p.do(chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the value completion")
	assert.Equal(t, []string{"false", "true"}, sorted(p.completions()))
	p.typeKeys("tr")
	p.accept("true")
	assert.Equal(t, strings.Repeat(" ", 16)+"synchronize: true", p.cursorLine())

	// Enter after `clone:` indents the next line under it.
	p.do(enter())
	p.typeKeys("clone:")
	p.do(chromedp.KeyEvent(kb.Escape), enter())
	assert.Equal(t, strings.Repeat(" ", 18), p.cursorLine(), "the line after clone: is two spaces deeper")
	p.typeKeys("nam")
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the clone fields")
	assert.Equal(t, []string{"name", "namespace"}, sorted(p.completions()), "clone's own fields, not generate's")
	p.do(chromedp.KeyEvent(kb.Escape))

	// Hover over synchronize: its doc and a link to Kyverno's page.
	p.hoverWord(strings.Repeat(" ", 16)+"synchronize: true", "synchronize")
	p.waitFor(`document.querySelector('.cm-tooltip-hover .cm-field-doc')`, "the hover doc")
	doc := eval[string](p, `document.querySelector('.cm-tooltip-hover .cm-field-doc').textContent`)
	assert.Contains(t, doc, "synchronize")
	assert.Contains(t, doc, "recreates it when deleted")
	assert.Equal(t, "https://kyverno.io/docs/policy-types/cluster-policy/generate/",
		eval[string](p, `document.querySelector('.cm-tooltip-hover .cm-field-doc a')?.href || ''`))
	p.shot("editor-02-hover")
}

// A misspelt field gets the engine's unknown-field marker with the nearest
// known field, and a fix that renames it.
func TestEditorSuggestsTheFieldMeant(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	misspelt := strings.Replace(editingScenario, "                kind: ConfigMap\n", "                kind: ConfigMap\n                synchronise: true\n", 1)
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(misspelt))
	})
	p.waitFor(`document.querySelector('#editor .cm-lintRange-error')`, "the unknown field's marker")
	p.hoverWord("                synchronise: true", "synchronise")
	p.waitFor(`document.querySelector('.cm-tooltip-lint')`, "the marker's message")
	msg := eval[string](p, `document.querySelector('.cm-tooltip-lint').textContent`)
	assert.Contains(t, msg, `unknown field "spec.rules[0].generate.synchronise"`)
	assert.Contains(t, msg, `did you mean "synchronize"?`)
	p.shot("editor-03-did-you-mean")
	// The screenshot resizes the page, which may close the tooltip: hover again.
	p.hoverWord("                synchronise: true", "synchronise")
	p.waitFor(`document.querySelector('.cm-tooltip-lint .cm-diagnosticAction')`, "the rename action")
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS(".cm-tooltip-lint .cm-diagnosticAction"))) })
	assert.Contains(t, eval[string](p, `genplayPlayground.text()`), "                synchronize: true\n")
	p.waitFor(`!document.querySelector('#editor .cm-lintRange-error')`, "the marker to go")

	// A chainsaw field: the engine lists what is allowed; the nearest is named.
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(strings.Replace(editingScenario, "    try:\n", "    tyr:\n", 1)))
	})
	p.waitFor(`document.querySelector('#editor .cm-lintRange-error')`, "the marker")
	p.hoverWord("    tyr:", "tyr")
	p.waitFor(`document.querySelector('.cm-tooltip-lint')`, "the marker's message")
	assert.Contains(t, eval[string](p, `document.querySelector('.cm-tooltip-lint').textContent`), `did you mean "try"?`)

	// generate.orphaned (a tutorial's name) is refused as the API server
	// refuses it, and the engine names the field meant, far from it in
	// spelling: the marker says it once and its fix renames it.
	orphaned := strings.Replace(editingScenario, "                kind: ConfigMap\n", "                kind: ConfigMap\n                orphaned: true\n", 1)
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(orphaned))
	})
	p.waitFor(`document.querySelector('#editor .cm-lintRange-error')`, "the orphaned field's marker")
	p.hoverWord("                orphaned: true", "orphaned")
	p.waitFor(`document.querySelector('.cm-tooltip-lint .cm-diagnosticAction')`, "the rename action")
	msg = eval[string](p, `document.querySelector('.cm-tooltip-lint').textContent`)
	assert.Contains(t, msg, `strict decoding error: unknown field "spec.rules[0].generate.orphaned"; did you mean "orphanDownstreamOnPolicyDelete"?`)
	assert.Equal(t, 1, strings.Count(msg, "did you mean"), msg)
	p.shot("editor-04-orphaned")
	p.hoverWord("                orphaned: true", "orphaned")
	p.waitFor(`document.querySelector('.cm-tooltip-lint .cm-diagnosticAction')`, "the rename action")
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS(".cm-tooltip-lint .cm-diagnosticAction"))) })
	assert.Contains(t, eval[string](p, `genplayPlayground.text()`), "                orphanDownstreamOnPolicyDelete: true\n")
	p.waitFor(`!document.querySelector('#editor .cm-lintRange-error')`, "the marker to go")
}

// Completion knows chainsaw operations and which resource it is in.
func TestEditorCompletesOperations(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(editingScenario))
	})
	p.clickLine("    try:")
	p.do(enter())
	assert.Equal(t, "      ", p.cursorLine())
	for i := 0; i < 3 && p.cursorLine() != "    "; i++ {
		p.do(chromedp.KeyEvent(kb.Backspace))
	}
	require.Equal(t, "    ", p.cursorLine())
	p.typeKeys("- as")
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the operations")
	assert.Contains(t, p.completions(), "assert")
	p.do(chromedp.KeyEvent(kb.Escape))
	// Under the ClusterPolicy's spec: the policy's fields, not the Test's.
	p.clickLine("          spec:")
	p.do(enter())
	p.typeKeys("back")
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the policy's fields")
	assert.Contains(t, p.completions(), "background")
	assert.NotContains(t, p.completions(), "steps")
}

// The CEL family's fields come from its own schema.
func TestEditorKnowsGeneratingPolicy(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())), insertText(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cel
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: p
          spec:
            evaluation:
              synchronize:
`))
	})
	p.clickLine("              synchronize:")
	p.do(enter())
	assert.Equal(t, strings.Repeat(" ", 16), p.cursorLine())
	p.typeKeys("en")
	p.accept("enabled")
	p.do(chromedp.KeyEvent(" ", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	p.waitFor(`document.querySelector('.cm-tooltip-autocomplete')`, "the values of enabled")
	assert.Equal(t, []string{"false", "true"}, sorted(p.completions()))
	p.do(chromedp.KeyEvent(kb.Escape))
	p.hoverWord("              synchronize:", "synchronize")
	p.waitFor(`document.querySelector('.cm-tooltip-hover .cm-field-doc')`, "the hover doc")
	assert.Contains(t, eval[string](p, `document.querySelector('.cm-tooltip-hover .cm-field-doc').textContent`), "Keep generated resources in sync")
	assert.Equal(t, "https://kyverno.io/docs/policy-types/generating-policy/",
		eval[string](p, `document.querySelector('.cm-tooltip-hover .cm-field-doc a')?.href || ''`))
	p.shot("editor-04-generating-policy")
}

func sorted(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}
