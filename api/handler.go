package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/timeline"
)

// Defaults for the zero Options.
const (
	// DefaultMaxBodyBytes leaves room for a scenario of engine.MaxInputBytes
	// escaped inside a JSON string.
	DefaultMaxBodyBytes = 2*engine.MaxInputBytes + 64<<10
	// DefaultTimeout bounds how long a request waits for a slot and its run.
	DefaultTimeout = 20 * time.Second
	// DefaultMaxQueue bounds the run requests waiting for a slot.
	DefaultMaxQueue = 32
	// DefaultBodyTimeout bounds how long a request's body may take to
	// arrive.
	DefaultBodyTimeout = 10 * time.Second
	// DefaultMaxBodyMemory bounds the bytes of the bodies being read or
	// waiting for a slot, all requests together.
	DefaultMaxBodyMemory = 64 << 20
	// DefaultFile names a scenario in diagnostics when the request does not.
	DefaultFile = "scenario.yaml"
	// maxFileName bounds the file name a request may give.
	maxFileName = 256
)

// Options configure the Handler; the zero value serves the embedded gallery
// with engine.Run and the defaults above.
type Options struct {
	// MaxBodyBytes caps a request body (413 above it). The scenario text is
	// capped by engine.MaxInputBytes in every form of the request.
	MaxBodyBytes int64
	// Timeout bounds how long a run request waits for a free slot plus its
	// run (503 after it); zero means DefaultTimeout, negative means none.
	// It is a wall-clock safety net on top of the engine's deterministic
	// work budget (engine.Limits.Work): the run is cancelled through
	// engine.Options.Context when the timeout passes or the client goes
	// away, and stops at the engine's next budget check, freeing its slot.
	// cmd/worker sets none: a timer still pending when the per-request Go
	// program exits throws "Go program has already exited"
	// (syumai/workers-go#177); the budget bounds its runs.
	Timeout time.Duration
	// MaxConcurrent bounds the runs executing at once; default GOMAXPROCS.
	// A run request takes a slot only once its body has arrived: a client
	// that sends its body slowly holds no slot.
	MaxConcurrent int
	// MaxQueue bounds the run requests waiting for a slot, their bodies
	// read; one more is answered 429 with Retry-After at once. Zero means
	// DefaultMaxQueue; negative means none may wait.
	MaxQueue int
	// BodyTimeout bounds how long a request's body may take to arrive
	// (408 after it); zero means DefaultBodyTimeout. Where the platform
	// cannot set a read deadline (the Workers runtime) it does its own.
	BodyTimeout time.Duration
	// MaxBodyMemory bounds the bytes of the bodies being read or waiting
	// for a slot, all requests together: a body reserves its
	// Content-Length (MaxBodyBytes when it has none) before it is read, and
	// a request that would pass the bound is answered 503 with Retry-After
	// at once. Zero means DefaultMaxBodyMemory.
	MaxBodyMemory int64
	// Logger receives recovered panics with their stacks; default slog.Default().
	Logger *slog.Logger
	// Run runs a scenario; default engine.Run. Tests replace it, for
	// example to inject a panic.
	Run func(file string, data []byte, opts engine.Options) *timeline.Result
	// Examples lists the gallery; default Examples.
	Examples func() ([]Example, error)
	// Families are the policy families every run simulates besides
	// ClusterPolicy and Policy (engine.Options.Families). cmd/genplay serve
	// passes the CEL GeneratingPolicy family; cmd/worker passes none (unless
	// built with WORKER_TAGS=cel: cmd/worker/README.md), and
	// answers a GeneratingPolicy with a skip that says so.
	Families []engine.Family
	// Scripts is the interpreter of script and command operations every
	// run uses (engine.Options.Scripts): cmd/genplay serve and cmd/worker
	// pass package shell's.
	Scripts engine.Scripts
}

