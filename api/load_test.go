package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/site/examples"
)

// loadRequest is one kind of request in the load mix.
type loadRequest struct {
	name        string
	method      string
	path        string
	contentType string
	body        []byte
	want        int // the status every answer must have
	// expectContinue sends the body only after the server asked for it, as
	// curl does for large bodies. The server refuses an oversized body by
	// its Content-Length without reading it and closes the connection, so a
	// client that writes it regardless may see a broken pipe instead of the
	// 413 (HTTP allows either; the test wants the 413).
	expectContinue bool
}

func loadMix(t *testing.T) []loadRequest {
	list, err := examples.All()
	require.NoError(t, err)
	var mix []loadRequest
	for _, e := range list {
		mix = append(mix, loadRequest{name: "example " + e.File, method: http.MethodPost, path: "/api/v1/run",
			contentType: "text/yaml", body: e.Text, want: http.StatusOK})
	}
	chain, err := os.ReadFile("../engine/testdata/scenarios/runaway-chain.yaml")
	require.NoError(t, err)
	bomb := "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i < 10; i++ {
		bomb += fmt.Sprintf("a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 10), ", "))
	}
	asJSON, err := json.Marshal(map[string]any{"scenario": string(list[0].Text), "override": map[string]bool{"synchronize": false}})
	require.NoError(t, err)
	return append(mix,
		loadRequest{name: "a runaway generate chain", method: http.MethodPost, path: "/api/v1/run", contentType: "text/yaml", body: chain, want: http.StatusOK},
		loadRequest{name: "the JSON form with an override", method: http.MethodPost, path: "/api/v1/run", contentType: "application/json", body: asJSON, want: http.StatusOK},
		loadRequest{name: "broken YAML", method: http.MethodPost, path: "/api/v1/run", contentType: "text/yaml", body: []byte("spec: {steps: [\n"), want: http.StatusUnprocessableEntity},
		loadRequest{name: "an alias bomb", method: http.MethodPost, path: "/api/v1/run", contentType: "text/yaml", body: []byte(bomb), want: http.StatusUnprocessableEntity},
		loadRequest{name: "10,000-deep nesting", method: http.MethodPost, path: "/api/v1/run", contentType: "text/yaml", body: []byte(strings.Repeat("[", 10_000)), want: http.StatusUnprocessableEntity},
		loadRequest{name: "a body over the limit", method: http.MethodPost, path: "/api/v1/run", contentType: "text/yaml", body: bytes.Repeat([]byte("#"), int(api.DefaultMaxBodyBytes)+1), want: http.StatusRequestEntityTooLarge, expectContinue: true},
		loadRequest{name: "bad JSON", method: http.MethodPost, path: "/api/v1/run", contentType: "application/json", body: []byte(`{"scenario": `), want: http.StatusBadRequest},
		loadRequest{name: "the wrong method", method: http.MethodGet, path: "/api/v1/run", want: http.StatusMethodNotAllowed},
		loadRequest{name: "the gallery", method: http.MethodGet, path: "/api/v1/examples", want: http.StatusOK},
		loadRequest{name: "health", method: http.MethodGet, path: "/healthz", want: http.StatusOK},
	)
}

// loadReport is what a load run measured.
type loadReport struct {
	requests, errors                  int
	p50, p99, max                     time.Duration
	heapBefore, heapAfter             uint64
	goroutinesBefore, goroutinesAfter int
	byStatus                          map[int]int
}

