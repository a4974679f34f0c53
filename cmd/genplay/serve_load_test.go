//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/site/examples"
)

// serveLoad is one kind of request of the serve load test.
type serveLoad struct {
	name    string
	body    []byte
	slow    bool // sent a byte every 50 ms: the body never arrives in time
	want    int
	hostile bool
}

// serveLoadMix is the gallery (ordinary requests) and the hostile tables:
// the second round's (CEL calls, objects of many references), the runaway
// table, the first round's malformed input, a body over the limit and
// bodies that trickle in. The status each must get is what the engine
// answers in-process: 422 for a run a limit stopped or an input that
// cannot run, 200 for one that ran (an object the API server refuses is
// Kyverno's failure, as on a cluster).
func serveLoadMix(t *testing.T, full bool) []serveLoad {
	list, err := examples.All()
	require.NoError(t, err)
	var mix []serveLoad
	for _, e := range list {
		mix = append(mix, serveLoad{name: "example " + e.File, body: e.Text, want: http.StatusOK})
	}
	expect := func(data []byte) int {
		res := engine.Run(api.DefaultFile, data, engine.Options{Families: families})
		for _, d := range res.Diagnostics {
			if d.Severity == "error" && (len(res.Steps) == 0 || strings.HasPrefix(d.Message, engine.LimitPrefix)) {
				return http.StatusUnprocessableEntity
			}
		}
		return http.StatusOK
	}
	inputs := hostile.Bounded()
	if full {
		inputs = append(append(inputs, hostile.Runaway()...), hostile.Inputs()...)
	} else {
		// A few of the older tables: malformed input, a runaway chain.
		for _, in := range append(hostile.Inputs(), hostile.Runaway()...) {
			switch in.Name {
			case "an alias bomb (billion laughs)", "non-UTF-8 in a value", "a JMESPath expression nested 10,000 deep",
				"a 100 KB wildcard name pattern against 60 long names":
				inputs = append(inputs, in)
			}
		}
	}
	for _, in := range inputs {
		if len(in.Data) == 0 || len(in.Data) > engine.MaxInputBytes {
			continue // the API's own answers (400, 413) are below
		}
		mix = append(mix, serveLoad{name: in.Name, body: in.Data, want: expect(in.Data), hostile: true})
	}
	return append(mix,
		serveLoad{name: "a body over the limit", body: bytes.Repeat([]byte("#"), int(api.DefaultMaxBodyBytes)+1), want: http.StatusRequestEntityTooLarge, hostile: true},
		serveLoad{name: "a body that trickles in", body: []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\n"), slow: true, want: http.StatusRequestTimeout, hostile: true},
	)
}

// trickle sends its bytes one every 50 ms.
type trickle struct{ data []byte }

func (b *trickle) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	time.Sleep(50 * time.Millisecond)
	p[0], b.data = b.data[0], b.data[1:]
	return 1, nil
}

type serveLoadReport struct {
	requests, errors       int
	ordinary               []time.Duration
	byStatus               map[int]int
	parentMaxRSS, childRSS int64 // KiB
	failures               []string
}

// runServeLoad sends n requests, concurrency at a time, to genplay serve's
// handler on a loopback server, each scenario run in a process of its own.
func runServeLoad(t *testing.T, mix []serveLoad, n, concurrency int) serveLoadReport {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "index.html"), []byte("<title>genplay</title>"), 0o644))
	iso := testIsolated(t)
	mux := http.NewServeMux()
	apiHandler := api.Handler(api.Options{Families: families, Run: iso.run, BodyTimeout: time.Second, Logger: discardLogger()})
	mux.Handle("/api/", apiHandler)
	mux.Handle("/healthz", apiHandler)
	mux.Handle("/", siteHandler(dir))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	transport := &http.Transport{MaxIdleConnsPerHost: concurrency}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 2 * time.Minute}

	rep := serveLoadReport{byStatus: map[int]int{}}
	var mu sync.Mutex
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range concurrency {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				r := mix[i%len(mix)]
				var body io.Reader = bytes.NewReader(r.body)
				if r.slow {
					body = &trickle{data: r.body}
				}
				req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/run", body)
				req.Header.Set("Content-Type", "text/yaml")
				if r.slow {
					req.ContentLength = -1
				}
				start := time.Now()
				res, err := client.Do(req)
				var out []byte
				if err == nil {
					out, _ = io.ReadAll(res.Body)
					res.Body.Close()
				}
				d := time.Since(start)
				mu.Lock()
				rep.requests++
				switch {
				case err != nil:
					rep.errors++
					rep.failures = append(rep.failures, fmt.Sprintf("%s: %v", r.name, err))
				default:
					rep.byStatus[res.StatusCode]++
					if res.StatusCode != r.want || !json.Valid(out) {
						rep.errors++
						rep.failures = append(rep.failures, fmt.Sprintf("%s: status %d, want %d: %.300s", r.name, res.StatusCode, r.want, out))
					}
					if !r.hostile {
						rep.ordinary = append(rep.ordinary, d)
					}
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

	// The server is up and answers at once.
	res, err := client.Get(srv.URL + "/healthz")
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode)

	var self, children syscall.Rusage
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &self))
	require.NoError(t, syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children))
	rep.parentMaxRSS, rep.childRSS = self.Maxrss, children.Maxrss
	slices.Sort(rep.ordinary)
	return rep
}

func checkServeLoad(t *testing.T, rep serveLoadReport, n int) {
	q := func(p int) time.Duration {
		if len(rep.ordinary) == 0 {
			return 0
		}
		return rep.ordinary[min(len(rep.ordinary)-1, len(rep.ordinary)*p/100)]
	}
	t.Logf("%d requests (%d ordinary), %d errors; statuses %v; ordinary requests p50 %v, p99 %v, max %v; peak RSS: the server (and the test) %d MiB, the largest run's process %d MiB",
		rep.requests, len(rep.ordinary), rep.errors, rep.byStatus, q(50), q(99), q(100), rep.parentMaxRSS>>10, rep.childRSS>>10)
	if len(rep.failures) > 10 {
		rep.failures = rep.failures[:10]
	}
	assert.Empty(t, rep.failures)
	assert.Equal(t, n, rep.requests)
	assert.Zero(t, rep.byStatus[http.StatusInternalServerError], "no 500s")
	assert.Zero(t, rep.byStatus[http.StatusServiceUnavailable], "no 503s")
	assert.Less(t, rep.childRSS, int64(childAddressSpace>>10), "every run's process stayed within its memory")
}

// TestServeUnderHostileLoad is the always-on share of the serve load test:
// every kind of the mix at least once, at concurrency 8.
func TestServeUnderHostileLoad(t *testing.T) {
	mix := serveLoadMix(t, false)
	checkServeLoad(t, runServeLoad(t, mix, len(mix), 8), len(mix))
}

// TestServeUnderFullHostileLoad sends ten times the mix at concurrency 16;
// it runs when GENPLAY_LOAD=1.
func TestServeUnderFullHostileLoad(t *testing.T) {
	if os.Getenv("GENPLAY_LOAD") == "" {
		t.Skip("set GENPLAY_LOAD=1 to send the mix ten times")
	}
	mix := serveLoadMix(t, true)
	checkServeLoad(t, runServeLoad(t, mix, 10*len(mix), 16), 10*len(mix))
}
