//go:build !js

package site

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const docsPage = "/docs/synchronize.html"

// player drives one embedded player of a documentation page; its parts live
// in the host element's shadow root.
type player struct {
	p *page
	i int // index among the page's players, in document order
}

func (pl player) host() string {
	return fmt.Sprintf(`document.querySelectorAll('[data-genplay]')[%d]`, pl.i)
}

func (pl player) part(sel string) string {
	return fmt.Sprintf(`%s.shadowRoot.querySelector(%s)`, pl.host(), js(sel))
}

func (pl player) text(sel string) string {
	return eval[string](pl.p, fmt.Sprintf(`(%s?.textContent || '')`, pl.part(sel)))
}

func (pl player) runs() int {
	return eval[int](pl.p, fmt.Sprintf(`Number(%s.dataset.runs || 0)`, pl.host()))
}

// click clicks a button of the player with the mouse, as a reader does.
func (pl player) click(sel string) {
	pl.p.t.Helper()
	pl.p.waitFor(fmt.Sprintf(`%s && !%s.disabled`, pl.part(sel), pl.part(sel)), sel+" enabled")
	pl.p.do(chromedp.ScrollIntoView(chromedp.JSPath(pl.part(sel))), chromedp.Click(chromedp.JSPath(pl.part(sel))))
}

// stepTo presses Step or Back until the player shows the state after step n.
func (pl player) stepTo(n int) {
	pl.p.t.Helper()
	for i := 0; i < 20; i++ {
		pos := eval[int](pl.p, fmt.Sprintf(`Number(%s.dataset.pos)`, pl.host()))
		switch {
		case pos < n:
			pl.click("button.step")
		case pos > n:
			pl.click("button.back")
		default:
			return
		}
		pl.p.waitFor(fmt.Sprintf(`Number(%s.dataset.pos) !== %d`, pl.host(), pos), "the player to move")
	}
	pl.p.t.Fatalf("player %d did not reach step %d", pl.i, n)
}

// choose presses one side of the compare switch and waits for the rerun.
func (pl player) choose(value string) {
	pl.p.t.Helper()
	before := pl.runs()
	pl.click(fmt.Sprintf(`.compare button[data-value=%q]`, value))
	pl.p.waitFor(fmt.Sprintf(`Number(%s.dataset.runs) > %d`, pl.host(), before), "the player to run again")
}

// cluster lists the refs the player's cluster view shows as present.
func (pl player) cluster() []string {
	return eval[[]string](pl.p, fmt.Sprintf(`[...%s.shadowRoot.querySelectorAll('.cluster .object:not(.gone)')].map(e => e.dataset.ref)`, pl.host()))
}

// gone lists the refs the cluster view shows as deleted in this step.
func (pl player) gone() []string {
	return eval[[]string](pl.p, fmt.Sprintf(`[...%s.shadowRoot.querySelectorAll('.cluster .object.gone')].map(e => e.dataset.ref)`, pl.host()))
}

// events lists "actor action ref: reason" of the current step's timeline.
func (pl player) events() []string {
	return eval[[]string](pl.p, fmt.Sprintf(`[...%s.shadowRoot.querySelectorAll('.group.current .event')].map(e =>
		e.dataset.actor + ' ' + e.dataset.action + ' ' + (e.querySelector('.ref')?.textContent || '') + ': ' + (e.querySelector('.reason')?.textContent || ''))`, pl.host()))
}