// Handler returns the API. It keeps no state between requests beyond the
// gallery, which it renders once on first use.
func Handler(opts Options) http.Handler {
	s := &server{
		maxBody:     opts.MaxBodyBytes,
		timeout:     opts.Timeout,
		bodyTimeout: opts.BodyTimeout,
		bodyMemory:  opts.MaxBodyMemory,
		logger:      opts.Logger,
		run:         opts.Run,
		families:    opts.Families,
		scripts:     opts.Scripts,
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	if s.bodyTimeout <= 0 {
		s.bodyTimeout = DefaultBodyTimeout
	}
	if s.bodyMemory <= 0 {
		s.bodyMemory = DefaultMaxBodyMemory
	}
	if s.timeout == 0 {
		s.timeout = DefaultTimeout
	}
	n := opts.MaxConcurrent
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	s.slots = make(chan struct{}, n)
	s.maxQueue = int64(opts.MaxQueue)
	if opts.MaxQueue == 0 {
		s.maxQueue = DefaultMaxQueue
	}
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.run == nil {
		s.run = engine.Run
	}
	list := opts.Examples
	if list == nil {
		list = Examples
	}
	s.gallery = sync.OnceValues(func() ([]byte, error) {
		examples, err := list()
		if err != nil {
			return nil, err
		}
		return encode(examples)
	})
	s.routes = map[string]route{
		"/api/v1/run":      {method: http.MethodPost, serve: s.serveRun},
		"/api/v1/examples": {method: http.MethodGet, serve: s.serveExamples},
		"/healthz":         {method: http.MethodGet, serve: s.serveHealth},
	}
	return s.recoverer(http.HandlerFunc(s.route))
}

type server struct {
	maxBody     int64
	timeout     time.Duration
	bodyTimeout time.Duration
	// bodyMemory bounds inBodies, the bytes reserved by the bodies being
	// read or waiting for a slot.
	bodyMemory int64
	inBodies   atomic.Int64
	slots      chan struct{}
	// waiting counts the run requests waiting for a slot, up to maxQueue.
	waiting  atomic.Int64
	maxQueue int64
	logger   *slog.Logger
	run      func(string, []byte, engine.Options) *timeline.Result
	families []engine.Family
	scripts  engine.Scripts
	gallery  func() ([]byte, error)
	routes   map[string]route
}

type route struct {
	method string // GET routes also answer HEAD
	serve  http.HandlerFunc
}

func (rt route) allow() string {
	if rt.method == http.MethodGet {
		return "GET, HEAD, OPTIONS"
	}
	return rt.method + ", OPTIONS"
}

// route dispatches by path and method and answers CORS preflights.
func (s *server) route(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Access-Control-Allow-Origin", "*")
	h.Set("X-Content-Type-Options", "nosniff")
	rt, ok := s.routes[r.URL.Path]
	if !ok {
		writeError(w, http.StatusNotFound, fmt.Sprintf("no such endpoint %s: try POST /api/v1/run, GET /api/v1/examples or GET /healthz", r.URL.Path))
		return
	}
	switch {
	case r.Method == http.MethodOptions:
		h.Set("Allow", rt.allow())
		if r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", rt.allow())
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "86400")
		}
		w.WriteHeader(http.StatusNoContent)
	case r.Method == rt.method, rt.method == http.MethodGet && r.Method == http.MethodHead:
		rt.serve(w, r)
	default:
		h.Set("Allow", rt.allow())
		writeError(w, http.StatusMethodNotAllowed, fmt.Sprintf("%s %s: method not allowed (allowed: %s)", r.Method, r.URL.Path, rt.allow()))
	}
}

func (s *server) serveHealth(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok", "format": timeline.FormatVersion})
}

