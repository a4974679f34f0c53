package site

import (
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// CSP is the Content-Security-Policy the site is served with (netlify.toml
// sets the same): wasm may compile, no inline or evaluated script runs.
// Styles need 'unsafe-inline': CodeMirror adds <style> elements at run time,
// and a static site cannot give them a nonce.
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

// Handler serves the built site in dir (make site) with the production
// headers, as Netlify does (netlify.toml: the CSP, caching, CORS on
// /assets/ and /embed.js): each .wasm, .js, .css, .html, .svg and .map
// file is sent precompressed, brotli or gzip as the request's
// Accept-Encoding allows, from the FILE.br and FILE.gz files the build
// writes beside it, with Content-Encoding and Vary: Accept-Encoding.
func Handler(dir string) http.Handler { return handler(dir, true) }

// handler is Handler; precompressed false serves every file as it is (the
// browser tests measure the difference).
func handler(dir string, precompressed bool) http.Handler {
	files := http.FileServer(noListing{http.Dir(dir)})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", CSP)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		name := r.URL.Path
		if strings.HasSuffix(name, "/") {
			name += "index.html"
		}
		ext := path.Ext(name)
		setCaching(h, name)
		if ext == ".wasm" {
			h.Set("Content-Type", "application/wasm")
		}
		if !precompressed || !compressible[ext] || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			files.ServeHTTP(w, r)
			return
		}
		h.Add("Vary", "Accept-Encoding")
		for _, enc := range []struct{ name, suffix string }{{"br", ".br"}, {"gzip", ".gz"}} {
			if !accepts(r.Header.Get("Accept-Encoding"), enc.name) {
				continue
			}
			file := filepath.Join(dir, filepath.FromSlash(path.Clean("/"+name)))
			f, err := os.Open(file + enc.suffix)
			if err != nil {
				continue
			}
			defer f.Close()
			info, err := f.Stat()
			if err != nil || info.IsDir() {
				continue
			}
			if h.Get("Content-Type") == "" {
				h.Set("Content-Type", mime.TypeByExtension(ext))
			}
			h.Set("Content-Encoding", enc.name)
			http.ServeContent(w, r, "", info.ModTime(), f) // "": the type is set above, not sniffed from compressed bytes
			return
		}
		files.ServeHTTP(w, r)
	})
}

// setCaching sets what netlify.toml sets by path: the content-hashed
// assets are cached for ever and, like the embed's loader, readable by
// pages on other origins (a documentation page's player fetches the wasm);
// the pages and the unhashed loaders are revalidated on every use.
func setCaching(h http.Header, name string) {
	switch {
	case strings.HasPrefix(name, "/assets/"):
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("Access-Control-Allow-Origin", "*")
	case name == "/embed.js":
		h.Set("Cache-Control", "no-cache")
		h.Set("Access-Control-Allow-Origin", "*")
	case name == "/index.html" || name == "/wasm_exec.js":
		h.Set("Cache-Control", "no-cache")
	}
}

// compressible are the extensions the build precompresses (build.mjs).
var compressible = map[string]bool{".wasm": true, ".js": true, ".css": true, ".html": true, ".svg": true, ".map": true}

// accepts reports whether an Accept-Encoding header allows enc (a q=0
// entry refuses it).
func accepts(header, enc string) bool {
	for _, part := range strings.Split(header, ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.EqualFold(strings.TrimSpace(name), enc) {
			continue
		}
		q := strings.ReplaceAll(params, " ", "")
		return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
	}
	return false
}

// noListing serves files and a directory's index.html, never a listing of
// a directory's contents.
type noListing struct{ fs http.FileSystem }

func (n noListing) Open(name string) (http.File, error) {
	f, err := n.fs.Open(name)
	if err != nil {
		return nil, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if info.IsDir() {
		index, err := n.fs.Open(path.Join(name, "index.html"))
		if err != nil {
			f.Close()
			return nil, fs.ErrNotExist
		}
		index.Close()
	}
	return f, nil
}
