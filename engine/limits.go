package engine

import (
	"cmp"
	"context"
	"fmt"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// ErrLimit marks a run that a limit (Limits) stopped.
var ErrLimit = generate.ErrLimit

// maxDiagnostics caps the input diagnostics of one file (a file of 100,000
// empty documents would otherwise answer 100,000 errors).
const maxDiagnostics = 50

// orDefault fills zero fields from DefaultLimits.
func (l Limits) orDefault() Limits {
	d := DefaultLimits
	pick := func(v, def int) int {
		if v > 0 {
			return v
		}
		return def
	}
	return Limits{
		Steps:           pick(l.Steps, d.Steps),
		Operations:      pick(l.Operations, d.Operations),
		Objects:         pick(l.Objects, d.Objects),
		TimelineBytes:   pick(l.TimelineBytes, d.TimelineBytes),
		ChainDepth:      pick(l.ChainDepth, d.ChainDepth),
		Requests:        pick(l.Requests, d.Requests),
		ForEachElements: pick(l.ForEachElements, d.ForEachElements),
		Work:            cmp.Or(max(l.Work, 0), d.Work),
	}
}

// generate returns the controller's share of the limits.
func (l Limits) generate(b *budget.Budget) generate.Options {
	return generate.Options{
		Budget:             b,
		MaxChainDepth:      l.ChainDepth,
		MaxRequests:        l.Requests,
		MaxObjects:         l.Objects,
		MaxForEachElements: l.ForEachElements,
	}
}

// checkSize rejects a Test that is over the static limits before anything
// runs: too many steps, or too many operations in them.
func checkSize(t *scenario.Test, l Limits) (source.Pos, error) {
	if n := len(t.Steps); n > l.Steps {
		return t.Pos, fmt.Errorf("%w: the test has %d steps; genplay runs at most %d", ErrLimit, n, l.Steps)
	}
	ops := countOperations(t.Catch)
	for _, st := range t.Steps {
		ops += countOperations(st.Try) + countOperations(st.Catch) + countOperations(st.Finally) + countOperations(st.Cleanup)
		if ops > l.Operations {
			return st.Pos, fmt.Errorf("%w: the test has more than %d operations (counting each resource of an operation); genplay runs at most %d",
				ErrLimit, l.Operations, l.Operations)
		}
	}
	return source.Pos{}, nil
}

func countOperations(ops []scenario.Operation) int {
	n := 0
	for _, op := range ops {
		n += max(1, len(op.Resources))
	}
	return n
}

// overLimit reports the first run-time limit the session has reached, or
// nil. It is checked between operations: a single operation can overshoot
// a limit by at most what one reconcile may do (RequestsPerReconcile).
func (s *Session) overLimit() error {
	l := s.opts.Limits
	if err := s.ctrl.Exhausted(); err != nil {
		return err
	}
	if err := s.budget.Err(); err != nil {
		return fmt.Errorf("%w: %w", ErrLimit, err)
	}
	if n := s.store.Len(); n > l.Objects {
		return fmt.Errorf("%w: the cluster holds %d objects; genplay allows at most %d", ErrLimit, n, l.Objects)
	}
	if n := len(s.steps); n >= l.Operations {
		return fmt.Errorf("%w: the run recorded %d timeline steps; genplay records at most %d", ErrLimit, n, l.Operations)
	}
	if n := s.size.update(s.steps); n > l.TimelineBytes {
		return fmt.Errorf("%w: the timeline would be about %d bytes; genplay records at most %d (each step records the whole cluster: use fewer steps or smaller objects)",
			ErrLimit, n, l.TimelineBytes)
	}
	return nil
}

// timelineSize estimates the timeline's JSON size incrementally.
type timelineSize struct {
	steps int // steps counted so far
	bytes int
}

// update counts the steps not counted yet and returns the estimate.
func (t *timelineSize) update(steps []timeline.Step) int {
	for ; t.steps < len(steps); t.steps++ {
		st := &steps[t.steps]
		t.bytes += 200 + len(st.Summary) + len(st.StepName) + len(st.Error)
		for _, o := range st.Cluster {
			t.bytes += jsonSize(map[string]any(o))
		}
		for _, ch := range st.Changes {
			t.bytes += 100 + len(ch.Diff)
		}
		for _, e := range st.Events {
			t.bytes += 200 + len(e.Reason)
		}
	}
	return t.bytes
}

// jsonSize estimates the JSON size of a JSON-shaped value; its cost is the
// number of nodes, not of bytes.
func jsonSize(v any) int {
	switch x := v.(type) {
	case map[string]any:
		n := 2
		for k, e := range x {
			n += len(k) + 4 + jsonSize(e)
		}
		return n
	case []any:
		n := 2
		for _, e := range x {
			n += 2 + jsonSize(e)
		}
		return n
	case string:
		return len(x) + 2
	default:
		return 8
	}
}

// limited reports whether a limit has stopped the run; the first time, it
// records why as an error diagnostic at pos and fails the run.
func (r *runner) limited(pos source.Pos) bool {
	if beforeOperation != nil {
		beforeOperation()
	}
	if r.limitErr != nil {
		return true
	}
	err := r.s.overLimit()
	if err == nil {
		return false
	}
	r.limitErr = err
	r.res.Passed = false
	if pos.Line == 0 {
		pos = r.t.Pos
	}
	r.diag(pos, "run stopped: "+err.Error())
	return true
}

// newBudget returns the run's work budget: Limits.Work units, cancelled
// by Options.Context.
func newBudget(opts Options) *budget.Budget {
	ctx := opts.Context
	if ctx == nil {
		return budget.New(opts.Limits.Work, nil, nil)
	}
	return budget.New(opts.Limits.Work, ctx.Done(), func() error { return context.Cause(ctx) })
}