// recordCSPViolations makes every page the tab loads collect its
// Content-Security-Policy violations in window.__cspViolations (the docs
// page, unlike the playground, does not log them itself).
func (p *page) recordCSPViolations() {
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__cspViolations = [];
				document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));`,
		})
		return err
	}))
}

func wasmLoads(p *page) int {
	return eval[int](p, `performance.getEntriesByType('resource').filter(e => e.name.endsWith('.wasm')).length`)
}

func TestEmbedDocsPage(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.do(chromedp.EmulateViewport(1100, 300)) // short, so the players start below the fold
	p.recordCSPViolations()
	p.do(chromedp.Navigate(p.base + docsPage))
	t.Cleanup(func() {
		require.True(t, eval[bool](p, `Array.isArray(window.__cspViolations)`), "the recorder is installed")
		assert.Empty(t, eval[[]string](p, `window.__cspViolations`), "the docs page and its players break no CSP rule")
	})
	p.waitFor(`document.querySelectorAll('[data-genplay]').length === 2`, "two players on the page")
	sync, orphan := player{p, 0}, player{p, 1}

	t.Run("the engine loads only when a player scrolls into view", func(t *testing.T) {
		p.t = t
		top := eval[float64](p, sync.host()+`.getBoundingClientRect().top - innerHeight`)
		require.Greater(t, top, 220.0, "the first player must start below the fold (and the observer's 200px margin) for this check")
		time.Sleep(300 * time.Millisecond)
		assert.Zero(t, wasmLoads(p), "no wasm before a player is visible")
		assert.Equal(t, "waiting", eval[string](p, sync.host()+`.dataset.genplay`))
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(sync.host())))
		p.waitFor(sync.host()+`.dataset.genplay === 'ready'`, "the first player to be ready")
		assert.Equal(t, 1, wasmLoads(p))
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(orphan.host())))
		p.waitFor(orphan.host()+`.dataset.genplay === 'ready'`, "the second player to be ready")
		assert.Equal(t, 1, wasmLoads(p), "both players share one engine")
		p.do(chromedp.EmulateViewport(1100, 800))
	})

	t.Run("the synchronize player shows a deleted downstream come back, and not with synchronize false", func(t *testing.T) {
		p.t = t
		assert.Equal(t, "true", sync.text(`.compare button[aria-pressed="true"]`), "the switch starts at the policy's value")
		assert.Contains(t, sync.text(".cluster"), "Nothing has happened yet")
		assert.Equal(t, []string{"1 create the policy", "2 create a namespace", "3 delete the generated ConfigMap"},
			eval[[]string](p, fmt.Sprintf(`[...%s.shadowRoot.querySelectorAll('.steps button')].map(b => b.textContent)`, sync.host())))

		sync.stepTo(2)
		assert.Contains(t, sync.cluster(), "ConfigMap team-a/team-settings")
		assert.Contains(t, sync.events(), "kyverno created ConfigMap team-a/team-settings: the rule matched the new trigger")
		assert.Contains(t, sync.text(".timeline .group.current"), "✓ assert ConfigMap team-a/team-settings")

		sync.stepTo(3)
		events := sync.events()
		require.Len(t, events, 2, "%v", events)
		assert.Equal(t, "user deleted ConfigMap team-a/team-settings: deleted by the user", events[0])
		assert.True(t, strings.HasPrefix(events[1], "kyverno recreated ConfigMap team-a/team-settings: synchronize is true"), events[1])
		assert.Contains(t, sync.cluster(), "ConfigMap team-a/team-settings")
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(sync.host())))
		p.shot("20-embed-sync-on")

		sync.choose("false")
		assert.Equal(t, "3", eval[string](p, sync.host()+`.dataset.pos`), "the switch keeps the step")
		events = sync.events()
		assert.Contains(t, events, "user deleted ConfigMap team-a/team-settings: deleted by the user")
		for _, e := range events {
			assert.NotContains(t, e, "recreated")
		}
		assert.NotContains(t, sync.cluster(), "ConfigMap team-a/team-settings")
		assert.Equal(t, []string{"ConfigMap team-a/team-settings"}, sync.gone())
		p.shot("21-embed-sync-off")

		sync.stepTo(2)
		assert.Contains(t, sync.cluster(), "ConfigMap team-a/team-settings", "back: before the delete it exists")
		sync.click("button.reset")
		p.waitFor(sync.host()+`.dataset.pos === '0'`, "the reset")
		assert.Empty(t, sync.cluster())
	})

	t.Run("the orphaning player deletes the downstreams with the policy, and keeps them when orphaning", func(t *testing.T) {
		p.t = t
		assert.Equal(t, "false", orphan.text(`.compare button[aria-pressed="true"]`))
		both := []string{"ConfigMap team-a/team-settings", "ConfigMap team-b/team-settings"}
		orphan.stepTo(2)
		assert.Subset(t, orphan.cluster(), both)
		orphan.stepTo(3)
		assert.ElementsMatch(t, append([]string{"ClusterPolicy team-settings"}, both...), orphan.gone(), "orphaning off: deleted with the policy")
		assert.NotContains(t, orphan.cluster(), "ClusterPolicy team-settings")
		var reasons []string
		for _, e := range orphan.events() {
			if strings.HasPrefix(e, "kyverno deleted ConfigMap") {
				reasons = append(reasons, e)
			}
		}
		assert.Len(t, reasons, 2, "%v", orphan.events())
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(orphan.host())))
		p.shot("22-embed-orphan-off")

		orphan.choose("true")
		assert.Subset(t, orphan.cluster(), both, "orphaning on: the ConfigMaps stay")
		assert.Equal(t, []string{"ClusterPolicy team-settings"}, orphan.gone(), "only the policy is gone")
		p.shot("23-embed-orphan-on")
	})

	t.Run("a player restarts a crashed engine and runs again", func(t *testing.T) {
		p.t = t
		require.Empty(t, evalAwait[string](p, `genplay.injectFault('exit')`))
		orphan.choose("false")
		assert.Equal(t, "ready", eval[string](p, orphan.host()+`.dataset.genplay`), orphan.text(".status"))
		assert.False(t, eval[bool](p, `genplay.crashed`))
		assert.ElementsMatch(t, []string{"ClusterPolicy team-settings", "ConfigMap team-a/team-settings", "ConfigMap team-b/team-settings"}, orphan.gone())
		sync.choose("true")
		sync.stepTo(3)
		assert.Contains(t, sync.cluster(), "ConfigMap team-a/team-settings", "the other player runs on the new engine too")
	})

	t.Run("the page's styles and the players' do not mix", func(t *testing.T) {
		p.t = t
		assert.Equal(t, "none", eval[string](p, `getComputedStyle(`+sync.part("button.step")+`).textTransform`),
			"the page's button rule does not reach into the player")
		assert.Contains(t, eval[string](p, `getComputedStyle(document.body).fontFamily`), "Georgia", "the page keeps its font")
		assert.Zero(t, eval[int](p, `document.querySelectorAll('style').length`), "the players add no style element to the page")
	})

	t.Run("open in playground carries the scenario in a share link", func(t *testing.T) {
		p.t = t
		link := eval[string](p, sync.part("a.open")+`.href`)
		require.Contains(t, link, "/#s=")
		want := eval[string](p, `document.querySelector('pre.genplay-scenario').textContent`)
		q := b.page(true)
		q.t = t
		q.do(chromedp.Navigate(link))
		// The run of the shared text: its status names the test (a run of
		// anything else, finishing first, would not).
		q.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0 &&
			document.querySelector('#status').textContent.startsWith('synchronize-deleted-downstream:')`, "the playground to run the scenario")
		got := eval[string](q, `genplayPlayground.text()`)
		assert.Contains(t, got, "name: synchronize-deleted-downstream")
		assert.Equal(t, strings.Count(want, "\n  - name:"), strings.Count(got, "\n- name:"), "the same steps, unindented:\n%s", got)
		assert.True(t, q.hasObject("ConfigMap team-a/team-settings"))
	})

	t.Run("dark mode follows the system", func(t *testing.T) {
		p.t = t
		p.darkMode(true)
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(sync.host())))
		assert.Equal(t, "rgb(21, 26, 34)", eval[string](p, `getComputedStyle(`+sync.part(".player")+`).backgroundColor`))
		p.shot("27-embed-dark")
		p.darkMode(false)
	})

	t.Run("the page is fine at a phone's width", func(t *testing.T) {
		p.t = t
		p.do(chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2)))
		p.do(chromedp.ScrollIntoView(chromedp.JSPath(orphan.host())))
		wide := eval[[]string](p, `[...document.querySelectorAll('body *'), ...[...document.querySelectorAll('[data-genplay]')].flatMap(h => [...h.shadowRoot.querySelectorAll('*')])]
			.filter(e => e.getBoundingClientRect().right > innerWidth + 1)
			.filter(e => !e.parentElement.closest('table')).map(e => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right)).slice(0, 10)`)
		assert.True(t, eval[bool](p, `document.documentElement.scrollWidth <= window.innerWidth`), "no horizontal overflow: %v %d", wide, eval[int](p, `document.documentElement.scrollWidth`))
		p.shot("24-embed-narrow")
		p.do(chromedp.EmulateViewport(1100, 800))
	})
}