func (s *server) serveExamples(w http.ResponseWriter, _ *http.Request) {
	body, err := s.gallery()
	if err != nil {
		s.logger.Error("api: load the gallery", "error", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeBytes(w, http.StatusOK, body)
}

// runRequest is the JSON form of a run request.
type runRequest struct {
	Scenario *string          `json:"scenario"`
	File     *string          `json:"file"`
	Override *engine.Override `json:"override"`
	Format   *string          `json:"format"`
	// KyvernoVersion is the Kyverno release to simulate ("" the latest);
	// the answer's timeline names it (its "kyverno").
	KyvernoVersion *string `json:"kyvernoVersion"`
	// CompareVersions runs the scenario under every simulated release and
	// answers their comparison (genplay.versions/v1).
	CompareVersions *bool `json:"compareVersions"`
}

// runInput is a run request, read.
type runInput struct {
	file   string
	data   []byte
	opts   engine.Options
	format string // the timeline's format (timeline.MarshalAs)
	// compare asks for the scenario under every release, compared
	// (engine.CompareRuns).
	compare bool
}

// requestError is a request the API refuses, with its status.
type requestError struct {
	status int
	msg    string
}

func (e *requestError) Error() string { return e.msg }

func refuse(status int, format string, args ...any) error {
	return &requestError{status: status, msg: fmt.Sprintf(format, args...)}
}

func (s *server) serveRun(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	// The body first, within its deadline and the memory all bodies may
	// take: a client that trickles its body holds memory it reserved, never
	// a run slot.
	reserved, err := s.reserve(r)
	if err != nil {
		s.writeRefusal(w, err)
		return
	}
	defer s.inBodies.Add(-reserved)
	rc := http.NewResponseController(w)
	_ = rc.SetReadDeadline(time.Now().Add(s.bodyTimeout)) // unsupported: the platform bounds it
	in, err := s.readRun(w, r)
	_ = rc.SetReadDeadline(time.Time{})
	if err != nil {
		s.writeRefusal(w, err)
		return
	}
	ctx := r.Context()
	if s.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.timeout)
		defer cancel()
	}
	release, err := s.acquire(ctx)
	if err != nil {
		s.writeRefusal(w, err)
		return
	}
	in.opts.Context = ctx
	work := func() answer { return answer{res: s.runOne(in.file, in.data, in.opts)} }
	if in.compare {
		work = func() answer { return s.compareVersions(in.file, in.data, in.opts) }
	}
	ans, err := s.execute(ctx, release, in.file, work)
	res := ans.res
	switch {
	case errors.Is(err, errPanic):
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	case err != nil:
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, err.Error())
		return
	}
	if ans.compared != nil {
		body, err := encode(ans.compared)
		if err != nil {
			s.logger.Error("api: marshal the comparison", "error", err)
			writeError(w, http.StatusInternalServerError, "internal error")
			return
		}
		writeBytes(w, http.StatusOK, body)
		return
	}
	if engine.IsInternalError(res) {
		// The engine recovered a panic; its diagnostic holds a stack, which
		// is logged, never shown.
		s.logger.Error("api: internal error in the engine", "file", in.file, "kyverno", ans.kyverno, "diagnostics", res.Diagnostics)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	if d, ok := inputError(res); ok {
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: d, Diagnostics: res.Diagnostics})
		return
	}
	if d, ok := limitError(res); ok {
		// A limit stopped the run: what genplay answers from there on is
		// not what Kyverno would do, so the answer is an error that says
		// what was exceeded, with the diagnostics.
		if ans.kyverno != "" {
			d += fmt.Sprintf(" (in the run under Kyverno %s: compareVersions stops at the first release a limit stops)", ans.kyverno)
		}
		writeJSON(w, http.StatusUnprocessableEntity, errorBody{Error: d, Diagnostics: res.Diagnostics})
		return
	}
	body, err := timeline.MarshalAs(res, in.format)
	if err != nil {
		s.logger.Error("api: marshal the timeline", "error", err)
		writeError(w, http.StatusInternalServerError, "internal error")
		return
	}
	writeBytes(w, http.StatusOK, body)
}

// writeRefusal answers a request refused before its run: a requestError
// with its status (and Retry-After for 429 and 503), anything else 400.
func (s *server) writeRefusal(w http.ResponseWriter, err error) {
	var re *requestError
	if !errors.As(err, &re) {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if re.status == http.StatusTooManyRequests || re.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "5")
	}
	if re.status == http.StatusRequestTimeout {
		w.Header().Set("Connection", "close")
	}
	writeError(w, re.status, re.msg)
}

// reserve counts the request's body against the memory all bodies may
// take: its Content-Length, or the most a body may be when it has none.
func (s *server) reserve(r *http.Request) (int64, error) {
	n := s.maxBody
	if r.ContentLength >= 0 && r.ContentLength <= s.maxBody {
		n = r.ContentLength
	}
	if s.inBodies.Add(n) > s.bodyMemory {
		s.inBodies.Add(-n)
		return 0, refuse(http.StatusServiceUnavailable, "too many request bodies in flight (%d bytes are being read or wait for a run, the most genplay holds); retry later", s.bodyMemory)
	}
	return n, nil
}

// acquire waits for a run slot, within the bounded queue, and returns the
// function that frees it: 429 when the queue is full, 503 when ctx ends
// first.
func (s *server) acquire(ctx context.Context) (release func(), err error) {
	release = sync.OnceFunc(func() { <-s.slots })
	select {
	case s.slots <- struct{}{}:
		return release, nil
	default:
	}
	if s.waiting.Add(1) > s.maxQueue {
		s.waiting.Add(-1)
		return nil, refuse(http.StatusTooManyRequests, "too many runs are waiting: %d are running and %d waiting; retry later", cap(s.slots), s.maxQueue)
	}
	defer s.waiting.Add(-1)
	select {
	case s.slots <- struct{}{}:
		return release, nil
	case <-ctx.Done():
		return nil, refuse(http.StatusServiceUnavailable, "too many runs in progress: retry later")
	}
}

