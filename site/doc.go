// Package site is the genplay playground: a static site (index.html, src/,
// examples/) built by `make site` into dist/, around the engine compiled to
// WebAssembly twice, a core build and a full one with the CEL family (see
// wasm/doc.go for the JavaScript contract and when the full one loads). The same build
// makes dist/embed.js, the loader of the documentation players
// (src/embed.js), and copies the sample documentation page docs/ to
// dist/docs/. Before bundling it runs aboutgen, which writes src/about.json
// (the About panel: engine.KyvernoVersion and engine/doc.go's differences).
//
// src/app.js owns the page's state and the run; each view is a module it
// creates with one `page` object (timeline.js, cluster.js, matrix.js,
// objectdialog.js, links.js, convert.js, wrap.js), persistence.js keeps the
// work in localStorage, and the pure modules (objects.js, result.js,
// scenario.js, steps.js, relations.js) are shared with the embed where it
// needs them and unit-tested with node --test (src/*.test.js, make test).
// The examples' gallery is bundled from examples/examples.json by
// build.mjs (import examples from 'genplay:examples'): adding an example
// edits that file alone.
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
