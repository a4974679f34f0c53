package nesting

import "fmt"

// Limits. Real expressions nest a handful of levels and hold a few dozen
// operators; the parser and the interpreter recurse once per nesting level,
// per prefix operator (!, &) and per link of some chains (a.b.c, a[*][*]).
const (
	// Max is the deepest bracket nesting an expression may have.
	Max = 100
	// MaxOperators bounds the operators of one expression, which bounds
	// every recursion the parser and the interpreter make on it.
	MaxOperators = 1000
)

// Measure returns the deepest nesting of (), [] and {} in expr and its
// number of operators (. | ! & * ? @ , : and brackets), ignoring what is
// inside quoted literals ('raw', "identifier", `json`).
func Measure(expr string) (depth, operators int) {
	level := 0
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if quote != 0 {
			switch c {
			case '\\':
				i++
			case quote:
				quote = 0
			}
			continue
		}
		switch c {
		case '\'', '"', '`':
			quote = c
		case '(', '[', '{':
			level++
			depth = max(depth, level)
			operators++
		case ')', ']', '}':
			level = max(level-1, 0)
		case '.', '|', '!', '&', '*', '?', '@', ',', ':', '<', '>', '=':
			operators++
		}
	}
	return depth, operators
}

// Check returns an error when expr nests deeper than Max or holds more
// than MaxOperators operators.
func Check(expr string) error {
	d, ops := Measure(expr)
	switch {
	case d > Max:
		return fmt.Errorf("expression nests brackets %d levels deep, more than the limit of %d", d, Max)
	case ops > MaxOperators:
		return fmt.Errorf("expression has %d operators, more than the limit of %d", ops, MaxOperators)
	}
	return nil
}

// MaxValueDepth bounds the nesting of a value an expression produces, as
// package source bounds what YAML may nest: a JSON literal 9,999 levels
// deep would otherwise become an object whose indented JSON and YAML grow
// with the square of its depth.
const MaxValueDepth = 200

// ValueDepth returns how deeply a JSON-shaped value nests maps and slices,
// stopping early once it exceeds limit. It does not recurse, so any depth
// is safe to measure.
func ValueDepth(v any, limit int) int {
	type item struct {
		v any
		d int
	}
	stack := []item{{v, 0}}
	deepest := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch x := it.v.(type) {
		case map[string]any:
			deepest = max(deepest, it.d+1)
			for _, e := range x {
				stack = append(stack, item{e, it.d + 1})
			}
		case []any:
			deepest = max(deepest, it.d+1)
			for _, e := range x {
				stack = append(stack, item{e, it.d + 1})
			}
		}
		if deepest > limit {
			return deepest
		}
	}
	return deepest
}