// readRun reads a run request in either form.
func (s *server) readRun(w http.ResponseWriter, r *http.Request) (runInput, error) {
	in, err := queryOptions(r.URL.Query())
	if err != nil {
		return in, err
	}
	if enc := r.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		return in, refuse(http.StatusUnsupportedMediaType,
			"content-encoding %q: genplay reads the body as it comes; send it uncompressed", enc)
	}
	ct := r.Header.Get("Content-Type")
	media := ""
	if ct != "" {
		if media, _, err = mime.ParseMediaType(ct); err != nil {
			return in, fmt.Errorf("content-type %q: %w", ct, err)
		}
	}
	var data []byte
	switch media {
	case "application/json":
		body, err := readBody(w, r, s.maxBody)
		if err != nil {
			return in, err
		}
		if err := checkKeys(body); err != nil {
			return in, fmt.Errorf("parse the JSON body: %w", err)
		}
		var req runRequest
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&req); err != nil {
			return in, fmt.Errorf("parse the JSON body: %w", err)
		}
		if dec.Decode(&struct{}{}) != io.EOF {
			return in, errors.New("parse the JSON body: data after the object")
		}
		if req.Scenario == nil || *req.Scenario == "" {
			return in, errors.New(`the JSON body needs "scenario": a chainsaw Test as YAML text`)
		}
		data = []byte(*req.Scenario)
		if req.File != nil {
			if in.file, err = checkFile(*req.File); err != nil {
				return in, err
			}
		}
		if req.KyvernoVersion != nil {
			if in.opts.KyvernoVersion, err = checkKyvernoVersion("kyvernoVersion", *req.KyvernoVersion); err != nil {
				return in, err
			}
		}
		if req.Format != nil {
			if err := timeline.CheckFormat(*req.Format); err != nil {
				return in, fmt.Errorf(`"format": %w`, err)
			}
			in.format = *req.Format
		}
		if req.CompareVersions != nil {
			in.compare = *req.CompareVersions
		}
		if req.Override != nil {
			override := in.opts.Override
			if override == nil {
				override = &engine.Override{}
			}
			if req.Override.Synchronize != nil {
				override.Synchronize = req.Override.Synchronize
			}
			if req.Override.OrphanDownstreamOnPolicyDelete != nil {
				override.OrphanDownstreamOnPolicyDelete = req.Override.OrphanDownstreamOnPolicyDelete
			}
			in.opts.Override = override
		}
	case "", "text/plain", "text/yaml", "text/x-yaml", "application/yaml", "application/x-yaml",
		// curl --data-binary @scenario.yaml labels the raw file this way.
		"application/x-www-form-urlencoded":
		if data, err = readBody(w, r, min(s.maxBody, engine.MaxInputBytes)); err != nil {
			return in, err
		}
		if len(data) == 0 {
			return in, errors.New("the body is empty: send a scenario, a chainsaw Test as YAML")
		}
	default:
		return in, refuse(http.StatusUnsupportedMediaType,
			"content-type %q: send the scenario as YAML text (text/yaml) or as JSON (application/json)", media)
	}
	if len(data) > engine.MaxInputBytes {
		return in, refuse(http.StatusRequestEntityTooLarge,
			"the scenario is %d bytes; the limit is %d", len(data), engine.MaxInputBytes)
	}
	if in.compare && in.opts.KyvernoVersion != "" {
		return in, fmt.Errorf("compareVersions runs the scenario under every release genplay simulates (%s); kyvernoVersion %s picks one: give one or the other",
			strings.Join(engine.KyvernoVersions(), ", "), in.opts.KyvernoVersion)
	}
	if in.compare && in.format == "v1" {
		return in, fmt.Errorf("compareVersions answers a comparison (%s) whose steps hold the events of the current timeline: format v1 (%s, the old timeline) does not apply to it; leave format out",
			timeline.VersionsFormat, timeline.FormatV1)
	}
	in.data = data
	return in, nil
}

