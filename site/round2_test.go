//go:build !js

package site

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The playground's second round (issue 26): one test per item, each seen
// failing before its fix.

const (
	ngpExample = "namespaced-generating-policy.yaml"
)

// wholeTextLink is the fragment a link carrying the whole text has (s=:
// deflate-raw, base64url), as every link was before example links.
func wholeTextLink(t *testing.T, text string) string {
	t.Helper()
	var b bytes.Buffer
	w, err := flate.NewWriter(&b, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write([]byte(text))
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return "#s=" + base64.RawURLEncoding.EncodeToString(b.Bytes())
}

// TestErrorsPointAtTheLineThatBrokeTheStructure (item 3): a key dedented
// to one space is reported at its line, in the problems list and in the
// editor, not at the start of the document.
func TestErrorsPointAtTheLineThatBrokeTheStructure(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	lines := strings.Split(exampleText(t, netpolExample), "\n")
	at := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "synchronize: true" {
			at = i + 1
			lines[i] = " " + strings.TrimLeft(l, " ")
			break
		}
	}
	require.NotZero(t, at)
	p.afterRun(func() { p.paste(strings.Join(lines, "\n")) })
	first := eval[string](p, `document.querySelector('#diagnostics li')?.textContent || ''`)
	assert.Contains(t, first, fmt.Sprintf(".yaml:%d:2 ", at), "the problem is at the dedented line")
	assert.Contains(t, first, "did not find expected key")
	// The editor's marker is on that line too (the problem's link shows it).
	p.do(chromedp.Click(chromedp.CSS("#diagnostics li button")))
	marked := eval[int](p, `(() => {
		const m = document.querySelector('#editor .cm-lint-marker-error');
		if (!m) return 0;
		const top = m.getBoundingClientRect().top;
		const n = [...document.querySelectorAll('#editor .cm-lineNumbers .cm-gutterElement')]
			.find((g) => Math.abs(g.getBoundingClientRect().top - top) < 3 && /^\d+$/.test(g.textContent));
		return n ? Number(n.textContent) : 0; })()`)
	assert.Equal(t, at, marked, "the editor marks that line")
	p.shot("r2-03-error-at-its-line")
}

// TestABarePolicyAsJSONIsWrapped (item 4): kubectl get -o json of a
// ClusterPolicy, pasted, is wrapped into a scenario as its YAML is.
func TestABarePolicyAsJSONIsWrapped(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	policy := `{
    "apiVersion": "kyverno.io/v1",
    "kind": "ClusterPolicy",
    "metadata": {"name": "default-deny", "resourceVersion": "1234", "uid": "5c2a"},
    "spec": {"rules": [{"name": "default-deny",
        "match": {"any": [{"resources": {"kinds": ["Namespace"]}}]},
        "generate": {"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy", "name": "default-deny",
            "namespace": "{{request.object.metadata.name}}", "synchronize": true,
            "data": {"spec": {"podSelector": {}, "policyTypes": ["Ingress", "Egress"]}}}}]}
}
`
	p.afterRun(func() { p.paste(policy) })
	p.waitFor(`document.querySelector('#wrap-notes') && !document.querySelector('#wrap-notes').hidden`, "the wrap's notes")
	p.waitFor(`genplayPlayground.text().includes('chainsaw.kyverno.io/v1alpha1')`, "the scenario")
	p.waitFor(`document.querySelector('#cluster button.object[data-ref="NetworkPolicy demo/default-deny"]')`, "the downstream the wrapped scenario generates")
	assert.Contains(t, p.wrapNotes(), "Wrapped 1 policy")
	p.shot("r2-04-json-policy-wrapped")
}

