package variables

// The substitution as it was before it was tuned for fewer allocations,
// kept as the reference the differential tests compare the tuned one with.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// regexVariables finds "{{…}}" at the start of a string or after any
// character but a backslash (Kyverno's RegexVariables).
var regexVariables = regexp.MustCompile(`(^|[^\\])(\{\{(?:\{[^{}]*\}|[^{}])*\}\})`)

// refSubstitute is Substitute as it was: a copy of value with every {{ }}
// variable replaced, in string values and in map keys, at any depth.
func (e *Evaluator) refSubstitute(ctx any, value any) (any, error) {
	data, err := jsonShape(ctx)
	if err != nil {
		return nil, fmt.Errorf("substitute variables: context: %w", err)
	}
	value, err = jsonShape(value)
	if err != nil {
		return nil, fmt.Errorf("substitute variables: %w", err)
	}
	s := &refSubstitution{e: e, ctx: data}
	if m, ok := data.(map[string]any); ok {
		if req, ok := m["request"].(map[string]any); ok {
			s.delete = req["operation"] == "DELETE"
		}
		_, s.target = m["target"]
	}
	return s.walk(value, nil, 0)
}

type refSubstitution struct {
	e      *Evaluator
	ctx    any
	delete bool
	target bool
	// memo holds the result of each expression already evaluated in this
	// call: the context does not change and every function is
	// deterministic. Containers in it are never handed out as they are:
	// walk rebuilds every map and list it returns.
	memo map[string]any
}

func (s *refSubstitution) search(expr string) (any, error) {
	if v, ok := s.memo[expr]; ok {
		return v, nil
	}
	v, err := s.e.search(expr, s.ctx)
	if err != nil {
		return nil, err
	}
	if s.memo == nil {
		s.memo = map[string]any{}
	}
	s.memo[expr] = v
	return v, nil
}

func (s *refSubstitution) walk(value any, path []string, depth int) (any, error) {
	if depth > s.e.opts.MaxDepth {
		return nil, fmt.Errorf("substitute variables at path %s: values nest deeper than %d refSubstitutions", refPointer(path), s.e.opts.MaxDepth)
	}
	switch t := value.(type) {
	case string:
		out, err := s.leaf(t, path)
		if err != nil {
			return nil, err
		}
		switch out.(type) {
		case map[string]any, []any:
			// Kyverno traverses what a variable returned, so variables
			// inside a substituted object are substituted too.
			return s.walk(out, path, depth+1)
		}
		return out, nil
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make(map[string]any, len(t))
		for _, k := range keys {
			newKey, err := s.leaf(k, path)
			if err != nil {
				return nil, err
			}
			ks, ok := newKey.(string)
			if !ok {
				return nil, fmt.Errorf("expected string after substituting variables in key %q", k)
			}
			v, err := s.walk(t[k], append(path[:len(path):len(path)], k), depth)
			if err != nil {
				return nil, err
			}
			out[ks] = v
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			v, err := s.walk(e, append(path[:len(path):len(path)], strconv.Itoa(i)), depth)
			if err != nil {
				return nil, err
			}
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
func (s *refSubstitution) leaf(value string, path []string) (any, error) {
	if !strings.Contains(value, "{{") {
		return value, nil
	}
	limit := max(s.e.opts.MaxOutput, len(value)) // refSubstitution may not grow a string past MaxOutput
	matches := regexVariables.FindAllStringSubmatchIndex(value, -1)
	for passes := 0; len(matches) > 0; passes++ {
		if passes >= s.e.opts.MaxDepth {
			return nil, fmt.Errorf("substitute variables at path %s: still finding variables after %d nested passes", refPointer(path), passes)
		}
		var b strings.Builder
		last := 0
		shallow := false
		for _, m := range matches {
			v := value[m[4]:m[5]] // group 2: the variable; group 1 is the prefix character
			var variable string
			variable, shallow = refTrimBraces(v)
			if variable == "@" {
				variable = s.current(path)
			}
			if s.delete {
				variable = strings.ReplaceAll(variable, "request.object", "request.oldObject")
			}
			result, err := s.search(variable)
			if err != nil {
				return nil, &Error{Variable: variable, Path: refPointer(path), Err: err}
			}
			if v == value {
				return result, nil
			}
			if str, ok := result.(string); ok && shallow {
				result = strings.ReplaceAll(str, "{{", `\{{`)
			}
			text, err := s.text(result)
			if err != nil {
				return nil, &Error{Variable: variable, Path: refPointer(path), Err: err}
			}
			b.WriteString(value[last:m[4]])
			b.WriteString(text)
			last = m[5]
			if b.Len()+len(value)-last > limit {
				return nil, fmt.Errorf("substitute variables at path %s: result exceeds the limit of %d bytes", refPointer(path), s.e.opts.MaxOutput)
			}
		}
		b.WriteString(value[last:])
		value = b.String()
		if shallow {
			break
		}
		matches = regexVariables.FindAllStringSubmatchIndex(value, -1)
	}
	return strings.ReplaceAll(value, `\{{`, "{{"), nil
}

// text renders a value for interpolation: strings as they are, anything else
// as JSON (null for nil).
func (s *refSubstitution) text(v any) (string, error) {
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
func (s *refSubstitution) current(path []string) string {
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

// trimBraces strips the braces and spaces of "{{ expr }}" and reports
// whether it was a shallow "{{- expr}}".
func refTrimBraces(v string) (string, bool) {
	v = strings.ReplaceAll(v, "{{", "")
	v = strings.ReplaceAll(v, "}}", "")
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "-") {
		return strings.TrimSpace(v[1:]), true
	}
	return v, false
}

func refPointer(path []string) string {
	var b strings.Builder
	for _, p := range path {
		b.WriteString("/" + strings.ReplaceAll(p, "/", `\/`))
	}
	return b.String()
}
