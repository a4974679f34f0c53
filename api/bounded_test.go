package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/timeline"
)

// blockingBody counts reads and blocks none: it tells whether the handler
// read the body at all.
type probeBody struct {
	strings.Reader
	reads *atomic.Int64
}

func (p *probeBody) Read(b []byte) (int, error) {
	p.reads.Add(1)
	return p.Reader.Read(b)
}

func TestTheQueueIsBoundedAndBodiesWaitInTheClient(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	h := api.Handler(api.Options{MaxConcurrent: 1, MaxQueue: 1, Timeout: 5 * time.Second, Run: func(string, []byte, engine.Options) *timeline.Result {
		started <- struct{}{}
		<-release
		return &timeline.Result{Steps: []timeline.Step{{}}}
	}})
	first := make(chan int)
	go func() { first <- do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1")).StatusCode }()
	<-started

	// The second waits for the slot without its body being read.
	var reads atomic.Int64
	second := make(chan int)
	go func() {
		req := httptest.NewRequest(http.MethodPost, "/api/v1/run", &probeBody{Reader: *strings.NewReader("x: 1"), reads: &reads})
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		second <- rec.Code
	}()
	time.Sleep(50 * time.Millisecond)
	assert.Zero(t, reads.Load(), "a waiting request's body is not read")

	// The third finds the queue full: 429 at once, with Retry-After.
	res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	assert.Equal(t, "5", res.Header.Get("Retry-After"))
	msg, _ := errorOf(t, res)
	assert.Contains(t, msg, "too many runs are waiting")

	close(release)
	assert.Equal(t, http.StatusOK, <-first)
	assert.Equal(t, http.StatusOK, <-second)
	assert.Positive(t, reads.Load())
}

func TestARunWhoseClientGoesAwayIsCancelledAndFreesItsSlot(t *testing.T) {
	// A real runaway scenario under the real engine, with an unbounded work
	// budget: only the cancellation can stop it.
	var scenario []byte
	for _, in := range hostile.Runaway() {
		if strings.HasPrefix(in.Name, "sort_by") {
			scenario = in.Data
		}
	}
	require.NotEmpty(t, scenario)
	done := make(chan *timeline.Result, 1)
	h := api.Handler(api.Options{MaxConcurrent: 1, Timeout: -1, Run: func(file string, data []byte, opts engine.Options) *timeline.Result {
		opts.Limits.Work = 1 << 62
		res := engine.Run(file, data, opts)
		done <- res
		return res
	}})
	ctx, cancel := context.WithCancel(context.Background())
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, "/api/v1/run", strings.NewReader(string(scenario)))
	rec := httptest.NewRecorder()
	time.AfterFunc(200*time.Millisecond, cancel)
	start := time.Now()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusServiceUnavailable, rec.Code)
	select {
	case res := <-done:
		out, err := timeline.Marshal(res)
		require.NoError(t, err)
		assert.Contains(t, string(out), "the run was stopped in", "the engine says why it stopped")
		t.Logf("the run stopped %s after the request began", time.Since(start))
	case <-time.After(10 * time.Second):
		t.Fatal("the run went on after its client went away")
	}
	// The slot is free again.
	res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
	assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
}

func TestACompressedBodyIs415(t *testing.T) {
	h := api.Handler(api.Options{})
	req := httptest.NewRequest(http.MethodPost, "/api/v1/run", strings.NewReader("\x1f\x8b\x08\x00"))
	req.Header.Set("Content-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	assert.Equal(t, http.StatusUnsupportedMediaType, rec.Code)
	assert.Contains(t, rec.Body.String(), `content-encoding \"gzip\"`)
	assert.Contains(t, rec.Body.String(), "uncompressed")
}

func TestJSONBodiesWithDuplicateOrCaseFoldedKeysAreRefused(t *testing.T) {
	h := api.Handler(api.Options{})
	for body, want := range map[string]string{
		`{"scenario": "a", "scenario": "b"}`:                                         `key \"scenario\" is given twice`,
		`{"scenario": "a", "Scenario": "b"}`:                                         `keys \"scenario\" and \"Scenario\" differ only in case`,
		`{"scenario": "a", "override": {"synchronize": true, "SYNCHRONIZE": false}}`: `differ only in case`,
	} {
		res := do(t, h, http.MethodPost, "/api/v1/run", "application/json", []byte(body))
		assert.Equal(t, http.StatusBadRequest, res.StatusCode, body)
		assert.Contains(t, string(readAll(t, res)), want, body)
	}
	// Distinct keys in different objects are fine.
	res := do(t, h, http.MethodPost, "/api/v1/run", "application/json", []byte(`{"scenario": "x: 1", "override": {"synchronize": true}, "file": "a.yaml"}`))
	assert.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
}

// TestRunawayInputIsAnsweredWithinTheTimelineLimit sends the engine's
// runaway table through the handler: each answer is a 200 whose body the
// timeline limit bounds (the 150-byte sleep used to answer 719 MB)
// and says what stopped the run. The run-wide budgets are a tenth of the
// defaults, as in the engine's test, to keep the test fast.
func TestRunawayInputIsAnsweredWithinTheTimelineLimit(t *testing.T) {
	h := api.Handler(api.Options{Run: func(file string, data []byte, opts engine.Options) *timeline.Result {
		opts.Limits = engine.Limits{Work: engine.DefaultLimits.Work / 10, Requests: engine.DefaultLimits.Requests / 10}
		return engine.Run(file, data, opts)
	}})
	for _, in := range hostile.Runaway() {
		t.Run(in.Name, func(t *testing.T) {
			code, body := post(t, h, "text/yaml", in.Data)
			assert.Equal(t, http.StatusOK, code)
			assert.LessOrEqual(t, len(body), engine.DefaultLimits.TimelineBytes+1<<20)
			assert.Contains(t, string(body), in.Want) // Want is a part of the timeline's JSON
		})
	}
}
