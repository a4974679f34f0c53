//go:build !js

package site

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// convertRow is a row of the side-by-side table, as a user reads it.
type convertRow struct {
	Step, Cause, Mark, ClusterPolicy, GeneratingPolicy string
	Differs, Marked                                    bool
}

func (p *page) convertRows() []convertRow {
	return eval[[]convertRow](p, `[...document.querySelectorAll('#convert-dialog tr.convert-step')].map(tr => {
		const mark = tr.querySelector('.diverge-mark');
		const cells = tr.querySelectorAll('td');
		return {
			Step: tr.querySelector('th').textContent, Cause: tr.dataset.cause || '', Differs: tr.dataset.differs === 'true',
			Mark: mark ? mark.textContent : '',
			// Marked: the mark is on screen and the row stands out from a row that does not differ.
			Marked: !!mark && mark.getClientRects().length > 0 && getComputedStyle(mark).visibility === 'visible' &&
				getComputedStyle(tr.querySelector('td')).backgroundColor !== getComputedStyle(document.querySelector('#convert-dialog')).backgroundColor,
			ClusterPolicy: cells[0].textContent, GeneratingPolicy: cells[1].textContent,
		};
	})`)
}

func (p *page) convertState() string {
	return eval[string](p, `document.querySelector('#convert-dialog')?.dataset.state || ''`)
}

func (p *page) convertStatus() string {
	return eval[string](p, `document.querySelector('#convert-dialog .convert-status')?.textContent || ''`)
}

// waitConverted waits for the dialog to show an answer (a comparison or an error).
func (p *page) waitConverted() {
	p.t.Helper()
	p.waitFor(`['ready', 'differs', 'error'].includes(document.querySelector('#convert-dialog')?.dataset.state)`, "the conversion")
}

func (p *page) click(sel string) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`document.querySelector(%s) && !document.querySelector(%s).disabled`, js(sel), js(sel)), sel)
	p.do(chromedp.Click(chromedp.CSS(sel)))
}

