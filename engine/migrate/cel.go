package migrate

import "strings"

// CEL text is built from pieces; these helpers join them with the fewest
// parentheses that keep CEL's precedence, so that no expression is written
// inside parentheses it does not need. An expression wrapped whole in
// parentheses, "(...)", is more than noise: chainsaw's templating (on by
// default) reads such a string value as a JMESPath expression, so a
// converted policy pasted into a chainsaw test would not apply (see
// chainsawSafe).

// CEL's operator precedence, lowest first; precPrimary is a literal,
// identifier, call, selection or index, or anything already in parentheses.
const (
	precTernary = iota + 1
	precOr
	precAnd
	precRelation
	precAdditive
	precMultiplicative
	precUnary
	precPrimary
)

// precedence is the precedence of the lowest operator outside parentheses,
// brackets, braces and string literals in expr.
func precedence(expr string) int {
	lowest := precPrimary
	low := func(p int) {
		if p < lowest {
			lowest = p
		}
	}
	depth := 0
	operand := false // the last token was an operand: a following - or + is binary
	s := strings.TrimSpace(expr)
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			i = skipString(s, i)
			operand = true
			continue
		case c == '(' || c == '[' || c == '{':
			depth++
			operand = false
			continue
		case c == ')' || c == ']' || c == '}':
			depth--
			operand = true
			continue
		case c == ' ' || c == '\t' || c == '\n':
			continue
		}
		if depth > 0 {
			operand = true
			continue
		}
		switch {
		case c == '?':
			if i == 0 || s[i-1] != '.' { // .? is an optional selection
				low(precTernary)
			}
			operand = false
		case strings.HasPrefix(s[i:], "||"):
			low(precOr)
			i++
			operand = false
		case strings.HasPrefix(s[i:], "&&"):
			low(precAnd)
			i++
			operand = false
		case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") || strings.HasPrefix(s[i:], "<=") || strings.HasPrefix(s[i:], ">="):
			low(precRelation)
			i++
			operand = false
		case c == '<' || c == '>':
			low(precRelation)
			operand = false
		case strings.HasPrefix(s[i:], "in ") && i > 0 && (s[i-1] == ' ' || s[i-1] == ')' || s[i-1] == ']'):
			low(precRelation)
			i++
			operand = false
		case c == '+' || c == '-':
			if operand {
				low(precAdditive)
			} else {
				low(precUnary)
			}
			operand = false
		case c == '*' || c == '/' || c == '%':
			low(precMultiplicative)
			operand = false
		case c == '!':
			low(precUnary)
			operand = false
		default:
			operand = true
		}
	}
	return lowest
}

// skipString returns the index of the closing quote of the string literal
// opening at s[i].
func skipString(s string, i int) int {
	q := s[i]
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			return j
		}
	}
	return len(s) - 1
}

// group parenthesizes expr when its precedence is below min (the context's).
func group(expr string, min int) string {
	expr = unwrap(expr)
	if precedence(expr) < min {
		return "(" + expr + ")"
	}
	return expr
}

// celAnd joins conditions with &&.
func celAnd(parts ...string) string { return join(parts, " && ", precAnd) }

// celOr joins conditions with ||; an && among them is parenthesized too,
// for the reader.
func celOr(parts ...string) string { return join(parts, " || ", precAnd+1) }

func join(parts []string, sep string, prec int) string {
	if len(parts) == 1 {
		return unwrap(parts[0])
	}
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = group(p, prec)
	}
	return strings.Join(out, sep)
}

// celNot negates a condition.
func celNot(expr string) string { return "!" + group(expr, precUnary) }

// unwrap removes parentheses that enclose the whole expression.
func unwrap(expr string) string {
	for {
		s := strings.TrimSpace(expr)
		if len(s) < 2 || s[0] != '(' || s[len(s)-1] != ')' || closing(s, 0) != len(s)-1 {
			return s
		}
		expr = s[1 : len(s)-1]
	}
}

// closing is the index of the parenthesis that closes the one at s[open].
func closing(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '"', '\'':
			i = skipString(s, i)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}
