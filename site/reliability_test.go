//go:build !js

package site

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// evalAwait is eval for an expression that gives a promise.
func evalAwait[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	require.NoError(p.t, err, "evaluate %s", expr)
	return v
}

// injectFault arms the engine's test-only fault for the next run (see
// wasm/doc.go); it fails the test if the engine refuses.
func (p *page) injectFault(name string) {
	p.t.Helper()
	require.Empty(p.t, evalAwait[string](p, fmt.Sprintf(`genplay.injectFault(%s)`, js(name))))
}

func (p *page) status() string {
	return eval[string](p, `document.querySelector('#status').textContent`)
}

func (p *page) savedText() string {
	return eval[string](p, `localStorage.getItem('genplay.scenario.v1') || ''`)
}

// allow drops the recorded browser errors that contain substr: the ones a
// test provokes on purpose.
func (p *page) allow(substr string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	kept := p.errors[:0]
	for _, e := range p.errors {
		if !strings.Contains(e, substr) {
			kept = append(kept, e)
		}
	}
	p.errors = kept
}

// TestPlaygroundSurvivesEngineCrash injects both kinds of crash below the
// wasm boundary and checks the page stays usable and loses nothing.
func TestPlaygroundSurvivesEngineCrash(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete") // the user's own work, saved as they go
	text := eval[string](p, `genplayPlayground.text()`)
	require.Equal(t, text, p.savedText())

	t.Run("a recovered panic is an internal error and the next run works", func(t *testing.T) {
		p.t = t
		p.injectFault("panic")
		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#run"))) })
		assert.Contains(t, p.status(), "internal error")
		assert.Contains(t, p.status(), "your scenario is kept")
		assert.Contains(t, eval[string](p, `document.querySelector('#diagnostics li').textContent`), "internal error: injected fault: panic")
		assert.False(t, eval[bool](p, `document.querySelector('#stale').hidden`), "the last good result stays, marked stale")
		assert.True(t, p.hasObject("Namespace team-a"))
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		p.shot("30-internal-error")

		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#run"))) })
		assert.NotEqual(t, "error", eval[string](p, `document.querySelector('#status').dataset.kind`), p.status())
		assert.Zero(t, eval[int](p, `document.querySelectorAll('#diagnostics li').length`))
	})

	t.Run("a dead Go program is restarted and the text is kept", func(t *testing.T) {
		p.t = t
		p.injectFault("exit")
		p.do(chromedp.Click(chromedp.CSS("#run")))
		p.waitFor(`document.body.dataset.restarts === '1'`, "the engine to restart")
		assert.Contains(t, p.status(), "restarted")
		assert.Contains(t, p.status(), "your scenario is kept")
		assert.False(t, eval[bool](p, `genplay.crashed`))
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		assert.Equal(t, text, p.savedText())
		assert.True(t, p.hasObject("Namespace team-a"), "the last good cluster is still shown")
		p.shot("31-engine-restarted")

		p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#run"))) })
		assert.NotEqual(t, "error", eval[string](p, `document.querySelector('#status').dataset.kind`), p.status())
		p.selectObject(policy)
		p.act("toggle-synchronize") // the restarted engine serves actions too
		assert.Contains(t, eval[string](p, `genplayPlayground.text()`), "synchronize: false")
	})

	t.Run("the work survives a reload after the crash", func(t *testing.T) {
		p.t = t
		want := eval[string](p, `genplayPlayground.text()`)
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the page to run again")
		assert.Equal(t, want, eval[string](p, `genplayPlayground.text()`))
	})

	t.Run("only known faults can be armed", func(t *testing.T) {
		p.t = t
		assert.Contains(t, evalAwait[string](p, `genplay.injectFault('segfault')`), "unknown fault")
		assert.Contains(t, evalAwait[string](p, `genplay.injectFault(42)`), "must be a fault name")
	})
}