// TestEmbedRendersDataAsText feeds a player markup in every place a scenario
// can carry text and checks that none of it becomes HTML.
func TestEmbedRendersDataAsText(t *testing.T) {
	p := newBrowser(t).page(true)
	p.do(chromedp.Navigate(p.base + docsPage))
	p.waitFor(`window.genplayEmbed`, "the embed")
	eval[chromedp.Void](p, fmt.Sprintf(`(() => {
		const s = document.createElement('script');
		s.type = 'text/x-genplay-scenario';
		s.dataset.title = %s;
		s.textContent = %s;
		document.querySelector('main').prepend(s);
		return genplayEmbed.scan();
	})()`, js(markup("title")), js(markupScenario)))
	pl := player{p, 0}
	p.do(chromedp.ScrollIntoView(chromedp.JSPath(pl.host())))
	p.waitFor(pl.host()+`.dataset.genplay === 'ready'`, "the player")
	pl.stepTo(2)
	shadowText := eval[string](p, pl.host()+`.shadowRoot.textContent`)
	for _, where := range []string{"title", "step", "name"} {
		assert.Contains(t, shadowText, markup(where), "shown as text")
	}
	assert.Zero(t, eval[int](p, pl.host()+`.shadowRoot.querySelectorAll('img, b').length`), "no element came from the data")
	assert.Zero(t, eval[int](p, `document.querySelectorAll('img, b').length`))
	time.Sleep(200 * time.Millisecond)
	assert.False(t, eval[bool](p, `!!window.__pwned`))
	p.shot("25-embed-markup")
}

