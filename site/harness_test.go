//go:build !js

package site

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/internal/testenv"
)

const (
	distDir   = "dist"
	outputDir = "test-output"
	timeout   = 30 * time.Second
)

// serve starts an HTTP server for dist/ with the production headers
// (Handler, as genplay serve and Netlify serve it), behind a network the
// test can slow down (see shaper).
func serve(t *testing.T) *server { return serveWith(t, true) }

// server is the site under test and the network in front of it.
type server struct {
	URL string
	net *shaper
}

// serveWith is serve; precompressed false sends every file as it is.
func serveWith(t *testing.T, precompressed bool) *server {
	t.Helper()
	if _, err := os.Stat(filepath.Join(distDir, "index.html")); err != nil {
		testenv.Missing(t, "site/dist is not built: run make site first")
	}
	net := &shaper{done: make(chan struct{})}
	srv := httptest.NewServer(net.wrap(handler(distDir, precompressed)))
	t.Cleanup(srv.Close)
	t.Cleanup(net.stop) // runs first: a slowed response in flight ends, so Close does not wait for it
	return &server{URL: srv.URL, net: net}
}

func chromiumPath(t *testing.T) string {
	t.Helper()
	for _, p := range []string{os.Getenv("CHROMIUM"), "/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if p == "" {
			continue
		}
		if path, err := exec.LookPath(p); err == nil {
			return path
		}
	}
	testenv.Missing(t, "chromium is not installed: the browser tests need /usr/bin/chromium (Debian's chromium package; .ci/run installs it)")
	return ""
}

// chromium is the one headless Chromium of this test binary, with a fresh
// profile, started by the first test that needs it and stopped by TestMain.
// Each browser (newBrowser) is a browser context of its own in it: its
// own cookies, storage and cache, as a fresh profile had.
var chromium struct {
	once sync.Once
	ctx  context.Context // its first tab; browser contexts are made from it
	err  error
	stop func()
}

func TestMain(m *testing.M) {
	code := m.Run()
	if chromium.stop != nil {
		chromium.stop()
	}
	os.Exit(code)
}

func startChromium(path string) (context.Context, error) {
	chromium.once.Do(func() {
		profile, err := os.MkdirTemp("", "genplay-chromium-")
		if err != nil {
			chromium.err = err
			return
		}
		alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
			chromedp.ExecPath(path),
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Headless,
			chromedp.DisableGPU,
			chromedp.NoSandbox,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.UserDataDir(profile),
			chromedp.WindowSize(1440, 1000),
		)
		ctx, cancel := chromedp.NewContext(alloc)
		chromium.ctx = ctx
		chromium.stop = func() {
			cancel()
			cancelAlloc()
			os.RemoveAll(profile)
		}
		_, chromium.err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void]("1"))
	})
	return chromium.ctx, chromium.err
}

// browser is a fresh browser (a browser context of the shared Chromium)
// and the site it tests.
type browser struct {
	t    *testing.T
	ctx  context.Context
	base string
	net  *shaper
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	path := chromiumPath(t)
	return newBrowserAt(t, path, serve(t))
}

// newBrowserAt is newBrowser for the site srv serves.
func newBrowserAt(t *testing.T, path string, srv *server) *browser {
	t.Helper()
	root, err := startChromium(path)
	require.NoError(t, err, "start chromium")
	ctx, cancel := chromedp.NewContext(root, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	_, err = chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void]("1"))
	require.NoError(t, err, "open a browser context")
	return &browser{t: t, ctx: ctx, base: srv.URL, net: srv.net}
}

// page is one tab; fresh makes it in a new browser context (its own storage).
type page struct {
	t      *testing.T
	ctx    context.Context
	base   string
	net    *shaper
	mu     sync.Mutex
	errors []string
}

func (b *browser) page(fresh bool) *page {
	p := &page{t: b.t, base: b.base, net: b.net}
	opts := []chromedp.ContextOption{chromedp.WithListener(p.listen)}
	if fresh {
		opts = append(opts, chromedp.WithNewBrowserContext())
	}
	ctx, cancel := chromedp.NewContext(b.ctx, opts...)
	b.t.Cleanup(cancel)
	p.ctx = ctx
	_, err := chromedp.Run(ctx, chromedp.Evaluate[chromedp.Void]("1"))
	require.NoError(b.t, err)
	b.t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			b.t.Errorf("browser: %s", e)
		}
	})
	return p
}

// listen records uncaught exceptions and console errors; the test fails on any.
func (p *page) listen(ev any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventExceptionThrown:
		msg := e.ExceptionDetails.Text
		if e.ExceptionDetails.Exception != nil {
			msg += " " + e.ExceptionDetails.Exception.Description
		}
		p.errors = append(p.errors, "uncaught exception: "+msg)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError {
			var parts []string
			for _, a := range e.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			p.errors = append(p.errors, "console.error: "+strings.Join(parts, " "))
		}
	}
}

func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	require.NoError(p.t, chromedp.Do(ctx, actions...))
}

