package compiler

import (
	"fmt"
	"math"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/functions"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// The cost budget of an evaluation, in Kubernetes' CEL cost units: one unit
// is about one value visited or ten bytes of a string traversed
// (k8s.io/apiserver's StringTraversalCostFactor), and one evaluation may
// spend Options.CostLimit of them (Kubernetes' PerCallLimit, 1,000,000).
//
// Every function call is charged BEFORE it runs, from its arguments: its
// cost rule (cost.go, one per function of the environment) computes what
// the call may do and build from the sizes of the values it was given
// (a replace from the number of occurrences and the replacement's length,
// an indexOf from the lengths of both strings, a distinct from the list's
// length and the size of its elements, a regular expression from its
// compiled size and the input's length), and a call that would exceed the
// budget, or would build a string or bytes larger than Kubernetes accepts
// in a request (MaxStringBytes), never starts. Other nodes (literals, list
// and map construction, comprehensions, && || ?:) cost 1 plus the size of
// their result, charged after they run: they cannot build more than the
// expression and the calls it made already paid for. Variable reads and
// field selections are free, as constants are.
//
// cel-go's own cost tracker (cel.CostTracking) is not used: it charges a
// call after it returns, by its result, and it is quadratic in the number
// of comprehension iterations in v0.30 (its value stack is searched
// linearly on every step). The count is deterministic: it depends only on
// the expression and its input.

// MaxStringBytes bounds every string or bytes value a CEL call builds:
// Kubernetes' MaxRequestSizeBytes (k8s.io/apiserver/pkg/apis/cel), the
// largest request the API server accepts, so no value Kyverno reads from a
// request or writes in one is larger.
const MaxStringBytes = 3 << 20

// flushUnits is the size of a call whose price is also charged to the
// run's work budget (the Host's Meter) before it runs, rather than with the
// rest of the expression when it ends, and how much an evaluation may
// spend before what it spent is charged to the run.
const flushUnits = 1 << 12

// budgetDecorator is the decorator of env's programs: its functions'
// overloads, each call priced by costRules.
func budgetDecorator(env *cel.Env) (interpreter.InterpretableDecoratorV2, error) {
	disp := interpreter.NewDispatcher()
	for _, fn := range env.Functions() {
		b, err := fn.Bindings()
		if err != nil {
			return nil, err
		}
		if err := disp.Add(b...); err != nil {
			return nil, err
		}
	}
	return newDecorator(disp, costRules), nil
}

// newDecorator returns the decorator of one environment's programs: calls
// become costedCalls that dispatch to disp, the environment's overloads;
// other nodes are charged after they run.
func newDecorator(disp interpreter.Dispatcher, rules map[string]rule) interpreter.InterpretableDecoratorV2 {
	return func(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
		switch n := i.(type) {
		case *costedCall, *charged, interpreter.InterpretableAttribute, interpreter.InterpretableConst:
			return i, nil
		case interpreter.InterpretableCall:
			return newCostedCall(n, disp, rules)
		}
		return &charged{InterpretableV2: i}, nil
	}
}

// costedCall replaces cel-go's call nodes (evalZeroArity, evalUnary,
// evalBinary, evalVarArgs, evalEq, evalNe): it evaluates the arguments as
// they do, charges the call's price, and only then calls the overload the
// planner chose (the same lookup: by overload id, else by function name,
// so that dynamic dispatch stays the function's own).
type costedCall struct {
	id       int64
	function string
	overload string
	args     []interpreter.InterpretableV2
	rule     rule
	// how the call is made
	op        callOp
	impl      *functions.Overload
	trait     int
	nonStrict bool
}

type callOp uint8

const (
	opUnary callOp = iota
	opBinary
	opVarArgs
	opEquals
	opNotEquals
)

func newCostedCall(c interpreter.InterpretableCall, disp interpreter.Dispatcher, rules map[string]rule) (interpreter.InterpretableV2, error) {
	fn := c.Function()
	r, ok := rules[fn]
	if !ok {
		return nil, fmt.Errorf("genplay has no cost rule for the CEL function %s", fn)
	}
	n := &costedCall{id: c.ID(), function: fn, overload: c.OverloadID(), args: c.Args(), rule: r}
	switch fn {
	case operators.Equals:
		n.op = opEquals
		return n, nil
	case operators.NotEquals:
		n.op = opNotEquals
		return n, nil
	}
	// The planner's lookup (interpreter/planner.go planCall).
	var impl *functions.Overload
	if n.overload != "" {
		impl, _ = disp.FindOverload(n.overload)
	}
	if impl == nil {
		impl, _ = disp.FindOverload(fn)
	}
	if impl != nil && impl.Async != nil {
		return nil, fmt.Errorf("the CEL function %s is asynchronous, which genplay does not evaluate", fn)
	}
	n.impl = impl
	if impl != nil {
		n.trait, n.nonStrict = impl.OperandTrait, impl.NonStrict
	}
	switch len(n.args) {
	case 0:
		n.op = opVarArgs
		if impl == nil || impl.Function == nil {
			return nil, fmt.Errorf("no such overload: %s()", fn)
		}
	case 1:
		n.op = opUnary
		if impl != nil && impl.Unary == nil && impl.Function != nil {
			n.op = opVarArgs
		}
	case 2:
		n.op = opBinary
		if impl != nil && impl.Binary == nil && impl.Function != nil {
			n.op = opVarArgs
		}
	default:
		n.op = opVarArgs
	}
	return n, nil
}

func (c *costedCall) ID() int64                             { return c.id }
func (c *costedCall) Function() string                      { return c.function }
func (c *costedCall) OverloadID() string                    { return c.overload }
func (c *costedCall) Args() []interpreter.InterpretableV2   { return c.args }
func (c *costedCall) Eval(a interpreter.Activation) ref.Val { return c.Exec(interpreter.AsFrame(a)) }

func (c *costedCall) Exec(frame *interpreter.ExecutionFrame) ref.Val {
	var buf [4]ref.Val
	vals := buf[:0]
	strict := !c.nonStrict
	var unk *types.Unknown
	for _, a := range c.args {
		v := a.Exec(frame)
		if strict {
			if types.IsError(v) {
				return v
			}
			unk, _ = types.MaybeMergeUnknowns(v, unk)
		}
		vals = append(vals, v)
	}
	if strict && unk != nil {
		return unk
	}
	e := evaluationOf(frame)
	if e != nil {
		e.precharge(c, vals)
	}
	out := c.call(vals)
	if e != nil && c.rule.after != nil {
		e.postcharge(c, c.rule.after(out, e.left()))
	}
	return out
}

// call is the evaluation cel-go's node of the same kind would do with the
// argument values (interpreter/interpretable.go).
func (c *costedCall) call(vals []ref.Val) ref.Val {
	switch c.op {
	case opEquals:
		return types.Equal(vals[0], vals[1])
	case opNotEquals:
		return types.Bool(types.Equal(vals[0], vals[1]) != types.True)
	}
	strict := !c.nonStrict
	if len(vals) == 0 {
		return types.LabelErrNode(c.id, c.impl.Function())
	}
	arg0 := vals[0]
	if c.impl != nil && (c.trait == 0 || (!strict && types.IsUnknownOrError(arg0)) || arg0.Type().HasTrait(c.trait)) {
		switch c.op {
		case opUnary:
			return types.LabelErrNode(c.id, c.impl.Unary(arg0))
		case opBinary:
			return types.LabelErrNode(c.id, c.impl.Binary(arg0, vals[1]))
		default:
			return types.LabelErrNode(c.id, c.impl.Function(vals...))
		}
	}
	if arg0.Type().HasTrait(traits.ReceiverType) {
		return types.LabelErrNode(c.id, arg0.(traits.Receiver).Receive(c.function, c.overload, append([]ref.Val(nil), vals[1:]...)))
	}
	switch c.op {
	case opVarArgs:
		return types.NewErrWithNodeID(c.id, "no such overload: %s %d", c.function, c.id)
	}
	return types.NewErrWithNodeID(c.id, "no such overload: %s", c.function)
}

// charged is a node that is not a call: it costs 1 plus the size of its
// result, after it runs.
type charged struct {
	interpreter.InterpretableV2
}

func (c *charged) Eval(a interpreter.Activation) ref.Val {
	return c.Exec(interpreter.AsFrame(a))
}

func (c *charged) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := c.InterpretableV2.Exec(f)
	if e := evaluationOf(f); e != nil {
		e.spend(1+valueSize(v), nil)
	}
	return v
}