// checkKeys refuses a JSON text in which an object has the same key twice,
// or two keys that differ only in case: encoding/json would take the last
// one, or match a field case-insensitively, silently.
func checkKeys(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	type frame struct {
		object bool
		keys   map[string]string // folded -> as written
		key    bool              // the next string token is a key
	}
	var stack []frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // the decoder that follows reports it
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{':
				stack = append(stack, frame{object: true, keys: map[string]string{}, key: true})
				continue
			case '[':
				stack = append(stack, frame{})
				continue
			default:
				stack = stack[:top]
			}
		case string:
			if top >= 0 && stack[top].object && stack[top].key {
				folded := strings.ToLower(t)
				if first, dup := stack[top].keys[folded]; dup {
					if first == t {
						return fmt.Errorf("key %q is given twice", t)
					}
					return fmt.Errorf("keys %q and %q differ only in case", first, t)
				}
				stack[top].keys[folded] = t
				stack[top].key = false
				continue
			}
		}
		// A value ended: in an object, a key comes next.
		if top = len(stack) - 1; top >= 0 && stack[top].object {
			stack[top].key = true
		}
	}
}

// queryOptions reads the query parameters of a run request.
func queryOptions(q url.Values) (in runInput, err error) {
	in.file = DefaultFile
	for key, values := range q {
		if len(values) != 1 {
			return in, fmt.Errorf("query parameter %s: given %d times", key, len(values))
		}
		v := values[0]
		switch key {
		case "file":
			if in.file, err = checkFile(v); err != nil {
				return in, err
			}
		case "format":
			if err := timeline.CheckFormat(v); err != nil {
				return in, fmt.Errorf("query parameter format: %w", err)
			}
			in.format = v
		case "kyvernoVersion":
			if in.opts.KyvernoVersion, err = checkKyvernoVersion("query parameter kyvernoVersion", v); err != nil {
				return in, err
			}
		case "compareVersions", "synchronize", "orphanDownstreamOnPolicyDelete":
			b, err := strconv.ParseBool(v)
			if err != nil {
				return in, fmt.Errorf("query parameter %s=%q: want true or false", key, v)
			}
			if key == "compareVersions" {
				in.compare = b
				continue
			}
			if in.opts.Override == nil {
				in.opts.Override = &engine.Override{}
			}
			if key == "synchronize" {
				in.opts.Override.Synchronize = &b
			} else {
				in.opts.Override.OrphanDownstreamOnPolicyDelete = &b
			}
		default:
			return in, fmt.Errorf("unknown query parameter %s (known: file, format, kyvernoVersion, compareVersions, synchronize, orphanDownstreamOnPolicyDelete)", key)
		}
	}
	return in, nil
}

// checkKyvernoVersion reads a release to simulate: its canonical name, or
// an error that lists the simulated releases.
func checkKyvernoVersion(what, v string) (string, error) {
	kyverno, err := engine.ParseKyvernoVersion(v)
	if err != nil {
		return "", fmt.Errorf("%s: %w", what, err)
	}
	return kyverno, nil
}

// checkFile accepts a file name for diagnostics: short, printable UTF-8.
func checkFile(name string) (string, error) {
	if name == "" || len(name) > maxFileName || !utf8.ValidString(name) ||
		strings.IndexFunc(name, func(r rune) bool { return !unicode.IsPrint(r) }) >= 0 {
		return "", fmt.Errorf("file %q: want 1 to %d printable characters", name, maxFileName)
	}
	return name, nil
}

// readBody reads at most limit bytes of the body.
func readBody(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	tooLarge := refuse(http.StatusRequestEntityTooLarge, "the body is larger than %d bytes", limit)
	if r.ContentLength > limit {
		return nil, tooLarge
	}
	if r.Body == nil {
		return nil, nil
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return nil, tooLarge
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, refuse(http.StatusRequestTimeout, "the body did not arrive in time: genplay waits for it at most a few seconds")
	case err != nil:
		return nil, fmt.Errorf("read the body: %w", err)
	}
	return data, nil
}

var (
	errPanic = errors.New("internal error")
)

// answer is what a request's work answers: a run's result, or the
// comparison of the runs under every release.
type answer struct {
	res *timeline.Result
	// kyverno, when compareVersions stopped at res, is the release whose
	// run it was.
	kyverno  string
	compared *timeline.VersionComparison
}

// execute does a request's work in the slot release frees, giving up
// waiting when ctx ends (the run itself then stops at its next budget
// check, see engine.Options.Context). A panic in the engine is recovered,
// logged and returned as errPanic.
func (s *server) execute(ctx context.Context, release func(), file string, work func() answer) (answer, error) {
	type outcome struct {
		answer
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		defer release()
		defer func() {
			if p := recover(); p != nil {
				s.logPanic("run "+file, p)
				done <- outcome{err: errPanic}
			}
		}()
		done <- outcome{answer: work()}
	}()
	select {
	case o := <-done:
		if o.err == nil && ctx.Err() != nil {
			return answer{}, stopped(ctx, s.timeout)
		}
		return o.answer, o.err
	case <-ctx.Done():
		return answer{}, stopped(ctx, s.timeout)
	}
}