// runLoad sends n requests at the given concurrency to a real loopback
// server, checks every answer, and measures latency and memory.
func runLoad(t *testing.T, n, concurrency int) loadReport {
	mix := loadMix(t)
	var rep loadReport
	rep.byStatus = map[int]int{}

	runtime.GC()
	rep.goroutinesBefore = runtime.NumGoroutine()
	srv := httptest.NewServer(api.Handler(api.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	transport := &http.Transport{MaxIdleConnsPerHost: concurrency, ExpectContinueTimeout: time.Minute}
	client := &http.Client{Transport: transport, Timeout: time.Minute}
	send := func(r loadRequest) (int, []byte, time.Duration, error) {
		req, err := http.NewRequest(r.method, srv.URL+r.path, bytes.NewReader(r.body))
		if err != nil {
			return 0, nil, 0, err
		}
		if r.contentType != "" {
			req.Header.Set("Content-Type", r.contentType)
		}
		if r.expectContinue {
			req.Header.Set("Expect", "100-continue")
		}
		start := time.Now()
		res, err := client.Do(req)
		if err != nil {
			return 0, nil, 0, err
		}
		body, err := io.ReadAll(res.Body)
		_ = res.Body.Close()
		return res.StatusCode, body, time.Since(start), err
	}
	// Warm up (every kind once), then take the baseline.
	for _, r := range mix {
		code, _, _, err := send(r)
		require.NoError(t, err, r.name)
		require.Equal(t, r.want, code, r.name)
	}
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	rep.heapBefore = ms.HeapAlloc

	latencies := make([]time.Duration, n)
	var mu sync.Mutex
	var failures []string
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := mix[i%len(mix)]
				code, body, d, err := send(r)
				latencies[i] = d
				mu.Lock()
				rep.requests++
				rep.byStatus[code]++
				switch {
				case err != nil:
					rep.errors++
					failures = append(failures, fmt.Sprintf("%s: %v", r.name, err))
				case code != r.want || !json.Valid(body):
					rep.errors++
					failures = append(failures, fmt.Sprintf("%s: status %d, want %d: %.200s", r.name, code, r.want, body))
				}
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

	srv.Close()
	transport.CloseIdleConnections()
	slices.Sort(latencies)
	rep.p50, rep.p99, rep.max = latencies[n/2], latencies[n*99/100], latencies[n-1]
	mix = nil
	for range 3 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	rep.heapAfter = ms.HeapAlloc
	// Give finished connections' goroutines a moment to exit; the check
	// counts goroutines, it does not time anything.
	for i := 0; i < 50 && runtime.NumGoroutine() > rep.goroutinesBefore+2; i++ {
		time.Sleep(20 * time.Millisecond)
	}
	rep.goroutinesAfter = runtime.NumGoroutine()
	if len(failures) > 10 {
		failures = failures[:10]
	}
	assert.Empty(t, failures)
	return rep
}

func checkLoad(t *testing.T, rep loadReport, n int) {
	t.Logf("%d requests: %d errors, p50 %v, p99 %v, max %v; statuses %v; heap %d -> %d bytes; goroutines %d -> %d",
		rep.requests, rep.errors, rep.p50, rep.p99, rep.max, rep.byStatus, rep.heapBefore, rep.heapAfter, rep.goroutinesBefore, rep.goroutinesAfter)
	assert.Equal(t, n, rep.requests)
	assert.Zero(t, rep.errors)
	assert.Zero(t, rep.byStatus[http.StatusInternalServerError], "no 500s")
	assert.LessOrEqual(t, rep.heapAfter, 2*rep.heapBefore+8<<20, "the heap returns to its baseline")
	assert.LessOrEqual(t, rep.goroutinesAfter, rep.goroutinesBefore+2, "no goroutine is left behind")
}

// TestTheAPIUnderLoad is the always-on share of the load test: 200 mixed
// requests at concurrency 16 on a loopback server.
func TestTheAPIUnderLoad(t *testing.T) {
	checkLoad(t, runLoad(t, 200, 16), 200)
}

// TestTheAPIUnderFullLoad sends 2,000 requests at concurrency 16; it runs
// when GENPLAY_LOAD=1 (make load), not in every `go test`.
func TestTheAPIUnderFullLoad(t *testing.T) {
	if os.Getenv("GENPLAY_LOAD") == "" {
		t.Skip("set GENPLAY_LOAD=1 to send 2,000 requests")
	}
	checkLoad(t, runLoad(t, 2000, 16), 2000)
}
