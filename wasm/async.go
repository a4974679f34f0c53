//go:build js && wasm

package main

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/hack-pad/safejs"

	"github.com/genplay/genplay/wasm/bridge"
)

// The main-thread runner (wasm/doc.go): where no Worker can start (an
// embed on another origin), runAsync(text, options) runs in a goroutine
// and answers a Promise; every yieldEvery, between bits of work, the run
// sleeps a millisecond, which hands the page's event loop a turn (a Go
// program whose goroutines all wait returns to JavaScript), so the page
// stays responsive, and stop() cancels the run, which ends at the
// engine's next look at its context with a result that says so.

// yieldEvery is how long a run keeps the page's thread between turns.
const yieldEvery = 40 * time.Millisecond

// errStopped is the cause of a run the page stopped.
var errStopped = errors.New("the page stopped the run")

var inFlight struct {
	sync.Mutex
	stop *stopper
}

// stopper is the context of a run on the page's thread: done once the
// page stops it. (context.WithCancel would link the standard cancellation
// machinery, several kilobytes of the core build.)
type stopper struct {
	done chan struct{}
	once sync.Once
}

func (s *stopper) Deadline() (time.Time, bool) { return time.Time{}, false }
func (s *stopper) Done() <-chan struct{}       { return s.done }
func (s *stopper) Value(any) any               { return nil }
func (s *stopper) Err() error {
	select {
	case <-s.done:
		return errStopped
	default:
		return nil
	}
}
func (s *stopper) cancel() { s.once.Do(func() { close(s.done) }) }

var _ context.Context = (*stopper)(nil)

func asyncRun() (runAsync, stop safejs.Func, err error) {
	promise, err := safejs.Global().Get("Promise")
	if err != nil {
		return runAsync, stop, fmt.Errorf("get Promise: %w", err)
	}
	runAsync, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		text, options, argErr := arguments(args)
		token, base := optionalString(args, 2), optionalString(args, 3)
		var executor safejs.Func
		executor, err := safejs.FuncOf(func(_ safejs.Value, p []safejs.Value) any {
			resolve := p[0]
			go func() {
				defer executor.Release()
				var out []byte
				func() {
					defer func() {
						if r := recover(); r != nil {
							out = bridge.Internal(r)
						}
					}()
					if argErr != nil {
						out = bridge.Failure(argErr)
						return
					}
					ctx := &stopper{done: make(chan struct{})}
					inFlight.Lock()
					inFlight.stop = ctx
					inFlight.Unlock()
					defer func() {
						inFlight.Lock()
						inFlight.stop = nil
						inFlight.Unlock()
					}()
					last := time.Now()
					out = bridge.RunYielding(ctx, text, options, token, base, func() {
						if time.Since(last) >= yieldEvery {
							time.Sleep(time.Millisecond)
							last = time.Now()
						}
					})
				}()
				_, _ = resolve.Invoke(string(out))
			}()
			return nil
		})
		if err != nil {
			return string(bridge.Failure(err))
		}
		p, err := promise.New(executor.Value())
		if err != nil {
			return string(bridge.Failure(err))
		}
		return p
	})
	if err != nil {
		return runAsync, stop, fmt.Errorf("wrap runAsync: %w", err)
	}
	stop, err = safejs.FuncOf(func(safejs.Value, []safejs.Value) any {
		inFlight.Lock()
		defer inFlight.Unlock()
		if inFlight.stop == nil {
			return false
		}
		inFlight.stop.cancel()
		return true
	})
	if err != nil {
		return runAsync, stop, fmt.Errorf("wrap stop: %w", err)
	}
	return runAsync, stop, nil
}