// TestTheMatrixIsNeverStaleAndShowsWhatDiffers (item 5).
func TestTheMatrixIsNeverStaleAndShowsWhatDiffers(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
	p.waitFor(`document.querySelector('#matrix .matrix-hint')`, "the matrix of a fresh example")
	assert.Contains(t, eval[string](p, `document.querySelector('#matrix .matrix-hint').textContent`), "act on an object",
		"with no action yet, the matrix says what to do first")
	assert.True(t, eval[bool](p, `document.querySelector('#matrix table').hidden`), "and shows no table of identical rows")
	p.selectObject(netpol)
	p.act("delete")
	p.waitFor(`document.querySelector('#matrix table:not([hidden])')`, "the matrix after an action")
	visible := eval[[]string](p, `[...document.querySelectorAll('#matrix tbody tr:not([hidden]) th')].map((e) => e.textContent)`)
	require.NotEmpty(t, visible)
	for _, row := range visible {
		assert.Contains(t, row, "delete "+netpol, "only the rows that differ show: %v", visible)
	}
	p.do(chromedp.Click(chromedp.CSS("#matrix .matrix-all input")))
	assert.Greater(t, eval[int](p, `document.querySelectorAll('#matrix tbody tr:not([hidden])').length`), len(visible), "every step on request")
	p.shot("r2-05-matrix-differing-rows")
	// Another example: the table of this one is taken down at once.
	shown := eval[string](p, fmt.Sprintf(`(() => { const s = document.querySelector('#example'); s.value = %s;
		s.dispatchEvent(new Event('change', {bubbles: true})); return document.querySelector('#matrix').textContent; })()`, js("clonelist.yaml")))
	assert.NotContains(t, shown, netpol, "no row of the previous scenario")
	assert.Contains(t, shown, "Running this scenario under the four settings")
	p.waitFor(`document.querySelector('#matrix .matrix-hint, #matrix table:not([hidden])')`, "the new matrix")
	assert.NotContains(t, eval[string](p, `document.querySelector('#matrix').textContent`), netpol)
}

// TestReasonsSpeakKyvernosLanguage (item 6).
func TestReasonsSpeakKyvernosLanguage(t *testing.T) {
	b := newBrowser(t)
	t.Run("a downstream that stays deleted is not kept", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject(policy)
		p.act("toggle-synchronize")
		p.selectObject(netpol)
		p.act("delete")
		events := p.lastStepEvents()
		assert.True(t, hasEvent(events, "ignored", netpol), "events: %v", events)
		assert.False(t, hasEvent(events, "kept", netpol), "events: %v", events)
	})
	t.Run("an edit Kyverno reverted is marked reverted, not updated", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject(netpol)
		p.do(chromedp.Click(chromedp.CSS(`#details button[data-action="edit"]`)))
		p.waitFor(`document.querySelector('#object-dialog').open`, "the object dialog")
		// The user changes the podSelector in the dialog's editor.
		eval[chromedp.Void](p, `(() => { const cm = document.querySelector('#object-editor .cm-content');
			const text = [...document.querySelectorAll('#object-editor .cm-line')].map((l) => l.textContent).join('\n');
			cm.focus(); document.execCommand('selectAll');
			const dt = new DataTransfer(); dt.setData('text/plain', text.replace('podSelector: {}', 'podSelector: {matchLabels: {edited: "yes"}}'));
			cm.dispatchEvent(new ClipboardEvent('paste', {clipboardData: dt, bubbles: true, cancelable: true})); })()`)
		require.Contains(t, eval[string](p, `[...document.querySelectorAll('#object-editor .cm-line')].map((l) => l.textContent).join('\n')`), "edited")
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#object-dialog-save"))) })
		events := p.lastStepEvents()
		require.True(t, hasEvent(events, "reverted", netpol), "events: %v", events)
		badge := eval[string](p, fmt.Sprintf(`document.querySelector('#cluster button.object[data-ref=%s] .badge.change')?.textContent || ''`, js(netpol)))
		assert.Equal(t, "reverted", badge)
		p.shot("r2-06-reverted-badge")
	})
	t.Run("a NamespacedGeneratingPolicy's deletions name what Kyverno leaves, and cite Kyverno's code", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(ngpExample)
		p.selectObject("Service team-a/web")
		p.act("delete")
		events := p.lastStepEvents()
		assert.True(t, hasEvent(events, "kept", "NetworkPolicy team-a/allow-web"), "events: %v", events)
		step := p.lastStep()
		assert.NotContains(t, step, "kept ()")
		assert.NotContains(t, step, ".md")
		assert.NotContains(t, step, "WatchManager")
		href := eval[string](p, `document.querySelector('#timeline > li.step:last-child a.code-link')?.href || ''`)
		assert.True(t, strings.HasPrefix(href, "https://github.com/kyverno/kyverno/blob/v1.19.0/pkg/background/gpol/dynamic_watcher.go#L"), href)
		p.do(chromedp.Click(chromedp.CSS("#undo-step")))
		p.waitFor(`!genplayPlayground.text().includes('delete Service team-a/web')`, "the undo")
		p.selectObject("NamespacedGeneratingPolicy team-a/allow-service-ingress")
		p.act("delete")
		events = p.lastStepEvents()
		assert.True(t, hasEvent(events, "kept", "NetworkPolicy team-a/allow-web"), "the downstream Kyverno v1.19.0 leaves: %v", events)
		assert.True(t, hasEvent(events, "deleted", "ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg"), "the webhook configuration goes with an event: %v", events)
		p.shot("r2-06-ngpol-deleted")
	})
}