// markup is an HTML payload that would set window.__pwned if it ever ran.
func markup(where string) string {
	return `<img src=x onerror="window.__pwned=true"><b>` + where + `</b>`
}

// markupScenario carries markup in the test's name and description, step
// names, an object's name and labels (which the API server rejects, so the
// markup reaches the error text) and annotations and data.
var markupScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: markup
spec:
  description: '` + markup("description") + `'
  steps:
  - name: '` + markup("step") + `'
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: markup
            namespace: default
            annotations:
              note: '` + markup("annotation") + `'
          data:
            html: '` + markup("data") + `'
  - name: invalid names
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: '` + markup("name") + `'
            namespace: default
            labels:
              '` + markup("label-key") + `': '` + markup("label-value") + `'
        expect:
        - check:
            ($error != null): true
`

// crossOrigin serves genplay's site (site/dist, with the headers
// netlify.toml gives it) and, on another origin, a documentation page whose
// body is body and whose head includes the site's embed.js under the CSP
// README.md tells such pages to use. It returns the page's URL and the
// site's.
func crossOrigin(t *testing.T, body string) (docsURL, siteURL string) {
	files := http.FileServer(http.Dir(distDir))
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", CSP)
		if r.URL.Path == "/embed.js" || strings.HasPrefix(r.URL.Path, "/assets/") {
			w.Header().Set("Access-Control-Allow-Origin", "*")
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(site.Close)
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", "default-src 'self'; script-src 'self' "+site.URL+" 'wasm-unsafe-eval'; "+
			"connect-src 'self' "+site.URL+"; style-src 'self'; object-src 'none'")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Elsewhere</title>
<script src="%s/embed.js" defer></script></head><body><h1>Another site's docs</h1>
%s</body></html>`, site.URL, body)
	}))
	t.Cleanup(docs.Close)
	return docs.URL, site.URL
}

// TestEmbedFromAnotherOrigin includes embed.js in a page on another origin,
// under the CSP README.md tells such pages to use, with the headers
// netlify.toml gives the site.
func TestEmbedFromAnotherOrigin(t *testing.T) {
	docs, site := crossOrigin(t, `<script type="text/x-genplay-scenario" data-title="from another origin">
`+markupFreeScenario+`</script>`)
	p := newBrowser(t).page(true)
	p.recordCSPViolations()
	p.do(chromedp.Navigate(docs + "/"))
	pl := player{p, 0}
	p.waitFor(`document.querySelector('[data-genplay]')?.dataset.genplay === 'ready'`, "the player")
	pl.stepTo(2)
	assert.Contains(t, pl.cluster(), "ConfigMap team-a/team-settings")
	assert.True(t, strings.HasPrefix(eval[string](p, pl.part("a.open")+`.href`), site+"/#s="), "the playground link points at the genplay site")
	assert.Empty(t, eval[[]string](p, `window.__cspViolations`))
	p.shot("26-embed-other-origin")
}