// TestConvertToGeneratingPolicy acts as a user migrating the default-deny
// example: after deleting the NetworkPolicy twice (where Kyverno 1.19's two
// families part ways, kyverno#17265), Convert shows the GeneratingPolicy in
// an editor and the two runs side by side, the second deletion marked as a
// family difference; adopting puts the converted scenario in the editor.
// The page simulates Kyverno v1.19.0, whose GeneratingPolicy recreates a
// deleted downstream only once (kyverno#17265; v1.19.1 fixed it, and there
// the two runs agree): the dialog compares under the page's release.
func TestConvertToGeneratingPolicy(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.afterRun(func() {
		eval[chromedp.Void](p, `(() => { const s = document.querySelector('#kyverno-version'); s.value = 'v1.19.0';
			s.dispatchEvent(new Event('change', {bubbles: true})); })()`)
	})
	assert.False(t, eval[bool](p, `document.querySelector('#convert').hidden`), "the toolbar offers the conversion for a ClusterPolicy scenario")
	for range 2 {
		p.selectObject(netpol)
		p.act("delete")
	}
	require.True(t, p.hasObject(netpol), "the ClusterPolicy recreates the NetworkPolicy the second time too")
	original := p.text()

	t.Run("Convert loads the CEL engine, says so, and shows the GeneratingPolicy in an editor", func(t *testing.T) {
		p.t = t
		eval[chromedp.Void](p, `(() => { window.__loadingSeen = '';
			addEventListener('genplay:cel-loading', () => { window.__loadingSeen = document.querySelector('#convert-dialog .convert-status').textContent; }); })()`)
		p.selectObject(policy)
		p.click(`#details button[data-action="convert"]`)
		p.waitConverted()
		assert.Contains(t, eval[string](p, `window.__loadingSeen`), "Loading the CEL engine", "the dialog said it was loading the full build")
		assert.Equal(t, "differs", p.convertState(), p.convertStatus())
		converted := eval[string](p, `genplayConvert.text()`)
		assert.Contains(t, converted, "kind: GeneratingPolicy")
		assert.Contains(t, converted, "apiVersion: policies.kyverno.io/v1")
		assert.NotContains(t, converted, "kind: ClusterPolicy")
		assert.Contains(t, eval[string](p, `document.querySelector('#convert-dialog .cm-content').textContent`), "kind: GeneratingPolicy", "the editor shows it")
		findings := eval[string](p, `document.querySelector('#convert-dialog .convert-findings').textContent`)
		assert.Contains(t, findings, "note line 38, rule default-deny, generate.synchronize: ", "the family difference of synchronize, at its line")
		assert.Contains(t, findings, "kyverno#17265")
		p.shot("convert-01-dialog")
	})

	t.Run("the step where the runs diverge is marked, with why, and only that one", func(t *testing.T) {
		p.t = t
		rows := p.convertRows()
		require.NotEmpty(t, rows)
		var marked []convertRow
		for _, r := range rows {
			if r.Differs || r.Mark != "" {
				marked = append(marked, r)
			}
		}
		require.Len(t, marked, 1, "rows: %+v", rows)
		r := marked[0]
		assert.Contains(t, r.Step, "delete NetworkPolicy team-a/default-deny")
		assert.True(t, r.Marked, "the divergent row is visibly marked: %+v", r)
		assert.Equal(t, "family", r.Cause)
		assert.Contains(t, r.Mark, "family difference")
		assert.Contains(t, r.Step, "Kyverno's two families behave differently here", "the reason is shown, not only in a tooltip")
		assert.Contains(t, r.ClusterPolicy, "recreated "+netpol)
		assert.Contains(t, r.ClusterPolicy, "NetworkPolicy team-a/default-deny: present after this step")
		assert.NotContains(t, r.GeneratingPolicy, "recreated "+netpol)
		assert.Contains(t, r.GeneratingPolicy, "ignored "+netpol, "a downstream that stays deleted is not \"kept\"")
		assert.Contains(t, r.GeneratingPolicy, "kyverno#17265", "the reason is shown")
		assert.Contains(t, r.GeneratingPolicy, "NetworkPolicy team-a/default-deny: absent after this step")
		assert.Contains(t, p.convertStatus(), fmt.Sprintf("1 of %d steps differ", len(rows)))
		p.do(chromedp.ScrollIntoView(chromedp.CSS(`#convert-dialog tr.convert-step.differs`)))
		p.shot("convert-02-divergent-step")
		p.darkMode(true)
		p.shot("convert-02-divergent-step-dark")
		p.darkMode(false)
	})

	t.Run("an edit that breaks the conversion is an error at its line, and keeps the text", func(t *testing.T) {
		p.t = t
		eval[chromedp.Void](p, `document.querySelector('#convert-dialog .cm-content').focus()`)
		p.do(chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(ctrlModifier())), insertText("\nbogus: ["))
		p.click(`#convert-dialog button[data-action="convert-compare"]`)
		p.waitConverted()
		require.Equal(t, "error", p.convertState(), "edited text:\n%s", eval[string](p, `genplayConvert.text()`))
		assert.Contains(t, p.convertStatus(), "The converted scenario cannot run: ")
		assert.Contains(t, p.convertStatus(), "converted-test.yaml:")
		assert.Contains(t, eval[string](p, `genplayConvert.text()`), "bogus: [", "the user's text is kept")
		assert.NotEmpty(t, p.convertRows(), "the last comparison stays on screen")
		p.waitFor(`document.querySelector('#convert-dialog .cm-lintRange-error, #convert-dialog .cm-lint-marker-error')`, "the error marked in the editor")
		p.shot("convert-03-error")
		p.click(`#convert-dialog button[data-action="convert-reset"]`)
		p.waitConverted()
		assert.Equal(t, "differs", p.convertState(), p.convertStatus())
		assert.NotContains(t, eval[string](p, `genplayConvert.text()`), "bogus")
	})

	t.Run("Adopt puts the converted scenario in the editor, and the run shows its downstream", func(t *testing.T) {
		p.t = t
		p.afterRun(func() { p.click(`#convert-dialog button[data-action="convert-adopt"]`) })
		assert.False(t, eval[bool](p, `document.querySelector('#convert-dialog').open`))
		text := p.text()
		assert.Contains(t, text, "kind: GeneratingPolicy")
		assert.NotContains(t, text, "kind: ClusterPolicy")
		assert.True(t, p.hasObject("GeneratingPolicy default-deny"))
		created := eval[[]string](p, `[...document.querySelectorAll('#timeline .event')].filter(e => e.dataset.actor === 'kyverno' &&
			['created', 'recreated'].includes(e.dataset.action)).map(e => e.dataset.action + ' ' + e.querySelector('.ref')?.textContent)`)
		assert.Contains(t, created, "created "+netpol, "the GeneratingPolicy generated the NetworkPolicy")
		assert.Contains(t, created, "recreated "+netpol, "and recreated it after the first deletion")
		assert.False(t, p.hasObject(netpol), "the second deletion is final in the CEL family, as the comparison said")
		assert.Contains(t, p.lastStepText(), "kyverno#17265")
		assert.True(t, eval[bool](p, `document.querySelector('#convert').hidden`), "nothing left to convert")
		p.shot("convert-04-adopted")
	})

	t.Run("Undo takes the adoption back", func(t *testing.T) {
		p.t = t
		p.afterRun(func() { p.click(`#undo-step`) })
		assert.Equal(t, original, p.text())
		assert.True(t, strings.Contains(p.text(), "kind: ClusterPolicy"))
	})
}