// evaluationOf is the evaluation an activation belongs to.
func evaluationOf(a interpreter.Activation) *evaluation {
	s, ok := a.ResolveName(stateVar)
	if !ok {
		return nil
	}
	if o, ok := s.(*opaque); ok {
		return o.ev
	}
	return nil
}

// left is what the evaluation may still spend.
func (e *evaluation) left() uint64 {
	if e.cost >= e.p.costLimit {
		return 0
	}
	return e.p.costLimit - e.cost
}

// precharge charges a call's price before it runs, or stops the
// evaluation (a panic cel-go's Eval turns into its error) when the call
// would exceed a limit.
func (e *evaluation) precharge(c *costedCall, args []ref.Val) {
	p := c.rule.price(args, e.left())
	if p.bytes > MaxStringBytes {
		e.refuse(fmt.Sprintf("%s would build %d bytes, more than the %d bytes Kubernetes accepts in a request (genplay stops the call before it runs)",
			callName(c.function), p.bytes, MaxStringBytes))
	}
	e.spend(p.units, c)
}

// postcharge charges what a call returned, for the calls whose result
// size is bounded but not known before (what the Host answers, a
// decompression).
func (e *evaluation) postcharge(c *costedCall, units uint64) {
	e.spend(units, c)
}

// spend adds units to the evaluation's cost; c, when not nil, is the call
// about to run. Past the limit the evaluation stops; a large price is
// charged to the run's work budget at once, so that a call the run cannot
// afford does not start either.
func (e *evaluation) spend(units uint64, c *costedCall) {
	if next := satAdd(e.cost, units); next > e.p.costLimit {
		if c != nil {
			// Not spent: the call does not run.
			e.refuse(fmt.Sprintf("%s would cost more than the %d units left of the evaluation's CEL cost budget of %d (genplay stops the call before it runs)",
				callName(c.function), e.left(), e.p.costLimit))
		}
		e.cost = next
		e.refuse("")
	}
	e.cost += units
	// A large call is charged to the run before it runs; and what the
	// evaluation spends reaches the run's budget at least every
	// flushUnits, so that a long evaluation is stopped, and yields, where
	// the run's budget looks at its cancellation.
	if (c != nil && units >= flushUnits) || e.cost-e.charged >= flushUnits {
		what := "CEL evaluation"
		if c != nil {
			what = "CEL " + callName(c.function)
		}
		if err := e.meterNow(what); err != nil {
			e.meterErr = err
			panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: err.Error()})
		}
	}
}

