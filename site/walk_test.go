//go:build !js

package site

import (
	"context"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// TestWalkTimings measures what a newcomer waits for: the first result of
// a cold page for each family (at 20 Mbit/s and 40 ms of round trip), an
// action (delete the downstream) and the outcome matrix (opened after it).
// With GENPLAY_WALK_OLD=DIR (another build of the site, e.g. main's) it
// measures that build and this one in turn, round by round, and logs each
// figure's median and the median of the paired ratios; without it, it
// skips: it is a measurement, not a check (make test does not set it).
func TestWalkTimings(t *testing.T) {
	old := os.Getenv("GENPLAY_WALK_OLD")
	if old == "" {
		t.Skip("set GENPLAY_WALK_OLD to a built site/dist of another version to compare the walk's timings")
	}
	rounds := 3
	if n, err := strconv.Atoi(os.Getenv("GENPLAY_WALK_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	path := chromiumPath(t)
	sites := map[string]*server{"old": walkServer(t, old), "new": walkServer(t, distDir)}
	figures := []string{"cold first result, ClusterPolicy", "cold first result, GeneratingPolicy", "an action", "the matrix"}
	got := map[string]map[string][]float64{"old": {}, "new": {}}
	for r := 0; r < rounds; r++ {
		for _, which := range []string{"old", "new"} {
			for i, ms := range walk(t, newBrowserAt(t, path, sites[which])) {
				got[which][figures[i]] = append(got[which][figures[i]], ms)
			}
		}
	}
	for _, f := range figures {
		var ratios []float64
		for i := range got["new"][f] {
			ratios = append(ratios, got["new"][f][i]/got["old"][f][i])
		}
		t.Logf("%-38s old %7.0f ms  new %7.0f ms  new/old %.2f (median of %d paired rounds; old %v, new %v)",
			f, median(got["old"][f]), median(got["new"][f]), median(ratios), rounds, got["old"][f], got["new"][f])
	}
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}

// walkServer serves a built site at dir behind the shaped network.
func walkServer(t *testing.T, dir string) *server {
	t.Helper()
	_, err := os.Stat(filepath.Join(dir, "index.html"))
	require.NoError(t, err, "a built site in %s", dir)
	net := &shaper{done: make(chan struct{})}
	srv := httptest.NewServer(net.wrap(handler(dir, true)))
	t.Cleanup(srv.Close)
	t.Cleanup(net.stop)
	return &server{URL: srv.URL, net: net}
}

// walk is one round: the four figures in milliseconds.
func walk(t *testing.T, b *browser) []float64 {
	t.Helper()
	first := func(fragment string) float64 {
		p := b.page(true)
		b.net.set("", 20_000*1000/8, 40*time.Millisecond)
		defer b.net.set("", 0, 0)
		p.do(chromedp.Navigate(p.base + "/" + fragment))
		p.waitFor(`document.body.dataset.firstResultMs`, "the first result")
		ms, err := strconv.ParseFloat(eval[string](p, `document.body.dataset.firstResultMs`), 64)
		require.NoError(t, err)
		return ms
	}
	core := first("")
	// The CEL example's share link, as each version makes it (#s=..., or
	// #example=NAME since issue 26).
	p := b.page(true)
	p.open("")
	p.loadExample("default-deny-netpol-cel.yaml")
	p.do(chromedp.Click(chromedp.CSS("#share")))
	p.waitFor(`document.querySelector('#share-url').value`, "the share link")
	link := eval[string](p, `document.querySelector('#share-url').value`)
	frag := link[len(p.base)+1:]
	cel := first(frag)
	// An action and the matrix, on a warm page, timed in the page.
	q := b.page(true)
	q.open("")
	q.loadExample(netpolExample)
	q.selectObject(netpol)
	ctx, cancel := context.WithTimeout(q.ctx, time.Minute)
	defer cancel()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(async () => {
		const runs = () => Number(document.body.dataset.runs);
		const until = async (f) => { while (!f()) await new Promise((r) => setTimeout(r, 2)); };
		const n = runs();
		let t0 = performance.now();
		document.querySelector('#details button[data-action="delete"]').click();
		await until(() => runs() > n);
		const action = performance.now() - t0;
		t0 = performance.now();
		document.querySelector('#matrix-box summary').click();
		await until(() => document.querySelector('#matrix table:not([hidden]) tbody tr'));
		return [action, performance.now() - t0];
	})()`, chromedp.EvalAwaitPromise))
	require.NoError(t, err)
	return []float64{core, cel, ms[0], ms[1]}
}
