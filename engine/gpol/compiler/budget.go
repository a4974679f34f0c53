package compiler

import (
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"github.com/google/cel-go/interpreter"
)

// The cost budget of an evaluation. cel-go's own actual-cost tracker
// (cel.CostTracking) is quadratic in the number of comprehension iterations
// in v0.30 (its value stack is searched linearly on every step: an
// exists() over 100,000 elements takes 25 s), so genplay counts instead:
// every evaluated call, operator, comprehension and literal costs 1 plus
// the size of its result (list and map elements, a tenth of a string's or
// bytes' length). Variable reads and field selections are free, as
// constants are. The count is deterministic: it depends only on the
// expression and its input.

// budgetDecorator wraps the nodes that are charged.
func budgetDecorator(i interpreter.InterpretableV2) (interpreter.InterpretableV2, error) {
	switch i.(type) {
	case *charged, interpreter.InterpretableAttribute, interpreter.InterpretableConst:
		return i, nil
	}
	return &charged{InterpretableV2: i}, nil
}

type charged struct {
	interpreter.InterpretableV2
}

func (c *charged) Eval(a interpreter.Activation) ref.Val {
	v := c.InterpretableV2.Eval(a)
	charge(a, v)
	return v
}

func (c *charged) Exec(f *interpreter.ExecutionFrame) ref.Val {
	v := c.InterpretableV2.Exec(f)
	charge(f, v)
	return v
}

func charge(a interpreter.Activation, v ref.Val) {
	s, ok := a.ResolveName(stateVar)
	if !ok {
		return
	}
	o, ok := s.(*opaque)
	if !ok || o.ev == nil {
		return
	}
	e := o.ev
	e.cost += 1 + valueSize(v)
	if e.cost > e.p.costLimit {
		e.overCost = true
		panic(interpreter.EvalCancelledError{Cause: interpreter.CostLimitExceeded, Message: "operation cancelled: actual cost limit exceeded"})
	}
}

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
