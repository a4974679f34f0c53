package variables

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/internal/nesting"
	"github.com/genplay/genplay/engine/resource"
)

// Defaults for Options left at zero.
const (
	DefaultMaxDepth  = 32
	DefaultMaxOutput = 1 << 20
	// maxExpression bounds the length of one JMESPath expression.
	maxExpression = 64 << 10
	// maxFanOut bounds the product of the widths of multi-select lists and
	// hashes in one expression, which is how an expression multiplies its
	// input (each projection or flatten over a k-wide multi-select copies
	// the data k times).
	maxFanOut = 4096
	// cacheSize bounds the compiled-expression cache.
	cacheSize = 1024
)

// Options configure an Evaluator.
type Options struct {
	// Now is the logical clock behind time_now, time_now_utc and time_since.
	// Nil means a fixed instant, the Unix epoch in UTC.
	Now func() time.Time
	// MaxDepth bounds nested substitution: how many times a string is
	// re-scanned for {{ }} after a substitution, and how deep substituted
	// values are re-traversed. Zero means DefaultMaxDepth.
	MaxDepth int
	// MaxOutput bounds, in bytes, every string a substitution or a custom
	// function produces. Zero means DefaultMaxOutput.
	MaxOutput int
	// Budget is the run's work budget (package budget): every evaluation,
	// custom function call and iteration charges it. Nil: unbounded.
	Budget *budget.Budget
}

// Evaluator evaluates JMESPath expressions with Kyverno's custom functions
// and substitutes {{ }} variables. It is safe for concurrent use.
type Evaluator struct {
	opts Options

	mu sync.Mutex
	// randomCalls seeds random(): the n-th call of a run always gives the
	// same string, so runs replay byte for byte.
	randomCalls uint64
}

// compiled caches parsed expressions for every Evaluator of the process:
// parsing depends on the expression alone, and the playground runs the same
// policy's expressions again on every edit, each time in a new session.
// The interpreter only reads a parsed expression. Failures are not kept.
var compiled struct {
	sync.Mutex
	asts map[string]*gojmespath.ASTNode
}

// Budget returns the work budget evaluations charge (nil: unbounded), for
// the packages that evaluate on the Evaluator's behalf (conditions).
func (e *Evaluator) Budget() *budget.Budget { return e.opts.Budget }

// New returns an Evaluator.
func New(opts Options) *Evaluator {
	if opts.Now == nil {
		opts.Now = func() time.Time { return time.Unix(0, 0).UTC() }
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxOutput <= 0 {
		opts.MaxOutput = DefaultMaxOutput
	}
	return &Evaluator{opts: opts}
}

// boundCaller is a JMESPath function table, built once and reused by every
// Evaluator: its handlers read the Evaluator they serve from ev, which is
// set for the length of one evaluation. The library's handlers receive
// only their arguments (with HasExpRef, also the interpreter, an empty
// value, and the table itself), so a table cannot be shared by evaluations
// running at the same time; an evaluation takes a table of its own from
// the free list (acquireCaller), which holds one table per evaluation that
// ever ran concurrently: one in a single-threaded program.
type boundCaller struct {
	caller *gojmespath.FunctionCaller
	with   gojmespath.InterpreterOption // WithFunctionCaller(caller), made once
	ev     *Evaluator
}

var freeCallers struct {
	sync.Mutex
	list []*boundCaller
}

// acquireCaller returns a function table serving e; releaseCaller gives it
// back once the evaluation is over.
func acquireCaller(e *Evaluator) *boundCaller {
	freeCallers.Lock()
	var b *boundCaller
	if n := len(freeCallers.list); n > 0 {
		b = freeCallers.list[n-1]
		freeCallers.list = freeCallers.list[:n-1]
	}
	freeCallers.Unlock()
	if b == nil {
		b = &boundCaller{caller: gojmespath.NewFunctionCaller()}
		b.with = gojmespath.WithFunctionCaller(b.caller)
		for _, f := range b.functions() {
			b.caller.Register(f)
		}
	}
	b.ev = e
	return b
}

func releaseCaller(b *boundCaller) {
	b.ev = nil // keep no Evaluator alive
	freeCallers.Lock()
	freeCallers.list = append(freeCallers.list, b)
	freeCallers.Unlock()
}

// NotFoundError reports a JMESPath field that the data lacks, the error
// Kyverno reports as `Unknown key "foo" in path`.
type NotFoundError struct {
	Key string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("Unknown key %q in path", e.Key) }

// Search evaluates a JMESPath expression against data. data may hold
// resource.Object, map[string]string and []string values; they are read as
// JSON. The result is JSON-shaped (numbers are float64).
func (e *Evaluator) Search(expr string, data any) (any, error) {
	plainData, err := jsonShape(data)
	if err != nil {
		return nil, fmt.Errorf("JMESPath query failed: %w", err)
	}
	return e.search(expr, plainData)
}

// search evaluates expr against data that is already JSON-shaped.
func (e *Evaluator) search(expr string, data any) (result any, err error) {
	expr = strings.TrimSpace(expr)
	if expr == "" {
		return nil, errors.New("invalid query (nil)")
	}
	if err := e.opts.Budget.Charge(budget.Evaluation+int64(len(expr)), "JMESPath"); err != nil {
		return nil, fmt.Errorf("JMESPath query failed: %w", err)
	}
	ast, err := e.compile(expr)
	if err != nil {
		return nil, fmt.Errorf("incorrect query %s: %w", expr, err)
	}
	b := acquireCaller(e)
	defer func() {
		releaseCaller(b)
		// The interpreter is third-party code; a panic on odd input must
		// not take the engine down.
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("JMESPath query failed: %v", r)
		}
	}()
	out, err := gojmespath.NewInterpreter().Execute(*ast, data, b.with)
	if err != nil {
		var nf gojmespath.NotFoundError
		if errors.As(err, &nf) {
			return nil, fmt.Errorf("JMESPath query failed: %w", &NotFoundError{Key: notFoundKey(nf)})
		}
		return nil, fmt.Errorf("JMESPath query failed: %w", err)
	}
	out, err = jsonShape(out)
	if err != nil {
		return nil, fmt.Errorf("JMESPath query failed: %w", err)
	}
	if d := nesting.ValueDepth(out, nesting.MaxValueDepth); d > nesting.MaxValueDepth {
		return nil, fmt.Errorf("JMESPath query failed: the result nests more than %d levels deep", nesting.MaxValueDepth)
	}
	return out, nil
}