// TestConvertErrors: a scenario that cannot be converted says why in the
// dialog, never a blank view, and the user's scenario is unchanged.
func TestConvertErrors(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)
	// A broken scenario that still names a ClusterPolicy with a generate rule.
	broken := exampleText(t, netpolExample) + "  - name: broken\n    try: [\n"
	p.setScenario(broken)
	p.waitFor(`!document.querySelector('#convert').hidden`, "the Convert button")
	p.click(`#convert`)
	p.waitConverted()
	assert.Equal(t, "error", p.convertState())
	assert.Contains(t, p.convertStatus(), "This scenario cannot be converted: chainsaw-test.yaml:")
	assert.Contains(t, eval[string](p, `document.querySelector('#convert-dialog .convert-runs').textContent`), "Your scenario is unchanged")
	assert.True(t, eval[bool](p, `document.querySelector('#convert-dialog button[data-action="convert-adopt"]').disabled`), "nothing to adopt")
	assert.Equal(t, broken, p.text())
	p.shot("convert-05-cannot-convert")
}

// TestConvertPartial: a piece the converter cannot translate is a finding
// at its line, and the steps it changes are marked as a conversion gap,
// told apart from a family difference.
func TestConvertPartial(t *testing.T) {
	text := exampleText(t, netpolExample)
	egress := "                    - Egress\n"
	require.Equal(t, 1, strings.Count(text, egress))
	text = strings.Replace(text, egress, egress+"                  x: \"{{ lookup(request.object.metadata.labels, 'a') }}\"\n", 1)
	p := newBrowser(t).page(true)
	p.open("")
	p.setScenario(text)
	p.click(`#convert`)
	p.waitConverted()
	assert.Equal(t, "differs", p.convertState(), p.convertStatus())
	assert.Contains(t, p.convertStatus(), "conversion partial")
	finding := eval[string](p, `document.querySelector('#convert-dialog .finding[data-kind="unconverted"]')?.textContent || ''`)
	assert.Contains(t, finding, "line 46")
	assert.Contains(t, finding, "the JMESPath function lookup has no CEL counterpart")
	assert.Contains(t, finding, "By hand: index the map or list directly")
	rows := p.convertRows()
	gaps := 0
	for _, r := range rows {
		if r.Differs {
			assert.Equal(t, "conversion", r.Cause, "%+v", r)
			assert.Contains(t, r.Mark, "conversion gap")
			assert.True(t, r.Marked, "%+v", r)
			gaps++
		}
	}
	assert.Positive(t, gaps, "rows: %+v", rows)
	p.shot("convert-06-partial")

	p.click(`#convert-dialog .finding[data-kind="unconverted"] button`)
	assert.False(t, eval[bool](p, `document.querySelector('#convert-dialog').open`))
	p.waitFor(`document.querySelector('#editor .cm-activeLineGutter')?.textContent === '46'`, "line 46 shown in the scenario")
}
