//go:build !js

package site

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/hostile"
)

// runawayScenario is a scenario that keeps the engine busy for seconds
// before its work budget ends it: a background scan that never settles.
func runawayScenario(t *testing.T) string {
	for _, in := range hostile.Runaway() {
		if strings.Contains(in.Name, "never settles") {
			return string(in.Data)
		}
	}
	t.Fatal("no runaway scenario in engine/hostile")
	return ""
}

// TestPlaygroundStopsARunawayScenario opens a share link to a runaway
// scenario: the engine runs in a Web Worker, so the page stays responsive
// while it runs; the user stops it, the text is kept, a reload does not
// run it again without the user's say, and a run past its deadline is
// stopped as well.
func TestPlaygroundStopsARunawayScenario(t *testing.T) {
	text := runawayScenario(t)
	p := newBrowser(t).page(true)
	p.do(chromedp.Navigate(p.base + "/" + deflateLink(t, []byte(text))))
	p.waitFor(`document.body.dataset.ready === 'true' && genplay.running`, "the runaway run to start")

	t.Run("the page stays responsive while the engine works", func(t *testing.T) {
		p.t = t
		p.waitFor(`!document.querySelector('#stop').hidden`, "the Stop button")
		for range 5 {
			start := time.Now()
			assert.True(t, eval[bool](p, `genplay.running`))
			// The editor takes input while the run goes on.
			p.do(chromedp.Click(chromedp.CSS("#share")))
			// Answered while the run goes on (genplay.running above) is
			// what shows the main thread free; the bound only catches a
			// page that answers late, and is loose because a loaded CI
			// machine gives the renderer little CPU.
			assert.Less(t, time.Since(start), 5*time.Second, "the main thread answers while the engine works")
			assert.True(t, eval[bool](p, `genplay.running`), "the run was still going")
			time.Sleep(100 * time.Millisecond)
		}
		p.shot("40-runaway-running")
	})

	t.Run("Stop ends the run and keeps the text", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Click(chromedp.CSS("#stop")))
		p.waitFor(`document.querySelector('#status').textContent.includes('you stopped the run')`, "the stopped status")
		assert.Contains(t, p.status(), "your scenario is kept")
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		assert.True(t, eval[bool](p, `document.querySelector('#stop').hidden`))
		p.waitFor(`!genplay.running && !genplay.crashed`, "a fresh engine")
		p.shot("41-runaway-stopped")
	})

	t.Run("a reload does not run the stopped scenario again by itself", func(t *testing.T) {
		p.t = t
		p.do(chromedp.Reload())
		p.waitFor(`document.body.dataset.ready === 'true'`, "the page to load")
		time.Sleep(300 * time.Millisecond)
		assert.Contains(t, p.status(), "not run again until you press Run")
		assert.False(t, eval[bool](p, `genplay.running`))
		assert.Equal(t, 0, p.runs())
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		p.shot("42-runaway-not-rerun")
	})

	t.Run("a run past its deadline is stopped and the engine restarted", func(t *testing.T) {
		p.t = t
		eval[int](p, `genplay.deadlineMs = 800`)
		p.do(chromedp.Click(chromedp.CSS("#run")))
		p.waitFor(`document.querySelector('#status').textContent.includes('took longer than 0.8 s')`, "the deadline")
		assert.Contains(t, p.status(), "your scenario is kept")
		assert.Equal(t, text, eval[string](p, `genplayPlayground.text()`))
		p.waitFor(`!genplay.running && !genplay.crashed`, "a fresh engine")
		eval[int](p, `genplay.deadlineMs = 20000`)
		// The fresh engine runs the user's next scenario.
		p.loadExample(netpolExample)
		require.True(t, p.hasObject("Namespace team-a"))
	})
}