// TestViewStaysOnTheLastStep (item 8).
func TestViewStaysOnTheLastStep(t *testing.T) {
	b := newBrowser(t)
	atLast := `Number(document.querySelector('#step-range').value) === Number(document.querySelector('#step-range').max)`
	t.Run("after a paste and after Run", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.do(chromedp.Click(chromedp.CSS("#step-first")))
		p.afterRun(func() { p.paste(exampleText(t, "clonelist.yaml")) })
		assert.True(t, eval[bool](p, atLast), "a paste shows the last step")
		p.do(chromedp.Click(chromedp.CSS("#step-first")))
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#run"))) })
		assert.True(t, eval[bool](p, atLast), "Run shows the last step")
	})
	t.Run("a reload with a broken scenario keeps the last good result", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.selectObject(netpol)
		p.act("delete")
		p.afterRun(func() { p.paste(strings.Replace(p.text(), "kind: Test", "kind: Test\n  broken: [", 1)) })
		require.Equal(t, "error", eval[string](p, `document.querySelector('#status').dataset.kind`))
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the page to run again")
		assert.Equal(t, 5, eval[int](p, `document.querySelectorAll('#timeline > li.step').length`), "the timeline of the last good run")
		assert.False(t, eval[bool](p, `document.querySelector('#stale').hidden`), "marked as the last result that ran")
		p.do(chromedp.Click(chromedp.CSS("#step-last")))
		assert.True(t, p.hasObject(netpol), "the cluster of the last good run")
		p.shot("r2-08-last-good-after-reload")
	})
}

// TestKyvernosOwnObjectsAreCollapsed (item 9).
func TestKyvernosOwnObjectsAreCollapsed(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample("default-deny-netpol-cel.yaml")
	own := `document.querySelector('#cluster details.kyverno-own')`
	p.waitFor(own, "Kyverno's own objects")
	assert.False(t, eval[bool](p, own+`.open`), "collapsed")
	assert.Contains(t, eval[string](p, own+`.querySelector('summary').textContent`), "webhook configuration")
	top := eval[[]string](p, `[...document.querySelectorAll('#cluster button.object')].filter((b) => !b.closest('details.kyverno-own')).map((b) => b.dataset.ref)`)
	for _, ref := range top {
		assert.NotContains(t, ref, "ValidatingWebhookConfiguration")
		assert.NotContains(t, ref, "PolicyReport")
	}
	assert.Contains(t, top, "NetworkPolicy team-a/default-deny")
	p.shot("r2-09-kyverno-own-collapsed")
}