// notFoundKey recovers the key from the library's error, whose field is
// unexported: `Unknown key "foo" in path`.
func notFoundKey(err gojmespath.NotFoundError) string {
	msg := err.Error()
	msg = strings.TrimPrefix(msg, `Unknown key "`)
	return strings.TrimSuffix(msg, `" in path`)
}

func (e *Evaluator) compile(expr string) (*gojmespath.ASTNode, error) {
	compiled.Lock()
	ast, ok := compiled.asts[expr]
	compiled.Unlock()
	if ok {
		return ast, nil
	}
	if len(expr) > maxExpression {
		return nil, fmt.Errorf("expression is %d bytes long, more than the limit of %d", len(expr), maxExpression)
	}
	if err := nesting.Check(expr); err != nil {
		return nil, err
	}
	node, err := parse(expr)
	if err != nil {
		return nil, err
	}
	if f := fanOut(node); f > maxFanOut {
		return nil, fmt.Errorf("expression multiplies its input up to %.0f times, more than the limit of %d", f, maxFanOut)
	}
	node = instrument(node)
	compiled.Lock()
	if compiled.asts == nil || len(compiled.asts) >= cacheSize {
		compiled.asts = make(map[string]*gojmespath.ASTNode)
	}
	compiled.asts[expr] = &node
	compiled.Unlock()
	return &node, nil
}

func parse(expr string) (node gojmespath.ASTNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("parse error: %v", r)
		}
	}()
	return gojmespath.NewParser().Parse(expr)
}

// fanOut is the product of the widths of the multi-select nodes.
func fanOut(n gojmespath.ASTNode) float64 {
	f := 1.0
	if (n.NodeType == gojmespath.ASTMultiSelectList || n.NodeType == gojmespath.ASTMultiSelectHash) && len(n.Children) > 1 {
		f = float64(len(n.Children))
	}
	for _, c := range n.Children {
		f *= fanOut(c)
		if f > math.MaxFloat32 {
			return f
		}
	}
	return f
}

// jsonShape returns v with every value converted to the JSON shape the
// interpreter understands: resource.Object and map[string]string become
// map[string]any, []string and []map[string]any become []any, integers
// become float64. Values already in shape are returned as they are, without
// copying.
func jsonShape(v any) (any, error) {
	out, _, err := shape(v)
	return out, err
}

// shape converts v and reports whether anything had to change.
func shape(v any) (any, bool, error) {
	switch t := v.(type) {
	case nil, string, float64, bool:
		return v, false, nil
	case map[string]any:
		var out map[string]any
		for k, e := range t {
			s, changed, err := shape(e)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = make(map[string]any, len(t))
				for k2, e2 := range t {
					out[k2] = e2
				}
			}
			if out != nil {
				out[k] = s
			}
		}
		if out == nil {
			return v, false, nil // v, not t: boxing t again would allocate
		}
		return out, true, nil
	case []any:
		var out []any
		for i, e := range t {
			s, changed, err := shape(e)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = make([]any, len(t))
				copy(out, t)
			}
			if out != nil {
				out[i] = s
			}
		}
		if out == nil {
			return v, false, nil // v, not t: boxing t again would allocate
		}
		return out, true, nil
	case resource.Object:
		s, _, err := shape(map[string]any(t))
		return s, true, err
	case map[string]string:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = e
		}
		return out, true, nil
	case []string:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = e
		}
		return out, true, nil
	case []map[string]any:
		out := make([]any, len(t))
		for i, e := range t {
			s, _, err := shape(e)
			if err != nil {
				return nil, false, err
			}
			out[i] = s
		}
		return out, true, nil
	case int:
		return float64(t), true, nil
	case int64:
		return float64(t), true, nil
	case int32:
		return float64(t), true, nil
	case float32:
		return float64(t), true, nil
	case uint64:
		return float64(t), true, nil
	case json.Number:
		f, err := t.Float64()
		return f, true, err
	default:
		out, err := resource.Normalize(v)
		if err != nil {
			return nil, false, fmt.Errorf("value of type %T is not JSON data: %w", v, err)
		}
		return out, true, nil
	}
}
