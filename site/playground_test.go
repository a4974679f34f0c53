//go:build !js

package site

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/site/examples"
)

const (
	netpolExample = "default-deny-netpol.yaml"
	netpol        = "NetworkPolicy team-a/default-deny"
	policy        = "ClusterPolicy default-deny"
)

func hasEvent(events []string, action, ref string) bool {
	for _, e := range events {
		f := strings.SplitN(e, " ", 3)
		if len(f) == 3 && f[0] == "kyverno" && f[1] == action && f[2] == ref {
			return true
		}
	}
	return false
}

func TestPlaygroundSynchronize(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	first := eval[string](p, `document.body.dataset.firstResultMs || "(none)"`)
	t.Logf("time from navigation to the first rendered result: %s ms", first)
	p.loadExample(netpolExample)
	require.True(t, p.hasObject(netpol), "the example generates the NetworkPolicy")
	p.shot("01-netpol-example")

	t.Run("deleting the downstream with synchronize on recreates it", func(t *testing.T) {
		p.t = t
		p.selectObject(netpol)
		p.act("delete")
		events := p.lastStepEvents()
		assert.True(t, hasEvent(events, "recreated", netpol), "timeline of the last step: %v", events)
		assert.True(t, p.hasObject(netpol), "the cluster view shows the NetworkPolicy again")
		p.selectObject(netpol)
		p.shot("02-downstream-recreated")
	})

	t.Run("with synchronize off a deleted downstream stays deleted", func(t *testing.T) {
		p.t = t
		p.selectObject(policy)
		p.act("toggle-synchronize")
		p.selectObject(netpol)
		p.act("delete")
		events := p.lastStepEvents()
		assert.False(t, hasEvent(events, "recreated", netpol), "timeline of the last step: %v", events)
		assert.False(t, p.hasObject(netpol), "the cluster view no longer shows the NetworkPolicy")
		p.shot("03-sync-off-stays-deleted")
	})

	t.Run("stepping back shows the earlier cluster", func(t *testing.T) {
		p.t = t
		last := eval[int](p, `Number(document.querySelector('#step-range').value)`)
		p.do(chromedp.Click(chromedp.CSS("#step-back")))
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('#step-range').value) === %d`, last-1), "one step back")
		assert.True(t, p.hasObject(netpol), "before the last delete the NetworkPolicy existed")
		for p.hasObject("Namespace team-a") {
			p.do(chromedp.Click(chromedp.CSS("#step-back")))
		}
		assert.False(t, p.hasObject(netpol), "before team-a existed there was no NetworkPolicy")
		assert.True(t, p.hasObject(policy), "the policy was already there")
		p.shot("04-stepped-back")
		p.do(chromedp.Click(chromedp.CSS("#step-last")))
		p.waitFor(fmt.Sprintf(`Number(document.querySelector('#step-range').value) === %d`, last), "back at the last step")
	})

	t.Run("the work survives a reload", func(t *testing.T) {
		p.t = t
		text := eval[string](p, `genplayPlayground.text()`)
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the page to run again")
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		assert.False(t, p.hasObject(netpol), "the same cluster as before the reload")
	})

	t.Run("Ctrl+Enter runs the scenario", func(t *testing.T) {
		p.t = t
		p.afterRun(func() {
			p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
				chromedp.KeyEvent(kb.Enter, chromedp.KeyModifiers(ctrlModifier())))
		})
	})
}

func TestPlaygroundPolicyDeletion(t *testing.T) {
	b := newBrowser(t)
	for _, tt := range []struct {
		name   string
		orphan bool
		kept   bool
	}{
		{name: "deleting the policy with orphaning on keeps the downstream", orphan: true, kept: true},
		{name: "deleting the policy with orphaning off deletes the downstream", orphan: false, kept: false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.open("")
			p.loadExample(netpolExample)
			if tt.orphan {
				p.selectObject(policy)
				p.act("toggle-orphan")
			}
			p.selectObject(policy)
			p.act("delete")
			assert.False(t, p.hasObject(policy))
			assert.Equal(t, tt.kept, p.hasObject(netpol), "events: %v", p.lastStepEvents())
			p.shot(fmt.Sprintf("05-policy-deleted-orphan-%v", tt.orphan))
		})
	}
}

func TestPlaygroundBrokenYAML(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	lines := eval[int](p, `genplayPlayground.text().split('\n').length`)
	p.afterRun(func() {
		p.do(chromedp.Click(chromedp.CSS("#editor .cm-line")),
			chromedp.KeyEvent(kb.End, chromedp.KeyModifiers(ctrlModifier())),
			chromedp.KeyEvent(kb.Enter), chromedp.KeyEvent("broken: value: here"))
	})
	p.waitFor(`document.querySelector('#editor .cm-lint-marker-error')`, "a lint marker")
	text := eval[string](p, `genplayPlayground.text()`)
	require.Contains(t, text, "broken: value: here")
	brokenLine := strings.Count(text[:strings.Index(text, "broken: value: here")], "\n") + 1
	assert.GreaterOrEqual(t, brokenLine, lines)
	diag := eval[string](p, `document.querySelector('#diagnostics li')?.textContent || ''`)
	assert.Regexp(t, fmt.Sprintf(`:%d[: ]`, brokenLine), diag, "the error names the broken line; the text ends %q", text[len(text)-40:])
	assert.True(t, eval[bool](p, `!document.querySelector('#stale').hidden`), "the page says it shows the last good result")
	assert.True(t, p.hasObject(netpol), "the last good cluster stays visible")
	p.shot("06-broken-yaml")
}

func TestPlaygroundShareLink(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	p.do(chromedp.Click(chromedp.CSS("#share")))
	p.waitFor(`/#(s|example)=/.test(document.querySelector('#share-url').value)`, "the share link")
	link := eval[string](p, `document.querySelector('#share-url').value`)
	text := eval[string](p, `genplayPlayground.text()`)
	t.Logf("share link: %d characters for %d bytes of scenario", len(link), len(text))

	q := b.page(true)
	q.do(chromedp.Navigate(link))
	q.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the shared scenario to run")
	assert.Equal(t, text, eval[string](q, `genplayPlayground.text()`), "the fresh browser context has the same scenario")
	assert.Equal(t, eval[[]string](p, `[...document.querySelectorAll('#cluster [data-ref]')].map(e => e.dataset.ref)`),
		eval[[]string](q, `[...document.querySelectorAll('#cluster [data-ref]')].map(e => e.dataset.ref)`), "and the same cluster")
	q.shot("07-shared-link")

	t.Run("a damaged link shows an error and keeps the saved work", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(p.base+"/#s=AAAA_not-deflate"))
		p.waitFor(`document.body.dataset.ready === 'true'`, "the page to load")
		assert.Contains(t, eval[string](p, `document.querySelector('#status').textContent`), "damaged")
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`), "the saved scenario is still there")
		p.shot("07b-damaged-link")
	})
}

func TestPlaygroundViews(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)

	t.Run("the outcome matrix shows the cheat sheet for this scenario", func(t *testing.T) {
		p.t = t
		p.selectObject(netpol)
		p.act("delete")
		p.selectObject(policy)
		p.act("delete")
		p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
		p.waitFor(`document.querySelector('#matrix table')`, "the matrix")
		assert.Equal(t, []string{"step", "sync on, orphan off", "sync on, orphan on", "sync off, orphan off", "sync off, orphan on"},
			eval[[]string](p, `[...document.querySelectorAll('#matrix thead th')].map(e => e.dataset.combo || e.textContent)`))
		row := func(summary string) []string {
			return eval[[]string](p, fmt.Sprintf(`[...[...document.querySelectorAll('#matrix tbody tr')]
				.find(r => r.querySelector('th').textContent.includes(%s)).querySelectorAll('td')].map(e => e.textContent)`, js(summary)))
		}
		deleteDownstream := row("delete " + netpol)
		require.Len(t, deleteDownstream, 4)
		assert.Contains(t, deleteDownstream[0], "recreated", "sync on recreates")
		assert.NotContains(t, deleteDownstream[2], "recreated", "sync off does not")
		deletePolicy := row("delete " + policy)
		require.Len(t, deletePolicy, 4)
		assert.Contains(t, deletePolicy[0], "deleted "+netpol, "sync on, orphan off deletes the downstream")
		assert.NotContains(t, deletePolicy[1], "deleted "+netpol, "orphan on keeps it")
		p.shot("08-outcome-matrix")
	})

	t.Run("dark mode follows the system", func(t *testing.T) {
		p.t = t
		p.loadExample(netpolExample)
		p.darkMode(true)
		bg := eval[string](p, `getComputedStyle(document.body).backgroundColor`)
		assert.Equal(t, "rgb(15, 18, 24)", bg)
		p.selectObject(netpol)
		p.shot("09-dark")
		p.darkMode(false)
	})

	t.Run("a narrow screen scrolls vertically only", func(t *testing.T) {
		p.t = t
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		wide := eval[[]string](p, `[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1 && e.closest('.pane, .bar') && getComputedStyle(e).position !== 'absolute')
			.filter(e => !e.parentElement.closest('pre, .cm-editor, #matrix')).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 10)`)
		assert.True(t, eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth`), "no horizontal overflow: %v", wide)
		p.shot("10-narrow")
		p.do(chromedp.EmulateViewport(1440, 1000))
	})

	t.Run("every control has a name", func(t *testing.T) {
		p.t = t
		unnamed := eval[[]string](p, `[...document.querySelectorAll('button, select, input, textarea, [contenteditable=true]')]
			.filter(e => e.offsetParent !== null)
			.filter(e => !(e.getAttribute('aria-label') || e.labels?.length || e.textContent.trim()))
			.map(e => e.outerHTML.slice(0, 80))`)
		assert.Empty(t, unnamed)
	})
}

