//go:build !js

package site

import (
	"context"
	"runtime"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// ctrlModifier is the modifier of editor shortcuts: Cmd on macOS, Ctrl elsewhere.
func ctrlModifier() chromedp.Modifier {
	if runtime.GOOS == "darwin" {
		return chromedp.ModifierMeta
	}
	return chromedp.ModifierCtrl
}

// insertText types text as one input event, the way a paste arrives, so the
// editor does not auto-indent it.
func insertText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}