// runOne runs a scenario with the server's families and shell.
func (s *server) runOne(file string, data []byte, opts engine.Options) *timeline.Result {
	opts.Families, opts.Scripts = s.families, s.scripts
	res := s.run(file, data, opts)
	if res == nil {
		panic("the engine returned no result")
	}
	return res
}

// compareVersions runs a scenario under every release genplay simulates,
// each as any run is (s.runOne: genplay serve's isolated process), within
// the one slot and deadline of the request, and compares them
// (engine.CompareVersionsWith, the bytes of `genplay run --compare-versions
// -o json`). A run that ends the comparison (input that cannot run, a
// limit, an internal error) is the answer, naming its release when it is
// not the latest.
func (s *server) compareVersions(file string, data []byte, opts engine.Options) answer {
	c, stop, release := engine.CompareVersionsWith(opts, func(o engine.Options) *timeline.Result { return s.runOne(file, data, o) })
	if stop == nil {
		return answer{compared: c}
	}
	a := answer{res: stop}
	if versions := engine.KyvernoVersions(); release != versions[len(versions)-1] {
		a.kyverno = release
	}
	return a
}

// stopped says why a run was given up.
func stopped(ctx context.Context, timeout time.Duration) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && timeout > 0 {
		return fmt.Errorf("the run did not finish within %s", timeout)
	}
	return fmt.Errorf("the run was abandoned: %w", ctx.Err())
}

// inputError reports whether the scenario could not be run at all (the
// CLI's exit status 2), and its first error as "file:line:col: message".
func inputError(res *timeline.Result) (string, bool) {
	if len(res.Steps) > 0 {
		return "", false
	}
	for _, d := range res.Diagnostics {
		if d.Severity != "error" {
			continue
		}
		pos := fmt.Sprintf("%s:%d", d.File, d.Line)
		if d.Column > 0 {
			pos += fmt.Sprintf(":%d", d.Column)
		}
		return pos + ": " + d.Message, true
	}
	return "", false
}

// limitError reports whether a limit stopped the run (the engine's "run
// stopped: limit exceeded" diagnostic), and that diagnostic as
// "file:line:col: message".
func limitError(res *timeline.Result) (string, bool) {
	for _, d := range res.Diagnostics {
		if d.Severity != "error" || !strings.HasPrefix(d.Message, engine.LimitPrefix) {
			continue
		}
		pos := fmt.Sprintf("%s:%d", d.File, d.Line)
		if d.Column > 0 {
			pos += fmt.Sprintf(":%d", d.Column)
		}
		return pos + ": " + d.Message, true
	}
	return "", false
}

// recoverer turns a panic into a logged 500 "internal error".
func (s *server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tw := &trackingWriter{ResponseWriter: w}
		defer func() {
			p := recover()
			if p == nil {
				return
			}
			if p == http.ErrAbortHandler {
				panic(p)
			}
			s.logPanic(r.Method+" "+r.URL.Path, p)
			if !tw.wrote {
				w.Header().Set("Access-Control-Allow-Origin", "*")
				writeError(w, http.StatusInternalServerError, "internal error")
			}
		}()
		next.ServeHTTP(tw, r)
	})
}

func (s *server) logPanic(what string, p any) {
	s.logger.Error("api: recovered panic", "request", what, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
}

// trackingWriter remembers whether the header was written.
type trackingWriter struct {
	http.ResponseWriter
	wrote bool
}

// Unwrap lets http.ResponseController reach the connection (the body's
// read deadline).
func (w *trackingWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *trackingWriter) WriteHeader(code int) {
	w.wrote = true
	w.ResponseWriter.WriteHeader(code)
}

func (w *trackingWriter) Write(b []byte) (int, error) {
	w.wrote = true
	return w.ResponseWriter.Write(b)
}

// errorBody is every error answer.
type errorBody struct {
	Error       string                `json:"error"`
	Diagnostics []timeline.Diagnostic `json:"diagnostics,omitempty"`
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, errorBody{Error: msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	body, err := encode(v)
	if err != nil { // only our own types get here
		body = []byte(`{"error": "internal error"}` + "\n")
		status = http.StatusInternalServerError
	}
	writeBytes(w, status, body)
}

func writeBytes(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// encode renders JSON as timeline.Marshal does: indented, unescaped HTML,
// final newline.
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
