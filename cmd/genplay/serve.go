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
	"github.com/genplay/genplay/site"
)

func serveCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8080", "address to listen on")
	dir := fs.String("dir", "site/dist", "the built playground (make site)")
	if err := fs.Parse(args); err != nil {
		return 2
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
		Handler:           serveHandler(*dir),
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
// built site on one port.
func serveHandler(dir string) http.Handler {
	mux := http.NewServeMux()
	apiHandler := api.Handler(api.Options{Families: families})
	mux.Handle("/api/", apiHandler)
	mux.Handle("/healthz", apiHandler)
	mux.Handle("/", siteHandler(dir))
	return mux
}

// siteHandler serves the built site with the headers the playground needs,
// its files precompressed (site.Handler).
func siteHandler(dir string) http.Handler { return site.Handler(dir) }
