package budget

import (
	"errors"
	"fmt"
	"math"
)

// Unit costs shared by the parts of the engine, so that one unit means
// about the same work everywhere (roughly one step over one byte or one
// value of input).
const (
	// Evaluation is the base cost of one expression evaluation.
	Evaluation = 16
	// Request is the base cost of processing one UpdateRequest.
	Request = 4096
	// Object is the cost of looking at one object in a scan or a list.
	Object = 8
	// Event is the base cost of recording one timeline event.
	Event = 32
)

// Budget is a run's work budget. It is not safe for concurrent use: a run
// is single-threaded.
type Budget struct {
	limit, used int64
	place       string
	err         error
	done        <-chan struct{}
	cause       func() error
	yield       func()
	every       int64 // units between two polls
	nextPoll    int64
}

// SetYield has f called every time the budget polls its cancellation,
// which it then does every yieldEvery units: the browser's main-thread
// runner gives the page's event loop a turn there (f decides how often it
// really does). f must not change what the run sees.
func (b *Budget) SetYield(f func()) {
	if b != nil && f != nil {
		b.yield, b.every = f, yieldEvery
		b.nextPoll = min(b.nextPoll, b.used+yieldEvery)
	}
}

// pollEvery is how many units may pass between two looks at done;
// yieldEvery the same with a yield (SetYield): a unit is a few nanoseconds
// of native work and about ten times that as wasm on a busy machine, and
// the page's thread should get a turn every few tens of milliseconds.
const (
	pollEvery  = 1 << 16
	yieldEvery = 1 << 12
)

// New returns a budget of limit units (limit <= 0: unlimited). done, when
// not nil, cancels the run once closed; cause then says why (it may be
// nil).
func New(limit int64, done <-chan struct{}, cause func() error) *Budget {
	if limit <= 0 {
		limit = math.MaxInt64
	}
	return &Budget{limit: limit, done: done, cause: cause, every: pollEvery, nextPoll: pollEvery}
}

// Exhausted is the error of a spent budget.
type Exhausted struct {
	Limit int64  // the budget, in units
	What  string // the work that asked for more: "regex_match", "foreach", ...
	Place string // where the engine was working, or ""
}

func (e *Exhausted) Error() string {
	msg := fmt.Sprintf("the work budget of %d units ran out in %s", e.Limit, e.What)
	if e.Place != "" {
		msg += " while " + e.Place
	}
	return msg
}

// Stopped is the error of a budget a limit other than its units ended (a
// CEL call refused before it ran, because it would exceed its evaluation's
// cost budget or build a value larger than Kubernetes accepts).
type Stopped struct {
	Why   string // what was refused, and why
	Place string // where the engine was working, or ""
}

func (e *Stopped) Error() string {
	if e.Place == "" {
		return e.Why
	}
	return e.Why + " while " + e.Place
}

// Stop ends the budget: from now on every charge fails with a *Stopped
// error that says why, and the run stops as when the budget runs out.
func (b *Budget) Stop(why string) {
	if b == nil || b.err != nil {
		return
	}
	b.used = b.limit
	b.err = &Stopped{Why: why, Place: b.place}
}

// ErrCancelled marks the error of a run stopped from outside (a deadline,
// a client that went away). Unlike Exhausted it depends on the machine.
var ErrCancelled = errors.New("the run was stopped")

// Charge spends units on what; it fails once the budget is spent (and
// from then on, whatever is charged). Negative units count as zero.
func (b *Budget) Charge(units int64, what string) error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	if units > 0 {
		if units > b.limit-b.used {
			b.used = b.limit
			b.err = &Exhausted{Limit: b.limit, What: what, Place: b.place}
			return b.err
		}
		b.used += units
	}
	if (b.done != nil || b.yield != nil) && b.used >= b.nextPoll {
		b.nextPoll = b.used + b.every
		if b.yield != nil {
			b.yield()
		}
		select {
		case <-b.done:
			where := what
			if b.place != "" {
				where += " while " + b.place
			}
			var cause error
			if b.cause != nil {
				cause = b.cause()
			}
			b.err = fmt.Errorf("%w in %s: %v (a wall-clock safety net: where it stops depends on the machine)", ErrCancelled, where, cause)
			return b.err
		default:
		}
	}
	return nil
}

// Err returns the error that ended the budget, or nil.
func (b *Budget) Err() error {
	if b == nil {
		return nil
	}
	return b.err
}

// Used reports the units spent so far.
func (b *Budget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used
}

// Remaining reports the units left (math.MaxInt64 for a nil budget).
func (b *Budget) Remaining() int64 {
	if b == nil {
		return math.MaxInt64
	}
	return b.limit - b.used
}

// SetPlace names where the engine is working, for the error; it returns
// the previous place so that a caller can restore it.
func (b *Budget) SetPlace(place string) (previous string) {
	if b == nil {
		return ""
	}
	previous, b.place = b.place, place
	return previous
}

// Size is the work measure of a JSON-shaped value: string bytes plus one
// per value, computed without allocating. It stops counting past limit.
func Size(v any, limit int64) int64 {
	var n int64
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case string:
			n += int64(len(x)) + 1
		case map[string]any:
			n++
			for k, e := range x {
				n += int64(len(k))
				walk(e)
			}
		case []any:
			n++
			for _, e := range x {
				walk(e)
			}
		default:
			n++
		}
	}
	walk(v)
	return n
}
