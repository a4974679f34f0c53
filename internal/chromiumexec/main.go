//go:build !js

// Command chromiumexec runs a js/wasm Go program, typically a test binary,
// in headless Chromium, as the toolchain's go_js_wasm_exec runs one under
// Node: its arguments follow the wasm file, its output goes to stdout, and
// it exits with the program's exit code.
//
//	go run ./internal/chromiumexec engine.test.wasm -test.run '^$' -test.bench SelfHeal
//
// `make bench-ratio` uses it to time the engine's benchmarks in the browser
// engine the playground runs in. The page is served cross-origin isolated,
// so performance.now (the Go runtime's clock there) ticks in 5 µs steps
// rather than 100 µs. CHROMIUM names the browser (default
// /usr/bin/chromium).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

const page = `<!doctype html>
<meta charset="utf-8">
<script src="wasm_exec.js"></script>
<script>
const go = new Go();
go.argv = ARGV;
go.env = {};
go.exit = code => { globalThis.goExit = code; };
WebAssembly.instantiateStreaming(fetch("program.wasm"), go.importObject)
  .then(r => go.run(r.instance))
  .catch(e => { console.log("chromiumexec: " + e); globalThis.goExit = 2; });
</script>
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: chromiumexec program.wasm [arguments]")
		os.Exit(2)
	}
	code, err := run(os.Args[1], os.Args[2:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "chromiumexec:", err)
		os.Exit(2)
	}
	os.Exit(code)
}

func run(wasm string, args []string) (int, error) {
	argv, err := json.Marshal(append([]string{filepath.Base(wasm)}, args...))
	if err != nil {
		return 0, err
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return 0, fmt.Errorf("go env GOROOT: %w", err)
	}
	// wasm_exec.js must be the toolchain's that built the program: the go
	// on PATH, as for `go test -exec`.
	support, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		return 0, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/program.wasm", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, wasm) })
	mux.HandleFunc("/wasm_exec.js", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		_, _ = w.Write(support)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte(strings.Replace(page, "ARGV", string(argv), 1)))
	})
	isolated := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cross-Origin-Opener-Policy", "same-origin")
		w.Header().Set("Cross-Origin-Embedder-Policy", "require-corp")
		mux.ServeHTTP(w, r)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	srv := &http.Server{Handler: isolated, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	profile, err := os.MkdirTemp("", "chromiumexec-")
	if err != nil {
		return 0, err
	}
	defer os.RemoveAll(profile)
	browser := os.Getenv("CHROMIUM")
	if browser == "" {
		browser = "/usr/bin/chromium"
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browser),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Headless,
		chromedp.DisableGPU,
		chromedp.NoSandbox,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(profile),
	)
	defer cancelAlloc()
	// wasm_exec.js writes the program's output a line at a time with
	// console.log.
	ctx, cancel := chromedp.NewContext(alloc, chromedp.WithListener(func(ev any) {
		if e, ok := ev.(*cdpruntime.EventConsoleAPICalled); ok {
			parts := make([]string, 0, len(e.Args))
			for _, a := range e.Args {
				var s string
				if json.Unmarshal(a.Value, &s) != nil {
					s = string(a.Value)
				}
				parts = append(parts, s)
			}
			fmt.Println(strings.Join(parts, " "))
		}
	}))
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Navigate("http://"+ln.Addr().String()+"/")); err != nil {
		return 0, err
	}
	for {
		code, err := chromedp.Run(ctx, chromedp.Evaluate[*int]("globalThis.goExit ?? null"))
		if err != nil {
			return 0, err
		}
		if code != nil {
			return *code, nil
		}
		select {
		case <-ctx.Done():
			return 0, errors.New("the browser went away")
		case <-time.After(200 * time.Millisecond):
		}
	}
}
