package api_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/api"
	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/hostile"
	"github.com/genplay/genplay/engine/timeline"
)

// slowBody sends its bytes one at a time, pausing before each, until the
// test stops it.
type slowBody struct {
	data  []byte
	pause time.Duration
	stop  chan struct{}
}

func (b *slowBody) Read(p []byte) (int, error) {
	if len(b.data) == 0 {
		return 0, io.EOF
	}
	select {
	case <-time.After(b.pause):
	case <-b.stop:
		return 0, errors.New("stopped")
	}
	p[0] = b.data[0]
	b.data = b.data[1:]
	return 1, nil
}

func TestASlowBodyHoldsNoRunSlotAndEndsWith408(t *testing.T) {
	h := api.Handler(api.Options{MaxConcurrent: 1, MaxQueue: -1, BodyTimeout: 300 * time.Millisecond, Run: func(string, []byte, engine.Options) *timeline.Result {
		return &timeline.Result{Steps: []timeline.Step{{}}}
	}})
	srv := httptest.NewServer(h)
	defer srv.Close()

	// Two clients trickle their bodies at a byte every 100 ms.
	stop := make(chan struct{})
	defer close(stop)
	slow := make(chan *http.Response, 2)
	for range 2 {
		go func() {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/api/v1/run", &slowBody{data: []byte("apiVersion: v1\nkind: x\n"), pause: 100 * time.Millisecond, stop: stop})
			req.ContentLength = -1
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				slow <- nil
				return
			}
			slow <- res
		}()
	}
	time.Sleep(50 * time.Millisecond)
	// Meanwhile an ordinary request gets the one slot at once.
	res, err := http.Post(srv.URL+"/api/v1/run", "text/yaml", strings.NewReader("x: 1"))
	require.NoError(t, err)
	res.Body.Close()
	assert.Equal(t, http.StatusOK, res.StatusCode, "the slot is free: slow bodies do not hold it")
	for range 2 {
		r := <-slow
		require.NotNil(t, r, "the slow client got an answer")
		assert.Equal(t, http.StatusRequestTimeout, r.StatusCode)
		msg, _ := errorOf(t, r)
		assert.Contains(t, msg, "the body did not arrive in time")
		r.Body.Close()
	}
}

