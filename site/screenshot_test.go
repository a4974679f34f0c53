//go:build !js

package site

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readmeScreenshot is the picture README.md shows; refresh it with
// GENPLAY_SCREENSHOT=1 go test ./site/ -run TestREADMEScreenshot (after make site).
const readmeScreenshot = "../docs/screenshot.png"

// TestREADMEScreenshot takes the README's screenshot of the playground: the
// default-deny example after the user deleted the generated NetworkPolicy
// and Kyverno recreated it.
func TestREADMEScreenshot(t *testing.T) {
	if os.Getenv("GENPLAY_SCREENSHOT") != "1" {
		t.Skip("set GENPLAY_SCREENSHOT=1 to refresh docs/screenshot.png")
	}
	p := newBrowser(t).page(true)
	p.do(chromedp.EmulateViewport(1280, 760))
	p.open("")
	p.loadExample(netpolExample)
	p.selectObject(netpol)
	p.act("delete")
	p.selectObject(netpol)
	eval[chromedp.Void](p, `(() => { document.querySelector('#editor .cm-scroller').scrollLeft = 0; window.scrollTo(0, 0); })()`)

	ctx := p.ctx
	shot, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	img, err := png.Decode(bytes.NewReader(shot))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&out, img))
	t.Logf("%s: %d bytes", readmeScreenshot, out.Len())
	assert.Less(t, out.Len(), 300_000, "the README's screenshot must stay commit-sized")
	require.NoError(t, os.MkdirAll(filepath.Dir(readmeScreenshot), 0o755))
	require.NoError(t, os.WriteFile(readmeScreenshot, out.Bytes(), 0o644))
}