// TestRunMatchesCLI checks that genplay.run in the browser returns what the
// engine returns natively, which is what `genplay run -o json` prints.
func TestRunMatchesCLI(t *testing.T) {
	list, err := examples.All()
	require.NoError(t, err)
	p := newBrowser(t).page(true)
	p.open("")
	sync := true
	for _, e := range list {
		for _, opts := range []engine.Options{{}, {Override: &engine.Override{Synchronize: &sync}}} {
			name := e.File
			jsOpts := "undefined"
			if opts.Override != nil {
				name += " with synchronize forced on"
				jsOpts = `{override: {synchronize: true, orphanDownstreamOnPolicyDelete: null}}`
			}
			t.Run(name+" gives the same result in the browser", func(t *testing.T) {
				p.t = t
				opts.Families = celFamilies // the page loads the full build for a CEL example
				native, err := json.Marshal(engine.Run("chainsaw-test.yaml", e.Text, opts))
				require.NoError(t, err)
				browser := evalAwait[string](p, fmt.Sprintf(`genplay.run(%s, %s).then(JSON.stringify)`, js(string(e.Text)), jsOpts))
				var want, got any
				require.NoError(t, json.Unmarshal(native, &want))
				require.NoError(t, json.Unmarshal([]byte(browser), &got))
				assert.Equal(t, want, got)
			})
		}
	}

	t.Run("bad arguments come back as diagnostics", func(t *testing.T) {
		p.t = t
		for _, call := range []string{`genplay.run(42)`, `genplay.run()`, `genplay.run("x", {nope: 1})`, `genplay.run("x", {override: {synchronize: "yes"}})`} {
			msg := evalAwait[string](p, call+`.then((r) => r.diagnostics[0].message)`)
			assert.NotEmpty(t, msg, call)
		}
		assert.NotEmpty(t, eval[string](p, `genplay.version`))
	})
}