// TestANewcomerIsGuided (item 10).
func TestANewcomerIsGuided(t *testing.T) {
	b := newBrowser(t)
	t.Run("the cluster pane says what to do", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		assert.Contains(t, eval[string](p, `document.querySelector('#act-hint')?.textContent || ''`), "Click an object")
	})
	t.Run("an example by name, and a share link that names it", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("#example=clonelist")
		assert.Equal(t, exampleText(t, "clonelist.yaml"), p.text())
		p.loadExample(netpolExample)
		p.selectObject(netpol)
		p.act("delete")
		p.selectObject(policy)
		p.act("toggle-synchronize")
		p.do(chromedp.Click(chromedp.CSS("#share")))
		p.waitFor(`document.querySelector('#share-url').value`, "the share link")
		link := eval[string](p, `document.querySelector('#share-url').value`)
		frag := link[strings.Index(link, "#"):]
		assert.Contains(t, frag, "example=default-deny-netpol")
		whole := wholeTextLink(t, p.text())
		t.Logf("share link: %d characters; the whole text as #s=: %d", len(frag), len(whole))
		assert.Less(t, float64(len(frag)), 0.7*float64(len(whole)), "a link that names the example is much shorter: %s", frag)
		text := p.text()
		q := b.page(true)
		q.t = t
		q.open(frag)
		assert.Equal(t, text, q.text(), "the link opens the same scenario")
	})
	t.Run("a cold CEL link downloads the full build only", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("#example=default-deny-netpol-cel")
		p.waitFor(`document.body.dataset.celEngine === 'ready'`, "the CEL engine")
		wasm := eval[[]string](p, `performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm')).map((n) => n.split('/').pop())`)
		require.Len(t, wasm, 1, "one wasm download: %v", wasm)
		assert.True(t, strings.HasPrefix(wasm[0], "genplay-cel-"), "the full build: %v", wasm)
	})
}

// TestPhoneAndKeyboard (item 11; axe is TestAccessibility).
func TestPhoneAndKeyboard(t *testing.T) {
	b := newBrowser(t)
	t.Run("the sticky bar leaves a phone its screen", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		p.open("")
		p.loadExample(netpolExample)
		eval[chromedp.Void](p, `window.scrollTo(0, 900)`)
		h := eval[float64](p, `document.querySelector('header.bar').getBoundingClientRect().height`)
		assert.LessOrEqual(t, h, 130.0, "the sticky bar's height at 390 px")
		assert.True(t, eval[bool](p, `document.querySelector('header.bar').getBoundingClientRect().top === 0`), "it stays")
		p.viewShot("r2-11-phone-bar")
	})
	t.Run("Enter on a cluster object keeps the focus on it", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.open("")
		p.loadExample(netpolExample)
		p.do(chromedp.Focus(chromedp.CSS(fmt.Sprintf(`#cluster button.object[data-ref=%s]`, js(netpol)))))
		p.do(chromedp.KeyEvent(kb.Enter))
		p.waitFor(`document.querySelector('#details h3')`, "the details")
		assert.Equal(t, netpol, eval[string](p, `document.activeElement?.dataset?.ref || document.activeElement?.tagName`))
	})
	t.Run("a wrapped line of the editor hangs under its text", func(t *testing.T) {
		p := b.page(true)
		p.t = t
		p.do(chromedp.EmulateViewport(700, 900))
		p.open("")
		long := "            description: " + strings.Repeat("a long description that wraps ", 8)
		p.afterRun(func() {
			p.paste(strings.Replace(exampleText(t, netpolExample), "          metadata:\n            name: default-deny\n", "          metadata:\n            name: default-deny\n            annotations:\n  "+long+"\n", 1))
		})
		// The left edge of the line's first character and of the first
		// character of its second visual line.
		x := eval[[]float64](p, `(() => {
			const line = [...document.querySelectorAll('#editor .cm-line')].find((l) => l.textContent.includes('a long description'));
			const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
			const rects = [];
			for (let n; (n = walker.nextNode());) {
				for (let i = 0; i < n.length; i++) {
					if (n.data[i] === ' ') continue;
					const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
					rects.push(r.getBoundingClientRect());
				}
			}
			const tops = [...new Set(rects.map((r) => Math.round(r.top)))];
			const second = rects.find((r) => Math.round(r.top) === tops[1]);
			return [rects[0].left, second ? second.left : -1, tops.length]; })()`)
		require.Greater(t, x[2], 1.0, "the line wraps")
		assert.InDelta(t, x[0], x[1], 3, "the continuation starts under the text, not at column 0")
		p.viewShot("r2-11-hanging-indent")
	})
}

