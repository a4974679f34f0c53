// Package site is the genplay playground: a static site (index.html, src/,
// examples/) built by `make site` into dist/, around the engine compiled to
// WebAssembly twice, a core build and a full one with the CEL family (see
// wasm/doc.go for the JavaScript contract and when the full one loads). The same build
// makes dist/embed.js, the loader of the documentation players
// (src/embed.js), and copies the sample documentation page docs/ to
// dist/docs/. Before bundling it runs aboutgen, which writes src/about.json
// (the About panel: engine.KyvernoVersion and engine/doc.go's differences).
//
// The scenario editor's completion, hover docs and "did you mean" on
// unknown-field markers (src/complete.js) read src/fieldref.json, which
// engine/fieldref generates from the schemas the engine validates against
// (a test there keeps the checked-in file current).
//
// The package's Go code is [Handler], which serves dist/ with the production
// headers and its files precompressed (genplay serve uses it), and the
// browser tests: they serve dist/ with Handler and drive headless Chromium
// with chromedp, clicking what a user clicks. Screenshots go to
// test-output/ (gitignored). Without Chromium they skip, or fail when
// CI=true; without dist/ they fail and say to run `make site`. They build only natively (//go:build !js), since
// chromedp does not build for js/wasm. TestREADMEScreenshot refreshes
// ../docs/screenshot.png when GENPLAY_SCREENSHOT=1 (make screenshot).
package site