// chargeOutside charges what building a value outside a CEL program will
// cost (a template rendering its placeholders): over the budget it returns
// the cost error instead of building it.
func (e *evaluation) chargeOutside(p *program, units uint64, what string) error {
	if satAdd(e.cost, units) > e.p.costLimit {
		e.overCost = true
		if e.refusal == "" {
			e.refusal = fmt.Sprintf("%s would cost more than the %d units left of the evaluation's CEL cost budget of %d (genplay stops before it builds it)",
				what, e.left(), e.p.costLimit)
		}
		return e.costError(p)
	}
	e.cost += units
	if units >= flushUnits {
		return e.meter(p)
	}
	return nil
}

// refuse ends the evaluation over its cost limit; why says which call
// would have broken it ("" when the count passed it).
func (e *evaluation) refuse(why string) {
	e.overCost = true
	if why != "" && e.refusal == "" {
		e.refusal = why
	}
	panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: "operation cancelled: actual cost limit exceeded"})
}

// callName is how a function is named in messages: operators as written.
func callName(fn string) string {
	if op, ok := operators.FindReverse(fn); ok {
		return "the operator " + op
	}
	return fn
}

// valueSize is the shallow size of a result: a list's or map's elements, a
// tenth of a string's or bytes' length.
func valueSize(v ref.Val) uint64 {
	switch x := v.(type) {
	case types.String:
		return uint64(len(x)) / 10
	case types.Bytes:
		return uint64(len(x)) / 10
	case traits.Sizer:
		if n, ok := x.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

func satAdd(a, b uint64) uint64 {
	if a > math.MaxUint64-b {
		return math.MaxUint64
	}
	return a + b
}

func satMul(a, b uint64) uint64 {
	if a != 0 && b > math.MaxUint64/a {
		return math.MaxUint64
	}
	return a * b
}