// TestSmallerThings (item 12).
func TestSmallerThings(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.do(chromedp.Click(chromedp.CSS("#import")))
	p.waitFor(`document.querySelector('#import-dialog').open`, "the import dialog")
	eval[chromedp.Void](p, `document.querySelector('#import-text').value = 'apiVersion: kyverno.io/v1\nkind: ClusterPolicy\nmetadata:\n  name: x\nspec:\n  rules: 3\n'`)
	p.do(chromedp.Click(chromedp.CSS("#import-load")))
	p.waitFor(`document.querySelector('#wrap-notes li')`, "the wrap's message")
	first := eval[string](p, `document.querySelector('#wrap-notes li').textContent`)
	assert.False(t, strings.HasPrefix(first, ":"), "no stray colon: %q", first)
	assert.Contains(t, first, "error: ")
	assert.NotContains(t, first, ": warning:")

	// A run that loads the CEL engine says the download apart from its time.
	q := newBrowser(t).page(true)
	q.open("")
	q.loadExample("default-deny-netpol-cel.yaml")
	assert.Regexp(t, `\(\d+ ms, after [0-9.]+ s loading the CEL engine\)`, q.status())
}

// TestEmbedFromAnotherOriginAgainstGenplayServe (item 2): a docs page on
// another port embeds both families' players from the site as genplay
// serve sends it (site.Handler, no extra headers), and a site that does
// not allow other origins is said to be the engine's failure, not the
// scenario's.
func TestEmbedFromAnotherOriginAgainstGenplayServe(t *testing.T) {
	site := serve(t)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+site.URL+" 'wasm-unsafe-eval'; "+
			"connect-src 'self' "+site.URL+"; style-src 'self'; object-src 'none'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title>
<script src="%s/embed.js" defer></script></head><body><h1>Another site's docs</h1>
<script type="text/x-genplay-scenario" data-title="ClusterPolicy">
%s</script>
<script type="text/x-genplay-scenario" data-title="GeneratingPolicy">
%s</script></body></html>`, site.URL, markupFreeScenario, exampleText(t, "default-deny-netpol-cel.yaml"))
	}))
	t.Cleanup(docs.Close)
	p := newBrowserAt(t, chromiumPath(t), site).page(true)
	p.recordCSPViolations()
	p.do(chromedp.Navigate(docs.URL + "/"))
	for i, want := range []string{"ConfigMap team-a/team-settings", "NetworkPolicy team-a/default-deny"} {
		pl := player{p, i}
		p.waitFor(pl.host()+`?.dataset.genplay === 'ready'`, fmt.Sprintf("player %d", i))
		pl.stepTo(2)
		assert.Contains(t, pl.cluster(), want)
	}
	assert.Empty(t, eval[[]string](p, `window.__cspViolations`))
	p.shot("r2-02-embed-both-families-other-origin")

	t.Run("a site that does not allow other origins fails as the engine, not the scenario", func(t *testing.T) {
		closed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			handler(distDir, true).ServeHTTP(noCORS{w}, r)
		}))
		t.Cleanup(closed.Close)
		page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title>
<script src="%s/embed.js" defer></script></head><body><script type="text/x-genplay-scenario">
%s</script></body></html>`, closed.URL, markupFreeScenario)
		}))
		t.Cleanup(page.Close)
		q := newBrowserAt(t, chromiumPath(t), site).page(true)
		q.t = t
		q.do(chromedp.Navigate(page.URL + "/"))
		pl := player{q, 0}
		q.waitFor(pl.host()+`?.dataset.genplay === 'error'`, "the player's failure")
		msg := pl.text(".status")
		assert.Contains(t, msg, "Cannot load the genplay engine")
		assert.NotContains(t, msg, "Cannot load the scenario")
		q.allow("Access-Control-Allow-Origin")
		q.allow("Failed to fetch")
		q.allow("CORS")
	})
}

// noCORS drops Access-Control-Allow-Origin: a site that serves the files
// but does not let other origins read them.
type noCORS struct{ http.ResponseWriter }

func (n noCORS) WriteHeader(code int) {
	n.ResponseWriter.Header().Del("Access-Control-Allow-Origin")
	n.ResponseWriter.WriteHeader(code)
}

func (n noCORS) Write(b []byte) (int, error) {
	n.ResponseWriter.Header().Del("Access-Control-Allow-Origin")
	return n.ResponseWriter.Write(b)
}