func TestPlaygroundEditDownstream(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.do(chromedp.Click(chromedp.CSS(`#details button[data-action="edit"]`)))
	p.waitFor(`document.querySelector('#object-dialog').open`, "the edit dialog")
	edited := "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: default-deny\n  namespace: team-a\n" +
		"  labels:\n    edited: \"true\"\nspec:\n  podSelector: {}\n  policyTypes:\n  - Ingress\n"
	p.do(chromedp.Click(chromedp.CSS("#object-editor .cm-content")),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(ctrlModifier())),
		insertText(edited))
	p.shot("11-edit-dialog")
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#object-dialog-save"))) })
	events := p.lastStepEvents()
	assert.Contains(t, events, "user updated "+netpol, "the edit is the user's update")
	// timeline.ActionReverted is the contract's word; the engine may say "updated".
	assert.True(t, hasEvent(events, "reverted", netpol) || hasEvent(events, "updated", netpol),
		"with synchronize on Kyverno reverts the edit: %v", events)
	p.selectObject(netpol)
	yaml := eval[string](p, `document.querySelector('#details pre.yaml').textContent`)
	assert.Contains(t, yaml, "Egress", "the policy's data is back")
	p.shot("12-edit-reverted")
}

// TestPlaygroundRendersDataAsText puts markup into names, labels and data and
// checks that none of it becomes HTML.
func TestPlaygroundRendersDataAsText(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	const markup = `<img src=x onerror="window.__pwned=1">`
	scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: markup
spec:
  steps:
  - name: "<b>step</b>"
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: markup
            namespace: default
            annotations:
              note: '` + markup + `'
          data:
            html: '` + markup + `'
`
	p.do(chromedp.Click(chromedp.CSS("#import")))
	p.waitFor(`document.querySelector('#import-dialog').open`, "the import dialog")
	p.do(chromedp.Click(chromedp.CSS("#import-text")), insertText(scenario))
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#import-load"))) })
	p.selectObject("ConfigMap default/markup")
	assert.Contains(t, eval[string](p, `document.querySelector('#details pre.yaml').textContent`), markup)
	assert.Zero(t, eval[int](p, `document.querySelectorAll('main img, main b').length`), "no element came from the data")
	assert.False(t, eval[bool](p, `!!window.__pwned`))
}

func TestPlaygroundTriggerActions(t *testing.T) {
	b := newBrowser(t)

	t.Run("adding another trigger generates another downstream", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject("Namespace team-a")
		p.act("add-another")
		assert.True(t, p.hasObject("Namespace team-a-2"))
		assert.True(t, p.hasObject("NetworkPolicy team-a-2/default-deny"), "events: %v", p.lastStepEvents())
	})

	t.Run("a trigger relabelled out of the match loses its synchronized downstream", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample("resourcequota-from-label.yaml")
		require.True(t, p.hasObject("ResourceQuota team-a/quota-small"))
		p.selectObject("Namespace team-a")
		p.act("remove-label")
		assert.False(t, p.hasObject("ResourceQuota team-a/quota-small"), "events: %v", p.lastStepEvents())
		p.shot("13-relabelled-trigger")
	})

	t.Run("the background scan is a sleep past the interval", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample("generate-existing.yaml")
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#background-scan"))) })
		assert.Equal(t, "sleep", eval[string](p, `document.querySelector('#timeline > li.step:last-child').dataset.operation`))
		assert.Contains(t, eval[string](p, `genplayPlayground.text()`), "duration: 1h1m")
	})
}