// slowCELScenario is a GeneratingPolicy whose every evaluation makes fifty
// regular-expression calls that each walk a 1,000-character string with
// all of a 150-instruction program (priced at about 15,500 units each, so
// every call is allowed), on a hundred Namespaces: seconds of CEL work
// before the run's work budget ends it.
func slowCELScenario() string {
	var b strings.Builder
	b.WriteString(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: slow-cel
spec:
  steps:
  - name: a policy of slow CEL calls
    try:
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: slow
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [namespaces]
            variables:
            - name: s
              expression: 'lists.range(1000).map(i, "a").join("")'
            - name: slow
              expression: 'lists.range(50).all(i, variables.s.matches("(a?){30}a{30}$"))'
            generate:
            - expression: 'variables.slow && generator.apply(object.metadata.name, [])'
  - name: a hundred namespaces
    try:
`)
	for i := range 100 {
		fmt.Fprintf(&b, "    - apply:\n        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-%d}}\n", i)
	}
	return b.String()
}

// slowPage is a documentation page of three players on one engine: the
// slow CEL scenario, then two ordinary CEL ones queued behind it.
func slowPage(t *testing.T) string {
	return `<script type="text/x-genplay-scenario" data-title="slow CEL">
` + slowCELScenario() + `</script>
<button id="poke" type="button">poke</button>
<script type="text/x-genplay-scenario" data-title="queued, then stopped">
` + exampleText(t, celNetpolExample) + `</script>
<script type="text/x-genplay-scenario" data-title="an ordinary one">
` + exampleText(t, celNetpolExample) + `</script>`
}

// stopQueued: a player queued behind another's run offers Stop too (its
// run is waiting); its Stop takes its own run out of the queue, and the
// running player's run goes on.
func stopQueued(t *testing.T, p *page, slow, queued player) {
	p.waitFor(`!`+queued.part("button.stop")+`.hidden`, "the queued player's Stop button")
	queued.click("button.stop")
	p.waitFor(queued.host()+`.dataset.genplay === 'stopped'`, "the queued player stopped")
	assert.Contains(t, queued.text(".status"), "you stopped the run before it started")
	assert.True(t, eval[bool](p, `genplay.running`), "the slow run goes on")
	assert.Equal(t, "running", eval[string](p, slow.host()+`.dataset.genplay`), "the slow player was not stopped")
}

// TestEmbedStopsASlowCELRunFromAnotherOrigin: on another origin the
// embed's engine runs on the page's own thread (no Worker can come from
// genplay's origin). A scenario of slow CEL calls leaves that page
// responsive (the run gives the page's event loop a turn between bits of
// work), the player offers Stop, Stop on a player queued behind it stops
// that player only, Stop on the slow one ends its run with a message that
// says so, and the engine then runs the page's last player (a CEL one too,
// queued behind the slow run on the same engine).
func TestEmbedStopsASlowCELRunFromAnotherOrigin(t *testing.T) {
	docs, _ := crossOrigin(t, slowPage(t))
	p := newBrowser(t).page(true)
	p.recordCSPViolations()
	// The page measures its own responsiveness: the longest time between
	// two turns of a 20 ms timer, and the clicks on its button.
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{
			Source: `window.__gap = 0; window.__pokes = 0;
				let last = performance.now();
				setInterval(() => { const now = performance.now(); window.__gap = Math.max(window.__gap, now - last); last = now; }, 20);
				document.addEventListener('click', (e) => { if (e.target.id === 'poke') window.__pokes++; });`,
		})
		return err
	}))
	p.do(chromedp.Navigate(docs + "/"))
	slow, queued, next := player{p, 0}, player{p, 1}, player{p, 2}
	p.waitFor(slow.host()+`.dataset.genplay === 'running'`, "the slow run to say it is running")
	p.waitFor(`!`+slow.part("button.stop")+`.hidden`, "the Stop button")
	p.waitFor(`genplay.running && genplay.build === 'full'`, "the full engine to run the CEL scenario")
	require.Equal(t, "Running the scenario…", slow.text(".status"))

	t.Run("the page stays responsive while the CEL calls run", func(t *testing.T) {
		p.t = t
		eval[int](p, `window.__gap = 0`)
		for i := range 5 {
			start := time.Now()
			p.do(chromedp.Click(chromedp.CSS("#poke")))
			assert.Equal(t, i+1, eval[int](p, `window.__pokes`), "the page handled the click")
			// Answered while the run goes on is what shows the page's
			// thread free; the bound only catches a page that answers
			// late, and is loose because a loaded CI machine gives the
			// renderer little CPU.
			assert.Less(t, time.Since(start), 5*time.Second, "the page answers while the engine works")
			assert.True(t, eval[bool](p, `genplay.running`), "the run was still going")
			time.Sleep(150 * time.Millisecond)
		}
		gap := eval[float64](p, `window.__gap`)
		t.Logf("the longest the page's thread was busy between two timer turns while the run went on: %.0f ms", gap)
		assert.Less(t, gap, 2000.0, "the page's timers kept running")
		p.shot("27-embed-slow-cel-running")
	})

	t.Run("Stop on a queued player stops that one only", func(t *testing.T) {
		p.t = t
		stopQueued(t, p, slow, queued)
	})

	t.Run("Stop ends the run and says so", func(t *testing.T) {
		p.t = t
		start := time.Now()
		slow.click("button.stop")
		p.waitFor(slow.host()+`.dataset.genplay === 'stopped'`, "the stopped player")
		t.Logf("stopped %v after the click", time.Since(start).Round(time.Millisecond))
		assert.Contains(t, slow.text(".status"), "you stopped the run")
		assert.True(t, eval[bool](p, slow.part("button.stop")+`.hidden`))
		assert.False(t, eval[bool](p, `genplay.crashed`))
		p.shot("28-embed-slow-cel-stopped")
	})

	t.Run("the engine runs the next player", func(t *testing.T) {
		p.t = t
		p.waitFor(next.host()+`.dataset.genplay === 'ready'`, "the next player")
		next.stepTo(2)
		assert.Contains(t, next.cluster(), "NetworkPolicy team-a/default-deny")
		assert.False(t, eval[bool](p, `genplay.running`))
		assert.Empty(t, eval[[]string](p, `window.__cspViolations`))
	})
}

// TestEmbedStopInAWorker: on genplay's own origin the engine runs in a
// Worker, and Stop terminates it and starts a fresh one. The players
// queued behind the stopped run are not stopped with it: the fresh engine
// runs them (before, they all answered "a run before this one was
// stopped"), and Stop on a queued player stops that one only.
func TestEmbedStopInAWorker(t *testing.T) {
	files := http.FileServer(http.Dir(distDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Security-Policy", CSP)
		if r.URL.Path == "/docs-page" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Docs</title>
<script src="/embed.js" defer></script></head><body><h1>genplay's own docs</h1>
%s</body></html>`, slowPage(t))
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	p := newBrowser(t).page(true)
	p.do(chromedp.Navigate(srv.URL + "/docs-page"))
	slow, queued, next := player{p, 0}, player{p, 1}, player{p, 2}
	p.waitFor(`!`+slow.part("button.stop")+`.hidden && genplay.build === 'full'`, "the slow run's Stop button")
	stopQueued(t, p, slow, queued)
	slow.click("button.stop")
	p.waitFor(slow.host()+`.dataset.genplay === 'stopped'`, "the stopped player")
	assert.Contains(t, slow.text(".status"), "genplay stopped the engine and started a fresh one")
	p.waitFor(next.host()+`.dataset.genplay === 'ready'`, "the last player, run by the fresh engine")
	next.stepTo(2)
	assert.Contains(t, next.cluster(), "NetworkPolicy team-a/default-deny")
	assert.Equal(t, "stopped", eval[string](p, queued.host()+`.dataset.genplay`), "the stopped queued player stays stopped")
}

// markupFreeScenario is a small scenario for pages a test writes itself.
const markupFreeScenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: elsewhere
spec:
  steps:
  - name: create the policy
    try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: team-settings
          spec:
            rules:
            - name: settings-configmap
              match:
                any:
                - resources:
                    kinds:
                    - Namespace
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: team-settings
                namespace: '{{request.object.metadata.name}}'
                synchronize: true
                data:
                  data:
                    logLevel: info
  - name: create a namespace
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: team-a
`