// deflateLink builds a share-link fragment the way share.js does.
func deflateLink(t *testing.T, data []byte) string {
	t.Helper()
	var buf bytes.Buffer
	w, err := flate.NewWriter(&buf, flate.BestCompression)
	require.NoError(t, err)
	_, err = w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return "#s=" + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// TestPlaygroundHostileShareLinks opens crafted links over saved work: each
// shows an error, and the saved scenario stays.
func TestPlaygroundHostileShareLinks(t *testing.T) {
	b := newBrowser(t)
	p := b.page(true)
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	text := eval[string](p, `genplayPlayground.text()`)

	bomb := deflateLink(t, bytes.Repeat([]byte("a"), 8<<20)) // inflates to 8 MB
	t.Logf("an 8 MB deflate bomb is a %d-character link", len(bomb))
	for _, tt := range []struct {
		name, fragment, message string
	}{
		{name: "a link that inflates past the limit is refused while inflating", fragment: bomb, message: "too large"},
		{name: "a link longer than the limit is refused before decoding", fragment: "#s=" + strings.Repeat("A", 70_000), message: "too long"},
		{name: "a link that is not deflate data is damaged", fragment: "#s=AAAA_not-deflate", message: "damaged"},
		{name: "a link that is not UTF-8 is damaged", fragment: deflateLink(t, []byte{0xff, 0xfe, 0xfd}), message: "damaged"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p.t = t
			p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(p.base+"/"+tt.fragment))
			p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the page to load")
			assert.Contains(t, p.status(), tt.message)
			assert.Contains(t, p.status(), "your saved work is unchanged")
			assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`), "the editor shows the saved work")
			assert.Equal(t, text, p.savedText())
		})
	}

	t.Run("a bad link pasted into an open playground changes nothing", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Navigate("about:blank"), chromedp.Navigate(p.base+"/"))
		p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the page to load")
		eval[chromedp.Void](p, fmt.Sprintf(`location.hash = %s`, js(bomb)))
		p.waitFor(`document.querySelector('#status').textContent.includes('too large')`, "the error")
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		assert.Equal(t, text, p.savedText())
		p.shot("32-bomb-link")
	})
}

// TestContentSecurityPolicy checks that the served CSP stops inline script
// and that netlify.toml serves the same policy the tests use.
func TestContentSecurityPolicy(t *testing.T) {
	t.Run("netlify.toml serves the tests' policy and the documented settings", func(t *testing.T) {
		data, err := os.ReadFile("../netlify.toml")
		require.NoError(t, err)
		toml := string(data)
		m := regexp.MustCompile(`Content-Security-Policy = "([^"]*)"`).FindStringSubmatch(toml)
		require.NotNil(t, m, "netlify.toml sets a CSP")
		assert.Equal(t, CSP, m[1])
		assert.NotContains(t, m[1], "'unsafe-eval'")
		assert.NotRegexp(t, `script-src[^;]*'unsafe-inline'`, m[1])
		assert.Regexp(t, `(?s)from = "/api/\*"\s+to = "https://[^"]+/api/:splat"\s+status = 200`, toml, "/api/* is proxied")
		assert.Regexp(t, `(?s)for = "/embed.js"\s+\[headers.values\]\s+Cache-Control = "no-cache"`, toml, "the embed loader is not cached long")
	})

	t.Run("an inline script does not run", func(t *testing.T) {
		p := newBrowser(t).page(true)
		p.open("")
		ran := evalAwait[bool](p, `new Promise((resolve) => {
			document.addEventListener('securitypolicyviolation', () => resolve(!!window.__inlineRan), { once: true });
			const s = document.createElement('script');
			s.textContent = 'window.__inlineRan = true';
			document.body.append(s);
			const a = document.createElement('div');
			a.setAttribute('onclick', 'window.__inlineRan = true');
			document.body.append(a);
			a.click();
		})`)
		assert.False(t, ran)
		assert.False(t, eval[bool](p, `!!window.__inlineRan`))
		p.allow("CSP violation: script-src")
	})
}

// TestPlaygroundRendersHostileNamesAsText runs a scenario with markup in
// names and labels (which the API server rejects, so the markup reaches
// error messages), step names and data, and checks that none of it becomes
// HTML anywhere in the playground, the outcome matrix included.
func TestPlaygroundRendersHostileNamesAsText(t *testing.T) {
	p := newBrowser(t).page(true)
	p.open("")
	p.do(chromedp.Click(chromedp.CSS("#import")))
	p.waitFor(`document.querySelector('#import-dialog').open`, "the import dialog")
	p.do(chromedp.Click(chromedp.CSS("#import-text")), insertText(markupScenario))
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS("#import-load"))) })
	require.NotEqual(t, "error", eval[string](p, `document.querySelector('#status').dataset.kind`), p.status())
	p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
	p.waitFor(`document.querySelector('#matrix table')`, "the matrix")
	page := eval[string](p, `document.body.textContent`)
	assert.Contains(t, page, markup("step"), "a step name shown as text")
	for _, where := range []string{"name", "label-key", "label-value"} {
		// Also inside error messages, where Go quotes the markup's quotes.
		assert.Contains(t, page, "<b>"+where+"</b>", "%s shown as text", where)
	}
	p.selectObject("ConfigMap default/markup")
	assert.Contains(t, eval[string](p, `document.querySelector('#details pre.yaml').textContent`), markup("data"))
	assert.Zero(t, eval[int](p, `document.querySelectorAll('main img, main b, #matrix img, #matrix b').length`), "no element came from the data")
	time.Sleep(200 * time.Millisecond)
	assert.False(t, eval[bool](p, `!!window.__pwned`))
	p.shot("33-hostile-names")
}
