package engine

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/resource"
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
// a limit by at most what one reconcile may do (a chain ChainDepth deep).
func (s *Session) overLimit() error {
	l := s.opts.Limits
	if err := s.core.Exhausted(); err != nil {
		return err
	}
	if err := s.budget.Err(); err != nil {
		return generate.LimitError(err)
	}
	if n := s.store.Len(); n > l.Objects {
		return fmt.Errorf("%w: the cluster holds %d objects; genplay allows at most %d", ErrLimit, n, l.Objects)
	}
	if n := len(s.steps); n >= l.Operations {
		return fmt.Errorf("%w: the run recorded %d timeline steps; genplay records at most %d", ErrLimit, n, l.Operations)
	}
	n := s.size.update(s.steps)
	if s.overflow {
		n = max(n, s.wouldBe)
	}
	if n > l.TimelineBytes || s.overflow {
		return fmt.Errorf("%w: the timeline would be %d bytes; genplay records at most %d (every version of every object and every step's events count: use fewer steps or smaller objects)",
			ErrLimit, n, l.TimelineBytes)
	}
	return nil
}

// timelineSize measures the timeline as timeline.Marshal writes it: the
// bytes of every recorded step, indented as in the answer. Every version of
// an object is in the answer once (a change's After, or Initial), so the
// size, and the memory the timeline keeps, grow with what changed.
type timelineSize struct {
	steps int // steps measured so far
	bytes int
	last  int // the size of the last step measured
}

// Indentation in timeline.Marshal's output: {"steps": [ {"changes": [ {...
// and {"initial": [ {...
const (
	stepIndent   = "    "
	changeIndent = "        "
)

// update measures the steps not measured yet and returns the total.
func (t *timelineSize) update(steps []timeline.Step) int {
	for ; t.steps < len(steps); t.steps++ {
		t.last = t.step(&steps[t.steps])
		t.bytes += t.last
	}
	return t.bytes
}

// step is the size of one step in the answer, with its separator:
// measured, not encoded.
func (t *timelineSize) step(st *timeline.Step) int {
	return len(stepIndent) + stepLen(st, len(stepIndent)) + len(",\n")
}

// initialLen is the size of Result.Initial's objects in the answer, each
// with its separator: what the list adds to "initial": [].
func initialLen(objs []resource.Object) int {
	if len(objs) == 0 {
		return 0
	}
	n := len("[\n") - len("[]") - 1 + len("  ]")
	for _, o := range objs {
		n += len(stepIndent) + jsonLen(o, len(stepIndent)) + len(",\n")
	}
	return n
}

// stoppedPrefix begins the diagnostic of a run a limit or a cancellation
// stopped; LimitPrefix the one of a limit (ErrLimit).
const (
	stoppedPrefix = "run stopped: "
	LimitPrefix   = stoppedPrefix + "limit exceeded"
)

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
	r.diag(pos, stoppedPrefix+err.Error())
	return true
}

// newBudget returns the run's work budget: Limits.Work units, cancelled
// by Options.Context.
func newBudget(opts Options) *budget.Budget {
	var b *budget.Budget
	if ctx := opts.Context; ctx == nil {
		b = budget.New(opts.Limits.Work, nil, nil)
	} else {
		b = budget.New(opts.Limits.Work, ctx.Done(), func() error { return context.Cause(ctx) })
	}
	b.SetYield(opts.Yield)
	return b
}

// jsonLen is the length of v as encoding/json writes it indented by two
// spaces (no HTML escaping), where the line v starts on is indented by
// indent spaces: exactly what timeline.Marshal writes, computed without
// encoding. v is JSON-shaped (the store's objects are); any other value is
// measured by encoding it.
func jsonLen(v any, indent int) int {
	switch x := v.(type) {
	case nil:
		return len("null")
	case bool:
		if x {
			return len("true")
		}
		return len("false")
	case string:
		return jsonStringLen(x)
	case float64:
		return resource.JSONFloatLen(x) // 0 for what Marshal refuses, and says so
	case map[string]any:
		return jsonMapLen(x, indent)
	case resource.Object:
		return jsonMapLen(x, indent)
	case []any:
		if len(x) == 0 {
			return len("[]")
		}
		n := len("[") + len("\n") + indent + len("]") + len(x) - 1 // commas
		for _, e := range x {
			n += len("\n") + indent + 2 + jsonLen(e, indent+2)
		}
		return n
	default:
		// Not JSON-shaped (the store normalizes what it keeps, so this is
		// a safety net): its compact length, a lower bound.
		b, _ := json.Marshal(v)
		return len(b)
	}
}

func jsonMapLen(m map[string]any, indent int) int {
	if len(m) == 0 {
		return len("{}")
	}
	n := len("{") + len("\n") + indent + len("}") + len(m) - 1 // commas
	for k, e := range m {
		n += len("\n") + indent + 2 + jsonStringLen(k) + len(": ") + jsonLen(e, indent+2)
	}
	return n
}

// jsonStringLen is the length of s quoted as encoding/json quotes it
// without HTML escaping.
func jsonStringLen(s string) int {
	n := len(`""`)
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20:
				n += len(`\u0000`)
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += len(`\ufffd`)
		case r == '\u2028' || r == '\u2029':
			n += len(`\u2028`)
		default:
			n += size
		}
		i += size
	}
	return n
}

