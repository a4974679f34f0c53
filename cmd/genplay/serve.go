package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/site"
)

func serveCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := fs.String("dir", "site/dist", "the built playground (make site)")
	inProcess := fs.Bool("in-process", false, "run scenarios in the server's process rather than one process each (for debugging: a run that escapes the engine's limits can then take the server down)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	run := engine.Run
	if !*inProcess {
		iso, err := newIsolated()
		if err != nil {
			fmt.Fprintf(stderr, "genplay serve: %v\n", err)
			return 2
		}
		run = iso.run
	}
	if _, err := os.Stat(filepath.Join(*dir, "index.html")); err != nil {
		fmt.Fprintf(stderr, "genplay serve: %s has no index.html: build the playground first (make site)\n", *dir)
		return 2
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "genplay serve: %v\n", err)
		return 2
	}
	fmt.Fprintf(stdout, "genplay playground: http://%s/\n", ln.Addr())
	fmt.Fprintf(stdout, "genplay API: POST http://%s/api/v1/run, GET /api/v1/examples, GET /healthz\n", ln.Addr())
	srv := &http.Server{
		Handler:           serveHandler(*dir, run),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      api.DefaultTimeout + 10*time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(stderr, "genplay serve: %v\n", err)
		return 1
	}
	return 0
}

// serveHandler serves the HTTP API (package api: /api/ and /healthz) and the
// built site on one port; run runs a scenario (a process each, or
// engine.Run).
func serveHandler(dir string, run func(string, []byte, engine.Options) *timeline.Result) http.Handler {
	mux := http.NewServeMux()
	apiHandler := api.Handler(api.Options{Families: families, Scripts: scripts, Run: run})
	mux.Handle("/api/", apiHandler)
	mux.Handle("/healthz", apiHandler)
	mux.Handle("/", siteHandler(dir))
	return mux
}

// siteHandler serves the built site with the headers the playground needs,
// its files precompressed (site.Handler).
func siteHandler(dir string) http.Handler { return site.Handler(dir) }