func TestTheQueueIsBounded(t *testing.T) {
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
	second := make(chan int)
	go func() { second <- do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1")).StatusCode }()
	time.Sleep(50 * time.Millisecond)

	// The third finds the queue full: 429 at once, with Retry-After.
	res := do(t, h, http.MethodPost, "/api/v1/run", "", []byte("x: 1"))
	require.Equal(t, http.StatusTooManyRequests, res.StatusCode)
	assert.Equal(t, "5", res.Header.Get("Retry-After"))
	msg, _ := errorOf(t, res)
	assert.Contains(t, msg, "too many runs are waiting")

	close(release)
	<-started
	assert.Equal(t, http.StatusOK, <-first)
	assert.Equal(t, http.StatusOK, <-second)
}

func TestTheBodiesInFlightAreBounded(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{}, 1)
	h := api.Handler(api.Options{MaxConcurrent: 1, MaxBodyMemory: 3000, Timeout: 5 * time.Second, Run: func(string, []byte, engine.Options) *timeline.Result {
		started <- struct{}{}
		<-release
		return &timeline.Result{Steps: []timeline.Step{{}}}
	}})
	body := []byte("x: " + strings.Repeat("y", 2000))
	first := make(chan int)
	go func() { first <- do(t, h, http.MethodPost, "/api/v1/run", "", body).StatusCode }()
	<-started
	// 2,003 bytes are held by the running request: 2,003 more would pass
	// the bound.
	res := do(t, h, http.MethodPost, "/api/v1/run", "", body)
	require.Equal(t, http.StatusServiceUnavailable, res.StatusCode)
	assert.Equal(t, "5", res.Header.Get("Retry-After"))
	msg, _ := errorOf(t, res)
	assert.Contains(t, msg, "too many request bodies in flight")
	close(release)
	assert.Equal(t, http.StatusOK, <-first)
	// Freed once answered.
	go func() { <-started }()
	assert.Equal(t, http.StatusOK, do(t, h, http.MethodPost, "/api/v1/run", "", body).StatusCode)
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
// runaway table through the handler: a run a limit stopped answers 422
// with what was exceeded (the 150-byte sleep used to answer 719
// MB); one that ends answers 200 with a body the timeline limit bounds.
// The run-wide budgets are a tenth of the defaults, as in the engine's
// test, to keep the test fast. With compareVersions a run a limit stopped
// answers the same, after that one run (the latest release's), not one
// per release.
func TestRunawayInputIsAnsweredWithinTheTimelineLimit(t *testing.T) {
	runs := &countingRun{limits: engine.Limits{Work: engine.DefaultLimits.Work / 10, Requests: engine.DefaultLimits.Requests / 10}}
	h := api.Handler(api.Options{Run: runs.run})
	compare := func(t *testing.T, data []byte) (int, []byte) {
		t.Helper()
		res := do(t, h, http.MethodPost, "/api/v1/run?compareVersions=true", "text/yaml", data)
		return res.StatusCode, readAll(t, res)
	}
	for _, in := range hostile.Runaway() {
		t.Run(in.Name, func(t *testing.T) {
			code, body := post(t, h, "text/yaml", in.Data)
			assert.LessOrEqual(t, len(body), engine.DefaultLimits.TimelineBytes+1<<20)
			runs.ran()
			if strings.Contains(in.Want, "limit exceeded") || strings.Contains(in.Want, "work budget") {
				assert.Equal(t, http.StatusUnprocessableEntity, code)
				assert.Contains(t, string(body), `"error": "scenario.yaml:`)
				assert.Contains(t, string(body), "run stopped: limit exceeded")

				ccode, cbody := compare(t, in.Data)
				assert.Equal(t, code, ccode, "compareVersions: the same status")
				assert.Equal(t, string(body), string(cbody), "compareVersions: the same answer")
				assert.Equal(t, []string{engine.KyvernoVersion}, runs.ran(), "compareVersions: one run, the latest release's")
				return
			}
			assert.Equal(t, http.StatusOK, code)
			assert.Contains(t, string(body), in.Want) // Want is a part of the timeline's JSON

			ccode, cbody := compare(t, in.Data)
			assert.Equal(t, http.StatusOK, ccode, "compareVersions: %s", truncate(cbody))
			assert.Contains(t, string(cbody), `"format": "genplay.versions/v1"`)
			assert.LessOrEqual(t, len(cbody), len(engine.KyvernoVersions())*(engine.DefaultLimits.TimelineBytes+1<<20))
			assert.Len(t, runs.ran(), len(engine.KyvernoVersions()), "compareVersions: one run per release")
		})
	}
}

// TestCompareVersionsStopsAtTheFirstReleaseALimitStops: a scenario that
// only an older release's run exceeds a limit with answers 422 naming
// that release, and no release older than it runs.
func TestCompareVersionsStopsAtTheFirstReleaseALimitStops(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	h := api.Handler(api.Options{Run: func(file string, data []byte, opts engine.Options) *timeline.Result {
		mu.Lock()
		ran = append(ran, opts.KyvernoVersion)
		mu.Unlock()
		if opts.KyvernoVersion == "v1.19.0" {
			opts.Limits = engine.Limits{Work: 1}
		}
		return engine.Run(file, data, opts)
	}})
	list, err := api.Examples()
	require.NoError(t, err)
	res := do(t, h, http.MethodPost, "/api/v1/run?compareVersions=true", "text/yaml", []byte(list[0].Scenario))
	require.Equal(t, http.StatusUnprocessableEntity, res.StatusCode)
	msg, diags := errorOf(t, res)
	assert.Contains(t, msg, "run stopped: limit exceeded")
	assert.Contains(t, msg, "(in the run under Kyverno v1.19.0: compareVersions stops at the first release a limit stops)")
	assert.NotEmpty(t, diags)
	assert.Equal(t, []string{"v1.19.1", "v1.19.0"}, ran, "v1.18.2 never ran")
}
