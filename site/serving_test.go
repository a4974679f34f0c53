//go:build !js

package site

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// throttle slows the page's server down to a network of kbps kilobits per
// second and rttMs milliseconds of round trip (0, 0: full speed again).
func (p *page) throttle(kbps float64, rttMs float64) { p.throttleURLs("", kbps, rttMs) }

// throttleURLs is throttle for the requests whose URL path matches pattern
// (path.Match, such as "/assets/*.wasm"; "" matches every request).
func (p *page) throttleURLs(pattern string, kbps float64, rttMs float64) {
	p.net.set(pattern, kbps*1000/8, time.Duration(rttMs*float64(time.Millisecond)))
}

// firstResult opens the playground under 20 Mbit/s and 40 ms RTT and
// returns the page's own time from navigation to the first rendered result
// and the bytes the engine's download took on the wire.
func firstResult(t *testing.T, b *browser) (time.Duration, int) {
	t.Helper()
	p := b.page(true)
	p.t = t
	p.throttle(20_000, 40)
	p.do(chromedp.Navigate(p.base + "/"))
	p.waitFor(`document.body.dataset.firstResultMs`, "the first result")
	ms, err := strconv.Atoi(eval[string](p, `document.body.dataset.firstResultMs`))
	require.NoError(t, err)
	wire := eval[int](p, `performance.getEntriesByType('resource').find(e => e.name.endsWith('.wasm'))?.encodedBodySize || 0`)
	return time.Duration(ms) * time.Millisecond, wire
}

// TestServingPrecompressed checks that the site's big files go out
// precompressed, as genplay serve and Netlify send them, and measures the
// time to the first result on a throttled network with and without.
func TestServingPrecompressed(t *testing.T) {
	path := chromiumPath(t)
	all, err := filepath.Glob(filepath.Join(distDir, "assets", "genplay-*.wasm"))
	require.NoError(t, err)
	var wasm []string // the core build, which every page loads (not genplay-cel-* nor genplay-tools-*)
	for _, f := range all {
		if name := filepath.Base(f); !strings.HasPrefix(name, "genplay-cel-") && !strings.HasPrefix(name, "genplay-tools-") {
			wasm = append(wasm, f)
		}
	}
	require.Len(t, wasm, 1, "one core engine in dist/assets")
	raw, err := os.Stat(wasm[0])
	require.NoError(t, err)

	t.Run("Accept-Encoding chooses brotli, gzip or none, with Vary", func(t *testing.T) {
		base := serve(t).URL
		url := base + "/assets/" + filepath.Base(wasm[0])
		for _, tt := range []struct{ accept, encoding string }{
			{"gzip, deflate, br, zstd", "br"},
			{"gzip", "gzip"},
			{"br;q=0, gzip", "gzip"},
			{"identity", ""},
		} {
			req, err := http.NewRequest(http.MethodGet, url, nil)
			require.NoError(t, err)
			req.Header.Set("Accept-Encoding", tt.accept)
			res, err := http.DefaultTransport.RoundTrip(req) // the transport alone does not decompress
			require.NoError(t, err)
			body, err := io.ReadAll(res.Body)
			res.Body.Close()
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, res.StatusCode, tt.accept)
			assert.Equal(t, tt.encoding, res.Header.Get("Content-Encoding"), tt.accept)
			assert.Equal(t, "application/wasm", res.Header.Get("Content-Type"), tt.accept)
			assert.Contains(t, res.Header.Values("Vary"), "Accept-Encoding", tt.accept)
			if tt.encoding == "" {
				assert.EqualValues(t, raw.Size(), len(body))
			} else {
				assert.Less(t, len(body), int(raw.Size()/3), "%s: %d of %d bytes", tt.encoding, len(body), raw.Size())
			}
		}
	})

	t.Run("the first result on a throttled network, raw and precompressed", func(t *testing.T) {
		// The times are logged, not asserted (timings are for benchmarks);
		// what the browser downloaded is asserted.
		before, rawWire := firstResult(t, newBrowserAt(t, path, serveWith(t, false)))
		after, wire := firstResult(t, newBrowserAt(t, path, serveWith(t, true)))
		t.Logf("first result at 20 Mbit/s, 40 ms RTT: %v raw (%d bytes of wasm on the wire), %v precompressed (%d bytes)", before, rawWire, after, wire)
		assert.EqualValues(t, raw.Size(), rawWire, "served raw, the wasm crosses the network whole")
		assert.Less(t, wire, int(raw.Size()/4), "precompressed, the browser downloads brotli")
	})
}
