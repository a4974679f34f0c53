package variables

import (
	"encoding/json"
	"fmt"
	"iter"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/internal/budget"
)

// identifier is a path element {{@}} can spell with a dot.
var identifier = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Error is a failed substitution: the variable, where it was, and why. Its
// message follows Kyverno's: `failed to resolve request.object.x at path
// /data/key: JMESPath query failed: Unknown key "x" in path`. Callers add the
// rule: `variable substitution failed for rule %s: %w`.
type Error struct {
	Variable string // the expression between the braces
	Path     string // JSON-pointer-like path of the string in the value ("" at the root)
	Err      error
}

func (e *Error) Error() string {
	return fmt.Sprintf("failed to resolve %s at path %s: %v", e.Variable, e.Path, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// HasVariables reports whether s holds a {{ }} variable that is not escaped.
func HasVariables(s string) bool {
	_, _, ok := nextVariable(s, 0)
	return ok
}

// Spans yields where each {{ }} variable of s is, s[start:end], in order:
// what Kyverno's RegexVariables finds (group 2 of each match of
// FindAllStringSubmatchIndex), for policy validation, which reads the
// variables as written.
func Spans(s string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for start, end, ok := nextVariable(s, 0); ok; start, end, ok = nextVariable(s, end) {
			if !yield(start, end) {
				return
			}
		}
	}
}

// SubstituteString substitutes the variables of one string. A string that is
// exactly one variable yields the variable's typed value.
func (e *Evaluator) SubstituteString(ctx any, s string) (any, error) {
	return e.Substitute(ctx, s)
}

// Substitute returns a copy of value with every {{ }} variable replaced, in
// string values and in map keys, at any depth; value itself is not changed.
// ctx is the JMESPath context (request, element, the rule's context entries).
// When ctx.request.operation is DELETE, request.object in expressions reads
// request.oldObject, as in Kyverno.
//
// Every map and list of the result is new; strings are immutable, so those
// without a variable are handed back as they are. ctx is converted to JSON
// shape when the first variable is evaluated: a value without variables
// never pays for reading the context.
func (e *Evaluator) Substitute(ctx any, value any) (any, error) {
	value, err := jsonShape(value)
	if err != nil {
		return nil, fmt.Errorf("substitute variables: %w", err)
	}
	s := substitution{e: e, raw: ctx}
	return s.walk(value, 0)
}

type substitution struct {
	e   *Evaluator
	raw any // the context as given
	// ctx is raw in JSON shape, and delete and target what it says about
	// the request, once ready (prepare).
	ctx    any
	ready  bool
	delete bool
	target bool
	// The result of each expression already evaluated in this call: the
	// context does not change and every function is deterministic. Most
	// calls evaluate a single expression, which is kept without a map
	// (memo1); memo holds the others. Containers in it are never handed
	// out as they are: walk rebuilds every map and list it returns.
	memo1Key string
	memo1    any
	hasMemo1 bool
	memo     map[string]any
	// The path of the value walk is at: its first elements in head, any
	// deeper ones in tail (see push).
	pathLen int
	head    [16]pathElem
	tail    []pathElem
}

// pathElem is one element of the path of the value walk is at.
type pathElem struct {
	key   string
	index int // the list index, or -1 for a map key
}

// push and pop keep the path of the value walk is at as a stack in the
// substitution itself, which lives on the caller's stack: the path is
// spelled out only for an error message or a {{@}} reference.
func (s *substitution) push(e pathElem) {
	if s.pathLen < len(s.head) {
		s.head[s.pathLen] = e
	} else {
		s.tail = append(s.tail[:s.pathLen-len(s.head)], e)
	}
	s.pathLen++
}

func (s *substitution) pop() { s.pathLen-- }

// segments returns the path from the root, as strings.
func (s *substitution) segments() []string {
	out := make([]string, s.pathLen)
	for i := range out {
		var el pathElem
		if i < len(s.head) {
			el = s.head[i]
		} else {
			el = s.tail[i-len(s.head)]
		}
		if el.index >= 0 {
			out[i] = strconv.Itoa(el.index)
		} else {
			out[i] = el.key
		}
	}
	return out
}

// prepare converts the context and reads the request's operation and
// whether there is a target, the first time a variable needs them.
func (s *substitution) prepare() error {
	if s.ready {
		return nil
	}
	data, err := jsonShape(s.raw)
	if err != nil {
		return fmt.Errorf("substitute variables: context: %w", err)
	}
	s.ctx, s.ready = data, true
	if m, ok := data.(map[string]any); ok {
		if req, ok := m["request"].(map[string]any); ok {
			s.delete = req["operation"] == "DELETE"
		}
		_, s.target = m["target"]
	}
	return nil
}

func (s *substitution) search(expr string) (any, error) {
	if s.hasMemo1 && s.memo1Key == expr {
		return s.memo1, nil
	}
	if v, ok := s.memo[expr]; ok {
		return v, nil
	}
	v, err := s.e.search(expr, s.ctx)
	if err != nil {
		return nil, err
	}
	switch {
	case !s.hasMemo1:
		s.memo1Key, s.memo1, s.hasMemo1 = expr, v, true
	case s.memo == nil:
		s.memo = map[string]any{expr: v}
	default:
		s.memo[expr] = v
	}
	return v, nil
}

func (s *substitution) walk(value any, depth int) (any, error) {
	if depth > s.e.opts.MaxDepth {
		return nil, fmt.Errorf("substitute variables at path %s: values nest deeper than %d substitutions", s.pointer(), s.e.opts.MaxDepth)
	}
	switch t := value.(type) {
	case string:
		if !strings.Contains(t, "{{") {
			return value, nil // no variable, nothing to unescape: the string as it is
		}
		out, err := s.leaf(t)
		if err != nil {
			return nil, err
		}
		// What a variable returned is charged by its size, as it will be
		// copied, stored and rendered: a thousand references to one long
		// value cost a thousand times its length.
		if b := s.e.opts.Budget; b != nil {
			if err := b.Charge(budget.Size(out, b.Remaining()), "variable substitution"); err != nil {
				return nil, err
			}
		}
		switch out.(type) {
		case map[string]any, []any:
			// Kyverno traverses what a variable returned, so variables
			// inside a substituted object are substituted too.
			return s.walk(out, depth+1)
		}
		return out, nil
	case map[string]any:
		// Keys in order, so the first error and the sequence of random()
		// calls do not depend on map iteration.
		var buf [16]string
		keys := buf[:0]
		for k := range t {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make(map[string]any, len(t))
		for _, k := range keys {
			ks := k
			if strings.Contains(k, "{{") {
				newKey, err := s.leaf(k)
				if err != nil {
					return nil, err
				}
				var ok bool
				if ks, ok = newKey.(string); !ok {
					return nil, fmt.Errorf("expected string after substituting variables in key %q", k)
				}
			}
			s.push(pathElem{key: k, index: -1})
			v, err := s.walk(t[k], depth)
			if err != nil {
				return nil, err
			}
			s.pop()
			out[ks] = v
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			s.push(pathElem{index: i})
			v, err := s.walk(e, depth)
			if err != nil {
				return nil, err
			}
			s.pop()
			out[i] = v
		}
		return out, nil
	default:
		return value, nil
	}
}

// leaf substitutes the variables of one string, following Kyverno's
// substituteVariablesIfAny: each pass replaces the variables found, and
// strings are re-scanned until no variable is left (a single pass for
// {{- }}). Finally "\{{" becomes "{{". Each pass builds the new string in
// one sweep, so the work is linear in its length.
func (s *substitution) leaf(value string) (any, error) {
	if !strings.Contains(value, "{{") {
		return value, nil
	}
	limit := max(s.e.opts.MaxOutput, len(value)) // substitution may not grow a string past MaxOutput
	start, end, found := nextVariable(value, 0)
	for passes := 0; found; passes++ {
		if passes >= s.e.opts.MaxDepth {
			return nil, fmt.Errorf("substitute variables at path %s: still finding variables after %d nested passes", s.pointer(), passes)
		}
		if err := s.prepare(); err != nil {
			return nil, err
		}
		var b strings.Builder
		last := 0
		shallow := false
		for ; found; start, end, found = nextVariable(value, end) {
			v := value[start:end]
			var variable string
			variable, shallow = trimBraces(v)
			if variable == "@" {
				variable = s.current()
			}
			if s.delete {
				variable = strings.ReplaceAll(variable, "request.object", "request.oldObject")
			}
			result, err := s.search(variable)
			if err != nil {
				return nil, &Error{Variable: variable, Path: s.pointer(), Err: err}
			}
			if len(v) == len(value) {
				return result, nil // the whole string is one variable: its typed value
			}
			if str, ok := result.(string); ok && shallow {
				result = strings.ReplaceAll(str, "{{", `\{{`)
			}
			text, err := s.text(result)
			if err != nil {
				return nil, &Error{Variable: variable, Path: s.pointer(), Err: err}
			}
			b.WriteString(value[last:start])
			b.WriteString(text)
			last = end
			if b.Len()+len(value)-last > limit {
				return nil, fmt.Errorf("substitute variables at path %s: result exceeds the limit of %d bytes", s.pointer(), s.e.opts.MaxOutput)
			}
		}
		b.WriteString(value[last:])
		value = b.String()
		if shallow {
			break
		}
		start, end, found = nextVariable(value, 0)
	}
	return strings.ReplaceAll(value, `\{{`, "{{"), nil
}

// nextVariable finds the next "{{…}}" variable of value at or after from:
// value[start:end] is the variable. It finds what Kyverno's RegexVariables,
// `(^|[^\\])(\{\{(?:\{[^{}]*\}|[^{}])*\}\})`, finds (group 2 of the next
// match of FindAllStringSubmatchIndex), without a regular expression and its
// allocations (regexVariables in the tests is that expression).
//
// A variable opens with "{{" at the start of the string or after a
// character that is not a backslash and that lies at or after from (the
// regular expression's group 1, which a previous match cannot share). It
// goes on with characters other than braces and "{…}" groups without
// braces inside, and closes with "}}". Each opening reads to at most one
// end, so the first opening that closes is the match: the regular
// expression's leftmost-first choice. '{', '}' and '\\' are ASCII, which
// never occurs inside a multi-byte UTF-8 sequence, so bytes can be read
// in place of runes.
func nextVariable(value string, from int) (start, end int, ok bool) {
	for i := from; ; {
		j := strings.Index(value[i:], "{{")
		if j < 0 {
			return 0, 0, false
		}
		j += i
		if j == 0 || (j > from && value[j-1] != '\\') {
			if e := variableEnd(value, j); e >= 0 {
				return j, e, true
			}
		}
		i = j + 1
	}
}

// variableEnd returns where the variable that opens at value[j:] ("{{")
// ends, or -1 if it does not close.
func variableEnd(value string, j int) int {
	for i := j + 2; i < len(value); {
		switch value[i] {
		case '}':
			if i+1 < len(value) && value[i+1] == '}' {
				return i + 2
			}
			return -1
		case '{':
			k := strings.IndexAny(value[i+1:], "{}")
			if k < 0 || value[i+1+k] != '}' {
				return -1
			}
			i += k + 2
		default:
			i++
		}
	}
	return -1
}

// text renders a value for interpolation: strings as they are, anything else
// as JSON (null for nil).
func (s *substitution) text(v any) (string, error) {
	if str, ok := v.(string); ok {
		return str, nil
	}
	if !sizeWithin(v, s.e.opts.MaxOutput) {
		return "", fmt.Errorf("value exceeds the limit of %d bytes", s.e.opts.MaxOutput)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "", fmt.Errorf("failed to marshal %T: %v", v, v)
	}
	return string(b), nil
}

// current is Kyverno's meaning of {{@}}: the value at the same path in the
// object (or in target, when the context has one), skipping past "foreach"
// and the first two path elements (such as mutate.patchStrategicMerge).
func (s *substitution) current() string {
	path := s.segments()
	for i, p := range path {
		if p == "foreach" {
			path = path[i+1:]
			break
		}
	}
	if len(path) > 2 {
		path = path[2:]
	} else {
		path = nil
	}
	expr := "request.object"
	if s.target {
		expr = "target"
	}
	var b strings.Builder
	b.WriteString(expr)
	for _, p := range path {
		if _, err := strconv.ParseUint(p, 10, 64); err == nil {
			b.WriteString("[" + p + "]")
		} else if identifier.MatchString(p) {
			b.WriteString("." + p)
		} else {
			q, _ := json.Marshal(p)
			b.WriteString("." + string(q))
		}
	}
	return b.String()
}

// trimBraces strips the braces and spaces of a variable "{{ expr }}" (as
// nextVariable or regexVariables find it) and reports whether it was a
// shallow "{{- expr}}". Kyverno removes every "{{" and "}}" of the match;
// between its outer braces a match holds neither (its inner groups are
// "{…}" with no brace inside), so slicing the outer ones off is the same.
func trimBraces(v string) (string, bool) {
	v = strings.TrimSpace(v[2 : len(v)-2])
	if strings.HasPrefix(v, "-") {
		return strings.TrimSpace(v[1:]), true
	}
	return v, false
}

// pointer spells out a path as in error messages: "/a/0/b", "" at the root.
func (s *substitution) pointer() string {
	var b strings.Builder
	for _, p := range s.segments() {
		b.WriteString("/" + strings.ReplaceAll(p, "/", `\/`))
	}
	return b.String()
}
