//go:build !js

package site

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/internal/testenv"
)

// axeSource is axe-core from site/node_modules (npm ci installs it).
func axeSource(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		testenv.Missing(t, "axe-core is not installed: run npm ci in site/ (make site does)")
	}
	return string(b)
}

// axeViolations runs axe-core over the page as it is and lists its serious
// and critical violations ("rule: target (impact)").
func (p *page) axeViolations(source string) []string {
	p.t.Helper()
	if !eval[bool](p, `typeof axe === 'object'`) {
		eval[chromedp.Void](p, source)
	}
	ctx, cancel := context.WithTimeout(p.ctx, 2*timeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.flatMap((v) => v.nodes.map((n) => v.id + ': ' + n.target.join(' ') + ' (' + v.impact + ') ' + (n.failureSummary || '').split('\n').slice(1, 2).join(''))))`,
		chromedp.EvalAwaitPromise))
	require.NoError(p.t, err)
	return v
}

// TestAccessibility (issue 26, item 11): axe-core finds no serious or
// critical violation on the page with an example run, the outcome matrix,
// and each dialog, in the light and the dark scheme.
func TestAccessibility(t *testing.T) {
	source := axeSource(t)
	b := newBrowser(t)
	for _, dark := range []bool{false, true} {
		scheme := "light"
		if dark {
			scheme = "dark"
		}
		t.Run(scheme, func(t *testing.T) {
			p := b.page(true)
			p.t = t
			p.darkMode(dark)
			p.open("")
			p.loadExample(netpolExample)
			p.selectObject(netpol)
			p.act("delete")
			check := func(what string) {
				t.Helper()
				got := p.axeViolations(source)
				assert.Empty(t, got, "%s, %s: %s", what, scheme, strings.Join(got, "\n"))
				p.shot(fmt.Sprintf("r2-11-axe-%s-%s", scheme, strings.ReplaceAll(what, " ", "-")))
			}
			check("the page after an action")
			p.do(chromedp.Click(chromedp.CSS("#matrix-box summary")))
			p.waitFor(`document.querySelector('#matrix table:not([hidden])')`, "the matrix")
			check("the outcome matrix")
			closeDialog := func(id string) {
				eval[chromedp.Void](p, fmt.Sprintf(`document.querySelector(%s).close()`, js("#"+id)))
			}
			for _, d := range []struct{ name, id, open string }{
				{"the object dialog", "object-dialog", `#details button[data-action="edit"]`},
				{"the import dialog", "import-dialog", `#import`},
				{"the export-as-test dialog", "export-test-dialog", `#export-checks`},
				{"the about dialog", "about-dialog", `#about`},
			} {
				if d.id == "object-dialog" {
					p.selectObject(netpol)
				}
				p.do(chromedp.Click(chromedp.CSS(d.open)))
				p.waitFor(fmt.Sprintf(`document.querySelector(%s)?.open`, js("#"+d.id)), d.name)
				if d.id == "export-test-dialog" {
					p.waitFor(`document.querySelector('#export-test-dialog').dataset.state === 'done'`, "the export")
				}
				check(d.name)
				closeDialog(d.id)
			}
			p.selectObject(policy)
			p.do(chromedp.Click(chromedp.CSS(`#details button[data-action="convert"]`)))
			p.waitFor(`document.querySelector('#convert-dialog')?.open && document.querySelector('#convert-dialog').dataset.state !== 'busy'`, "the convert dialog")
			p.waitFor(`document.querySelector('#convert-dialog table')`, "the comparison")
			check("the convert dialog")
			closeDialog("convert-dialog")
			p.do(chromedp.Click(chromedp.CSS("#compare-versions")))
			p.waitFor(`document.body.dataset.versions === 'ready'`, "the versions comparison")
			check("the versions comparison")
			p.do(chromedp.Click(chromedp.CSS("#versions-close")))
		})
	}
}
