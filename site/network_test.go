//go:build !js

package site

import (
	"context"
	"net/http"
	"path"
	"sync"
	"time"
)

// shaper is a slow network in front of the test server: a response whose
// URL path matches its pattern waits one round trip before its first byte,
// then goes out at its rate. It stands for DevTools' network throttling,
// whose method and parameters change between Chromium releases (the
// Chromium Debian serves decides which one a CI machine gets), so the
// tests measure the same network on every Chromium.
type shaper struct {
	mu      sync.Mutex
	pattern string  // a path.Match pattern of URL paths; "" matches every path
	rate    float64 // bytes per second; 0: no shaping
	rtt     time.Duration
	done    chan struct{} // closed when the server goes: slowed responses end
	once    sync.Once
}

// set shapes the requests whose path matches pattern ("" all) to rate
// bytes per second with rtt of round trip; a rate of 0 lifts the shaping.
// A response in flight follows a new rate from its next chunk.
func (s *shaper) set(pattern string, rate float64, rtt time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pattern, s.rate, s.rtt = pattern, rate, rtt
}

// of returns the rate and round trip for a request to urlPath.
func (s *shaper) of(urlPath string) (float64, time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rate == 0 {
		return 0, 0
	}
	if s.pattern != "" {
		if ok, _ := path.Match(s.pattern, urlPath); !ok {
			return 0, 0
		}
	}
	return s.rate, s.rtt
}

func (s *shaper) stop() { s.once.Do(func() { close(s.done) }) }

// wait sleeps for d unless the request or the server ends first.
func (s *shaper) wait(ctx context.Context, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
	case <-s.done:
	}
	return false
}

func (s *shaper) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rate, rtt := s.of(r.URL.Path)
		if rate == 0 {
			h.ServeHTTP(w, r)
			return
		}
		if !s.wait(r.Context(), rtt) { // the request up, the first byte down
			return
		}
		h.ServeHTTP(&shapedWriter{ResponseWriter: w, s: s, r: r}, r)
	})
}

// shapedWriter writes a response in chunks of a twentieth of a second at
// the shaper's rate.
type shapedWriter struct {
	http.ResponseWriter
	s *shaper
	r *http.Request
}

func (w *shapedWriter) Write(b []byte) (int, error) {
	n := 0
	for len(b) > 0 {
		rate, _ := w.s.of(w.r.URL.Path)
		if rate == 0 {
			m, err := w.ResponseWriter.Write(b)
			return n + m, err
		}
		chunk := min(len(b), max(512, min(64<<10, int(rate/20))))
		m, err := w.ResponseWriter.Write(b[:chunk])
		n += m
		if err != nil {
			return n, err
		}
		if f, ok := w.ResponseWriter.(http.Flusher); ok {
			f.Flush()
		}
		if !w.s.wait(w.r.Context(), time.Duration(float64(chunk)/rate*float64(time.Second))) {
			return n, http.ErrAbortHandler
		}
		b = b[chunk:]
	}
	return n, nil
}