// stepLen is jsonLen for a step whose line is indented by indent spaces:
// its fields in timeline.Step's order, those with omitempty left out when
// empty.
func stepLen(st *timeline.Step, indent int) int {
	in := indent + 2
	var check, warnings []int
	if st.Check != nil {
		var failures []int
		if len(st.Check.Failures) > 0 {
			failures = []int{len("failures"), stringsLen(st.Check.Failures, in+2)}
		}
		check = []int{len("check"), fieldsLen(in, []int{len("passed"), boolLen(st.Check.Passed)},
			optional(len("skipped"), st.Check.Skipped), failures)}
	}
	if len(st.Warnings) > 0 {
		warnings = []int{len("warnings"), stringsLen(st.Warnings, in)}
	}
	return fieldsLen(indent,
		[]int{len("index"), intLen(st.Index)},
		[]int{len("stepName"), jsonStringLen(st.StepName)},
		[]int{len("operation"), jsonStringLen(st.Operation)},
		[]int{len("summary"), jsonStringLen(st.Summary)},
		[]int{len("time"), jsonStringLen(st.Time)},
		[]int{len("events"), eventsLen(st.Events, in)},
		check,
		optional(len("error"), st.Error),
		warnings,
		[]int{len("changes"), changesLen(st.Changes, in)})
}

// eventsLen is jsonLen for a step's events, the array's line indented by
// indent spaces.
func eventsLen(events []timeline.Event, indent int) int {
	if events == nil {
		return len("null")
	}
	if len(events) == 0 {
		return len("[]")
	}
	n := len("[") + len("\n") + indent + len("]") + len(events) - 1
	in := indent + 2
	for i := range events {
		e := &events[i]
		var object, trigger []int
		if e.Object != nil {
			object = []int{len("object"), refLen(e.Object, in+2)}
		}
		if e.Trigger != nil {
			trigger = []int{len("trigger"), refLen(e.Trigger, in+2)}
		}
		var changes []int
		if len(e.VersionChanges) > 0 {
			changes = []int{len("versionChanges"), stringsLen(e.VersionChanges, in+2)}
		}
		n += len("\n") + in + fieldsLen(in,
			[]int{len("seq"), intLen(e.Seq)},
			[]int{len("time"), jsonStringLen(e.Time)},
			[]int{len("actor"), jsonStringLen(e.Actor)},
			[]int{len("action"), jsonStringLen(e.Action)},
			object,
			optional(len("policy"), e.Policy),
			optional(len("rule"), e.Rule),
			trigger,
			[]int{len("reason"), jsonStringLen(e.Reason)},
			changes)
	}
	return n
}

// refLen is jsonLen for a resource.Ref whose line is indented by indent
// spaces.
func refLen(r *resource.Ref, indent int) int {
	return fieldsLen(indent, []int{len("apiVersion"), jsonStringLen(r.APIVersion)}, []int{len("kind"), jsonStringLen(r.Kind)},
		optional(len("namespace"), r.Namespace), []int{len("name"), jsonStringLen(r.Name)})
}

// stringsLen is jsonLen for a non-empty list of strings whose line is
// indented by indent spaces.
func stringsLen(list []string, indent int) int {
	n := len("[") + len("\n") + indent + len("]") + len(list) - 1
	for _, s := range list {
		n += len("\n") + indent + 2 + jsonStringLen(s)
	}
	return n
}

func intLen(i int) int {
	var buf [24]byte
	return len(strconv.AppendInt(buf[:0], int64(i), 10))
}

func boolLen(b bool) int {
	if b {
		return len("true")
	}
	return len("false")
}

// changesLen is jsonLen for a step's changes, the array's line indented by
// indent spaces.
func changesLen(changes []timeline.Change, indent int) int {
	if changes == nil {
		return len("null")
	}
	if len(changes) == 0 {
		return len("[]")
	}
	n := len("[") + len("\n") + indent + len("]") + len(changes) - 1
	for i := range changes {
		n += len("\n") + indent + 2 + changeLen(&changes[i], indent+2)
	}
	return n
}

// changeLen is jsonLen for one change whose line is indented by indent
// spaces.
func changeLen(c *timeline.Change, indent int) int {
	ref := refLen(&c.Object, indent+2)
	var whole, patch []int
	if len(c.Whole) > 0 {
		whole = []int{len("after"), jsonLen(c.Whole, indent+2)}
	}
	if len(c.Patch) > 0 {
		patch = []int{len("patch"), jsonLen(c.Patch, indent+2)}
	}
	return fieldsLen(indent, []int{len("object"), ref}, []int{len("change"), jsonStringLen(c.Change)}, optional(len("diff"), c.Diff), whole, patch)
}

// fieldsLen is the length of a JSON object whose fields are {key length
// without quotes, value length} pairs (nil: an omitted field), its first
// line indented by indent spaces.
func fieldsLen(indent int, fields ...[]int) int {
	k := 0
	n := len("{") + len("\n") + indent + len("}")
	for _, f := range fields {
		if f == nil {
			continue
		}
		k++
		n += len("\n") + indent + 2 + len(`""`) + f[0] + len(": ") + f[1]
	}
	if k == 0 {
		return len("{}")
	}
	return n + k - 1
}

// optional is a string field with omitempty.
func optional(key int, v string) []int {
	if v == "" {
		return nil
	}
	return []int{key, jsonStringLen(v)}
}
