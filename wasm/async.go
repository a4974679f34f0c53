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
// and answers a Promise; between bits of work the run sleeps a
// millisecond every yieldEvery, which hands the page's event loop a turn
// (a sleeping Go program returns to JavaScript), so the page stays
// responsive, and stop() cancels the run, which ends at the engine's next
// look at its context with a result that says so.

// yieldEvery is how long a run keeps the page's thread between turns.
const yieldEvery = 40 * time.Millisecond

// errStopped is the cause of a run the page stopped.
var errStopped = errors.New("the page stopped the run")

var inFlight struct {
	sync.Mutex
	cancel context.CancelCauseFunc
}

func asyncRun() (runAsync, stop safejs.Func, err error) {
	promise, err := safejs.Global().Get("Promise")
	if err != nil {
		return runAsync, stop, fmt.Errorf("get Promise: %w", err)
	}
	runAsync, err = safejs.FuncOf(func(_ safejs.Value, args []safejs.Value) any {
		text, options, argErr := arguments(args)
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
					ctx, cancel := context.WithCancelCause(context.Background())
					inFlight.Lock()
					inFlight.cancel = cancel
					inFlight.Unlock()
					defer func() {
						inFlight.Lock()
						inFlight.cancel = nil
						inFlight.Unlock()
						cancel(nil)
					}()
					last := time.Now()
					out = bridge.RunYielding(ctx, text, options, func() {
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
		if inFlight.cancel == nil {
			return false
		}
		inFlight.cancel(errStopped)
		return true
	})
	if err != nil {
		return runAsync, stop, fmt.Errorf("wrap stop: %w", err)
	}
	return runAsync, stop, nil
}