// eval evaluates expr and decodes its JSON value into T.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	require.NoError(p.t, err, "evaluate %s", expr)
	return v
}

// waitFor polls expr until it is truthy. (chromedp.Poll compiles the
// predicate with new Function, which the CSP forbids.)
func (p *page) waitFor(expr, what string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ctx, cancel := context.WithTimeout(p.ctx, timeout)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+expr+")"))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			p.save("timeout-" + strings.ReplaceAll(p.t.Name(), "/", "-")) // always: it shows why
			p.t.Fatalf("timed out waiting for %s (%s): %v; status: %q", what, expr, err,
				eval[string](p, `document.querySelector('#status')?.textContent || ''`))
		}
		time.Sleep(30 * time.Millisecond)
	}
}

// shot saves a full-page screenshot under test-output/ when
// GENPLAY_SCREENSHOTS=1 (make screenshots), for a person to look at.
func (p *page) shot(name string) {
	p.t.Helper()
	if os.Getenv("GENPLAY_SCREENSHOTS") == "1" {
		p.save(name)
	}
}

// save writes a full-page screenshot to test-output/NAME.png.
func (p *page) save(name string) {
	p.t.Helper()
	require.NoError(p.t, os.MkdirAll(outputDir, 0o755))
	ctx, cancel := context.WithTimeout(p.ctx, timeout)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	file := filepath.Join(outputDir, name+".png")
	require.NoError(p.t, os.WriteFile(file, png, 0o644))
	p.t.Logf("screenshot: site/%s", file)
}

func (p *page) darkMode(on bool) {
	value := "light"
	if on {
		value = "dark"
	}
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	}))
}

// open navigates to the playground (with an optional #fragment) and waits
// for the engine and the first run.
func (p *page) open(fragment string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.base + "/" + fragment))
	p.waitFor(`document.body.dataset.ready === 'true' && Number(document.body.dataset.runs) > 0`, "the engine's first run")
}

func (p *page) runs() int {
	return eval[int](p, `Number(document.body.dataset.runs || 0)`)
}

// afterRun runs f and waits until the playground has run the scenario again.
func (p *page) afterRun(f func()) {
	p.t.Helper()
	before := p.runs()
	f()
	p.waitFor(fmt.Sprintf(`Number(document.body.dataset.runs) > %d`, before), "the scenario to run again")
}

func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// loadExample picks an example in the gallery, as a user does.
func (p *page) loadExample(file string) {
	p.t.Helper()
	p.afterRun(func() {
		p.do(chromedp.Focus(chromedp.CSS("#example")))
		eval[chromedp.Void](p, fmt.Sprintf(`(() => { const s = document.querySelector('#example'); s.value = %s;
			s.dispatchEvent(new Event('change', {bubbles: true})); })()`, js(file)))
	})
	p.waitFor(`document.querySelector('#status').dataset.kind !== 'error'`, "the example to run cleanly")
}

// hasObject tells whether the cluster view shows the object (e.g. "NetworkPolicy team-a/default-deny").
func (p *page) hasObject(ref string) bool {
	sel := fmt.Sprintf(`#cluster button.object[data-ref=%s]`, js(ref))
	return eval[bool](p, fmt.Sprintf(`!!document.querySelector(%s)`, js(sel)))
}

// selectObject clicks the object in the cluster view.
func (p *page) selectObject(ref string) {
	p.t.Helper()
	sel := fmt.Sprintf(`#cluster button.object[data-ref=%s]`, js(ref))
	p.waitFor(fmt.Sprintf(`document.querySelector(%s)`, js(sel)), ref+" in the cluster view")
	if eval[string](p, fmt.Sprintf(`document.querySelector(%s).getAttribute('aria-pressed')`, js(sel))) != "true" {
		// The cluster view may re-render the button between finding it and
		// clicking it (DevTools: "Could not find node with given id"): the
		// user's click then lands on the new button, so find it again.
		var err error
		for range 3 {
			ctx, cancel := context.WithTimeout(p.ctx, timeout)
			err = chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel)))
			cancel()
			if err == nil || !strings.Contains(err.Error(), "Could not find node") {
				break
			}
		}
		require.NoError(p.t, err)
	}
	p.waitFor(fmt.Sprintf(`document.querySelector('#details h3')?.textContent === %s`, js(ref)), ref+" selected")
}

// act clicks an action button of the selected object and waits for the run.
func (p *page) act(action string) {
	p.t.Helper()
	sel := fmt.Sprintf(`#details button[data-action=%s]`, js(action))
	p.waitFor(fmt.Sprintf(`document.querySelector(%s)`, js(sel)), "the "+action+" button")
	p.afterRun(func() { p.do(chromedp.Click(chromedp.CSS(sel))) })
}

// lastStepEvents lists "actor action ref" for the events of the last step.
func (p *page) lastStepEvents() []string {
	return eval[[]string](p, `[...document.querySelectorAll('#timeline > li.step:last-child .event')].map(e =>
		e.dataset.actor + ' ' + e.dataset.action + ' ' + (e.querySelector('.ref')?.textContent || ''))`)
}
