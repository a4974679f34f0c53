package resource

import (
	"math"
	"strconv"
	"unicode/utf8"
)

// JSONSize is the length of v as compact JSON (encoding/json's Marshal:
// sorted keys, HTML escaped), computed without encoding and without
// allocating. v is JSON-shaped; it stops counting once the length passes
// limit and returns a number above limit, so measuring a value built from
// many references to one large string costs at most limit bytes of work.
func JSONSize(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch x := v.(type) {
		case nil:
			n += len("null")
		case bool:
			if x {
				n += len("true")
			} else {
				n += len("false")
			}
		case float64:
			n += JSONFloatLen(x)
		case string:
			n += quotedLen(x, limit-n)
		case map[string]any:
			n += len("{}") + max(len(x)-1, 0)
			for k, e := range x {
				if n > limit {
					return
				}
				n += quotedLen(k, limit-n) + len(":")
				walk(e)
			}
		case Object:
			walk(map[string]any(x))
		case []any:
			n += len("[]") + max(len(x)-1, 0)
			for _, e := range x {
				if n > limit {
					return
				}
				walk(e)
			}
		default:
			n += len("null") // not JSON-shaped: the store normalizes such values first
		}
	}
	walk(v)
	return n
}

// JSONFloatLen is the length of x as encoding/json writes it (0 for
// infinities and NaN, which it refuses).
func JSONFloatLen(x float64) int {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return 0
	}
	var buf [32]byte
	format := byte('f')
	if a := math.Abs(x); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(buf[:0], x, format, -1, 64)
	if n := len(b); format == 'e' && n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
		return n - 1 // e-09 is written e-9
	}
	return len(b)
}

// quotedLen is the length of s quoted as encoding/json quotes it, counted
// up to limit bytes of output.
func quotedLen(s string, limit int) int {
	n := len(`""`)
	for i := 0; i < len(s) && n <= limit; {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\b' || b == '\f' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20 || b == '<' || b == '>' || b == '&':
				n += len(`\u0000`)
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			n += len(`\u2028`)
		} else {
			n += size
		}
		i += size
	}
	return n
}
