package quantity

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// Format is how a quantity was written and how it prints.
type Format int

// Formats, as in apimachinery.
const (
	DecimalSI       Format = iota // 100m, 5k
	BinarySI                      // 5Gi
	DecimalExponent               // 5e3
)

// Quantity is an exact quantity and its print format.
type Quantity struct {
	Value  *big.Rat
	Format Format
}

// ErrFormat is returned for a string that is not a quantity.
var ErrFormat = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")

const maxExponent = 1000

var (
	decimalSuffixes = map[string]int{"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18}
	binarySuffixes  = map[string]int{"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60}
)

// Parse parses a quantity such as "1.5Gi".
func Parse(s string) (Quantity, error) {
	if s == "" || len(s) > 256 {
		return Quantity{}, ErrFormat
	}
	i := 0
	neg := false
	if s[0] == '+' || s[0] == '-' {
		neg = s[0] == '-'
		i++
	}
	start := i
	digits, dot := 0, false
	for i < len(s) {
		c := s[i]
		if c >= '0' && c <= '9' {
			digits++
		} else if c == '.' && !dot {
			dot = true
		} else {
			break
		}
		i++
	}
	if digits == 0 {
		return Quantity{}, ErrFormat
	}
	num := s[start:i]
	suffix := s[i:]
	v, ok := new(big.Rat).SetString(strings.TrimSuffix(num, "."))
	if !ok {
		if num[0] == '.' {
			v, ok = new(big.Rat).SetString("0" + num)
		}
		if !ok {
			return Quantity{}, ErrFormat
		}
	}
	if neg {
		v.Neg(v)
	}
	q := Quantity{Value: v, Format: DecimalSI}
	if exp, ok := decimalSuffixes[suffix]; ok {
		q.Value.Mul(q.Value, pow(10, exp))
		return q, nil
	}
	if exp, ok := binarySuffixes[suffix]; ok {
		q.Value.Mul(q.Value, pow(2, exp))
		q.Format = BinarySI
		return q, nil
	}
	if len(suffix) >= 2 && (suffix[0] == 'e' || suffix[0] == 'E') {
		var exp int
		rest := suffix[1:]
		if _, err := fmt.Sscanf(rest, "%d", &exp); err != nil || !isInt(rest) {
			return Quantity{}, ErrFormat
		}
		if exp > maxExponent || exp < -maxExponent {
			return Quantity{}, fmt.Errorf("quantity exponent %d is out of range", exp)
		}
		q.Value.Mul(q.Value, pow(10, exp))
		q.Format = DecimalExponent
		return q, nil
	}
	return Quantity{}, fmt.Errorf("unable to parse quantity's suffix")
}

func isInt(s string) bool {
	if s != "" && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func pow(base int64, exp int) *big.Rat {
	e := exp
	if e < 0 {
		e = -e
	}
	p := new(big.Int).Exp(big.NewInt(base), big.NewInt(int64(e)), nil)
	if exp < 0 {
		return new(big.Rat).SetFrac(big.NewInt(1), p)
	}
	return new(big.Rat).SetInt(p)
}

// Cmp compares q and o: -1, 0 or +1.
func (q Quantity) Cmp(o Quantity) int { return q.Value.Cmp(o.Value) }

// Float returns an approximation of the value.
func (q Quantity) Float() float64 { f, _ := q.Value.Float64(); return f }

// New returns a quantity of value v in format f.
func New(v *big.Rat, f Format) Quantity { return Quantity{Value: v, Format: f} }

// String prints the quantity in canonical form.
func (q Quantity) String() string {
	if q.Value == nil {
		return "0"
	}
	v := roundUpNano(q.Value)
	if v.Sign() == 0 {
		return "0"
	}
	sign := ""
	if v.Sign() < 0 {
		sign = "-"
		v.Neg(v)
	}
	if q.Format == BinarySI && v.IsInt() && v.Cmp(big.NewRat(1024, 1)) >= 0 {
		n := new(big.Int).Set(v.Num())
		suffixes := []string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}
		k := 0
		m := big.NewInt(1024)
		r := new(big.Int)
		for k < 6 {
			qq, rr := new(big.Int).QuoRem(n, m, r)
			if rr.Sign() != 0 {
				break
			}
			n = qq
			k++
		}
		return sign + n.String() + suffixes[k]
	}
	// Decimal: integer mantissa M and exponent E with M*10^E == v, E >= -9.
	mant := new(big.Int).Mul(v.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(9), nil))
	mant.Quo(mant, v.Denom())
	exp := -9
	ten := big.NewInt(10)
	r := new(big.Int)
	for mant.Sign() != 0 {
		qq, rr := new(big.Int).QuoRem(mant, ten, r)
		if rr.Sign() != 0 {
			break
		}
		mant = qq
		exp++
	}
	target := exp - ((exp%3)+3)%3
	if target > 18 {
		target = 18
	}
	mant.Mul(mant, new(big.Int).Exp(ten, big.NewInt(int64(exp-target)), nil))
	if q.Format == DecimalExponent {
		if target == 0 {
			return sign + mant.String()
		}
		return fmt.Sprintf("%s%se%d", sign, mant.String(), target)
	}
	suffix := map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}[target]
	return sign + mant.String() + suffix
}

// roundUpNano rounds v away from zero to a multiple of 1e-9.
func roundUpNano(v *big.Rat) *big.Rat {
	scale := big.NewInt(1_000_000_000)
	n := new(big.Int).Mul(new(big.Int).Abs(v.Num()), scale)
	q, r := new(big.Int).QuoRem(n, v.Denom(), new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	if v.Sign() < 0 {
		q.Neg(q)
	}
	return new(big.Rat).SetFrac(q, scale)
}
