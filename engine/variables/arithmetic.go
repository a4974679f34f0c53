package variables

import (
	"math"
	"math/big"
	"time"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/genplay/genplay/engine/internal/quantity"
)

// An operand of Kyverno's arithmetic functions: a number (scalar), a
// quantity string ("100Mi") or a duration string ("5m"). A string is tried
// as a quantity first, so "5" is a quantity, not a scalar.
type operand struct {
	kind byte // 's' scalar, 'q' quantity, 'd' duration
	f    float64
	q    quantity.Quantity
	d    time.Duration
}

func parseOperand(name string, v any) (operand, error) {
	switch t := v.(type) {
	case float64:
		return operand{kind: 's', f: t}, nil
	case string:
		if q, err := quantity.Parse(t); err == nil {
			return operand{kind: 'q', q: q}, nil
		}
		if d, err := time.ParseDuration(t); err == nil {
			return operand{kind: 'd', d: d}, nil
		}
	}
	return operand{}, fnError(name, "invalid operand")
}

func mismatch(name string) error   { return fnError(name, "Types mismatch") }
func zeroDivide(name string) error { return fnError(name, "Zero divisor passed") }

func arith(name string) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		a, err := parseOperand(name, arguments[0])
		if err != nil {
			return nil, err
		}
		b, err := parseOperand(name, arguments[1])
		if err != nil {
			return nil, err
		}
		return calculate(name, a, b)
	}
}

func calculate(name string, a, b operand) (any, error) {
	switch name {
	case "add", "sum":
		return addSub(name, a, b, 1)
	case "subtract":
		return addSub(name, a, b, -1)
	case "multiply":
		return multiply(a, b)
	case "divide":
		return divide(a, b)
	case "modulo":
		return modulo(a, b)
	}
	return nil, fnError(name, "unknown operation")
}

func addSub(name string, a, b operand, sign int) (any, error) {
	if a.kind != b.kind {
		return nil, mismatch(name)
	}
	switch a.kind {
	case 'q':
		v := new(big.Rat).Set(b.q.Value)
		if sign < 0 {
			v.Neg(v)
		}
		return quantity.New(v.Add(v, a.q.Value), a.q.Format).String(), nil
	case 'd':
		if sign < 0 {
			return (a.d - b.d).String(), nil
		}
		return (a.d + b.d).String(), nil
	default:
		return a.f + float64(sign)*b.f, nil
	}
}

func multiply(a, b operand) (any, error) {
	if a.kind == 's' && b.kind != 's' {
		a, b = b, a
	}
	if b.kind != 's' {
		return nil, mismatch("multiply")
	}
	switch a.kind {
	case 'q':
		f := new(big.Rat)
		if f.SetFloat64(b.f) == nil {
			return nil, fnError("multiply", "invalid operand")
		}
		return quantity.New(f.Mul(f, a.q.Value), a.q.Format).String(), nil
	case 'd':
		return time.Duration(a.d.Seconds() * b.f * float64(time.Second)).String(), nil
	default:
		return a.f * b.f, nil
	}
}

func divide(a, b operand) (any, error) {
	switch {
	case a.kind == 'q' && b.kind == 'q':
		if b.q.Value.Sign() == 0 {
			return nil, zeroDivide("divide")
		}
		return a.q.Float() / b.q.Float(), nil
	case a.kind == 'q' && b.kind == 's':
		if b.f == 0 {
			return nil, zeroDivide("divide")
		}
		d := new(big.Rat)
		if d.SetFloat64(b.f) == nil {
			return nil, fnError("divide", "invalid operand")
		}
		v := new(big.Rat).Quo(a.q.Value, d)
		return quantity.New(truncate(v, max(decimals(a.q.Value), decimals(d))), a.q.Format).String(), nil
	case a.kind == 'd' && b.kind == 'd':
		if b.d == 0 {
			return nil, zeroDivide("divide")
		}
		return a.d.Seconds() / b.d.Seconds(), nil
	case a.kind == 'd' && b.kind == 's':
		if b.f == 0 {
			return nil, zeroDivide("divide")
		}
		return time.Duration(a.d.Seconds() / b.f * float64(time.Second)).String(), nil
	case a.kind == 's' && b.kind == 's':
		if b.f == 0 {
			return nil, zeroDivide("divide")
		}
		return a.f / b.f, nil
	}
	return nil, mismatch("divide")
}

// decimals is the number of decimal places v needs, at most 9.
func decimals(v *big.Rat) int {
	x := new(big.Rat).Set(v)
	ten := big.NewRat(10, 1)
	for n := 0; n < 9; n++ {
		if x.IsInt() {
			return n
		}
		x.Mul(x, ten)
	}
	return 9
}

// truncate rounds v toward zero to n decimal places.
func truncate(v *big.Rat, n int) *big.Rat {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	num := new(big.Int).Mul(v.Num(), scale)
	num.Quo(num, v.Denom())
	return new(big.Rat).SetFrac(num, scale)
}

func modulo(a, b operand) (any, error) {
	if a.kind != b.kind {
		return nil, mismatch("modulo")
	}
	switch a.kind {
	case 'q':
		if !a.q.Value.IsInt() || !b.q.Value.IsInt() {
			return nil, fnError("modulo", "Non-integer argument(s) passed for modulo")
		}
		if b.q.Value.Sign() == 0 {
			return nil, zeroDivide("modulo")
		}
		r := new(big.Int).Rem(a.q.Value.Num(), b.q.Value.Num())
		return quantity.New(new(big.Rat).SetInt(r), a.q.Format).String(), nil
	case 'd':
		if b.d == 0 {
			return nil, zeroDivide("modulo")
		}
		return (a.d % b.d).String(), nil
	default:
		x, y := a.f, b.f
		if x != math.Trunc(x) || y != math.Trunc(y) || math.IsInf(x, 0) || math.IsInf(y, 0) {
			return nil, fnError("modulo", "Non-integer argument(s) passed for modulo")
		}
		if y == 0 {
			return nil, zeroDivide("modulo")
		}
		return math.Mod(x, y), nil
	}
}

func jpSum(arguments []any) (any, error) {
	items, ok := arguments[0].([]any)
	if !ok {
		return nil, mismatch("sum")
	}
	if len(items) == 0 {
		return nil, fnError("sum", "at least one element in the array is required")
	}
	result := items[0]
	for _, item := range items[1:] {
		a, err := parseOperand("sum", result)
		if err != nil {
			return nil, err
		}
		b, err := parseOperand("sum", item)
		if err != nil {
			return nil, err
		}
		if result, err = calculate("sum", a, b); err != nil {
			return nil, err
		}
	}
	return result, nil
}
