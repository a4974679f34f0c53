package compiler

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

// Templates (§2.5, K:pkg/cel/policies/gpol/template/{template.go,scanner.go}
// and Policy.applyTemplate): YAML documents, with `(( expr ))` placeholders
// in scalars when interpolate is cel, compiled once with the policy.

type template struct {
	path string
	docs []*tnode
}

type tnodeKind int

const (
	tLiteral tnodeKind = iota // a subtree without placeholders
	tMapping
	tSequence
	tSplice // a scalar that is exactly one placeholder
	tInterp // a scalar with text and placeholders
)

type tnode struct {
	kind    tnodeKind
	literal any
	keys    []string
	values  []*tnode
	parts   []tpart
}

// tpart is literal text or a placeholder.
type tpart struct {
	text string
	prg  *program
}

// compileTemplate parses the template and compiles its placeholders.
func (c *compiler) compileTemplate(t *gpol.Template, path string) (*template, bool) {
	value := t.Value
	fail := func(line, col int, format string, args ...any) (*template, bool) {
		c.diags = append(c.diags, source.Errorf(value.PosAt(line, col), "%s.value: Invalid value: %s", path, fmt.Sprintf(format, args...)))
		return nil, false
	}
	interpolate := t.Interpolate == "cel"
	if t.Interpolate != "" && t.Interpolate != "none" && !interpolate {
		return fail(1, 1, "interpolate must be none or cel, got %q", t.Interpolate)
	}
	dec := yaml.NewDecoder(strings.NewReader(value.Text))
	out := &template{path: path}
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line := 1
			if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
				line, _ = strconv.Atoi(m[1])
			}
			return fail(line, 1, "failed to parse template: %v", err)
		}
		if len(doc.Content) == 0 {
			continue
		}
		root := doc.Content[0]
		if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
			continue
		}
		tc := &templateCompiler{c: c, value: value, path: path, interpolate: interpolate, lines: strings.Split(value.Text, "\n")}
		n, err := tc.node(root)
		if err != nil {
			var pe *posError
			if errors.As(err, &pe) {
				return fail(pe.line, pe.col, "%s", pe.msg)
			}
			return fail(root.Line, root.Column, "%v", err)
		}
		if n == nil {
			return nil, false // placeholder compile errors were recorded
		}
		if root.Kind != yaml.MappingNode && n.kind != tSplice {
			return fail(root.Line, root.Column, "each template document must be a mapping (a resource)")
		}
		out.docs = append(out.docs, n)
	}
	if len(out.docs) == 0 {
		return fail(1, 1, "the template has no document")
	}
	return out, true
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

type posError struct {
	line, col int
	msg       string
}

func (e *posError) Error() string { return e.msg }

type templateCompiler struct {
	c           *compiler
	value       gpol.Expression
	path        string
	interpolate bool
	lines       []string
}

// node compiles one YAML node. It returns (nil, nil) when a placeholder did
// not compile (the diagnostic is recorded).
func (tc *templateCompiler) node(n *yaml.Node) (*tnode, error) {
	if n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	if !tc.interpolate || !hasPlaceholder(n) {
		var v any
		if err := n.Decode(&v); err != nil {
			return nil, &posError{n.Line, n.Column, err.Error()}
		}
		lit, err := jsonShape(v)
		if err != nil {
			return nil, &posError{n.Line, n.Column, err.Error()}
		}
		return &tnode{kind: tLiteral, literal: lit}, nil
	}
	switch n.Kind {
	case yaml.MappingNode:
		out := &tnode{kind: tMapping}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Value == "<<" && k.Tag == "!!merge" {
				return nil, &posError{k.Line, k.Column, "YAML merge keys (<<) are not supported in templates with placeholders"}
			}
			if hasPlaceholder(k) {
				return nil, &posError{k.Line, k.Column, "placeholders are not allowed in mapping keys"}
			}
			child, err := tc.node(v)
			if err != nil || child == nil {
				return nil, err
			}
			out.keys = append(out.keys, k.Value)
			out.values = append(out.values, child)
		}
		return out, nil
	case yaml.SequenceNode:
		out := &tnode{kind: tSequence}
		for _, v := range n.Content {
			child, err := tc.node(v)
			if err != nil || child == nil {
				return nil, err
			}
			out.values = append(out.values, child)
		}
		return out, nil
	case yaml.ScalarNode:
		return tc.scalar(n)
	}
	return nil, &posError{n.Line, n.Column, "unsupported YAML node"}
}

func (tc *templateCompiler) scalar(n *yaml.Node) (*tnode, error) {
	segs, err := scanPlaceholders(n.Value)
	if err != nil {
		return nil, &posError{n.Line, n.Column, err.Error()}
	}
	out := &tnode{kind: tInterp}
	ok := true
	for _, s := range segs {
		if !s.placeholder {
			out.parts = append(out.parts, tpart{text: s.text})
			continue
		}
		line, col := tc.locate(n, s.offset)
		e := gpol.Expression{
			Text: s.text,
			Path: fmt.Sprintf("%s.value", tc.path),
			Pos:  tc.value.PosAt(line, col),
		}
		value, indent := tc.value, tc.blockIndent(n)
		prg, good := tc.c.compileAt(e, nil, func(l, c int) source.Pos {
			switch {
			case l == 1:
				return value.PosAt(line, col+c-1)
			case indent >= 0:
				// The expression goes on at the start of the block's next lines.
				return value.PosAt(line+l-1, indent+c)
			}
			return value.PosAt(line, col)
		})
		if !good {
			ok = false
			continue
		}
		p := prg.program
		out.parts = append(out.parts, tpart{prg: &p})
	}
	if !ok {
		return nil, nil
	}
	if len(out.parts) == 1 && out.parts[0].prg != nil {
		out.kind = tSplice
	}
	return out, nil
}

// locate is the (line, col) in the template text of byte offset off of the
// scalar's value: exact for plain and quoted scalars on one line and for
// literal block scalars; otherwise the scalar's start.
func (tc *templateCompiler) locate(n *yaml.Node, off int) (int, int) {
	switch n.Style {
	case 0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		if !strings.Contains(n.Value[:off], "\n") {
			col := n.Column + utf8.RuneCountInString(n.Value[:off])
			if n.Style != 0 {
				col++
			}
			return n.Line, col
		}
	case yaml.LiteralStyle:
		if indent := tc.blockIndent(n); indent >= 0 {
			before := n.Value[:off]
			line := n.Line + 1 + strings.Count(before, "\n")
			return line, indent + 1 + utf8.RuneCountInString(before[strings.LastIndex(before, "\n")+1:])
		}
	}
	return n.Line, n.Column
}

// blockIndent is the indentation of a literal block scalar's content (that
// of its first non-empty line), or -1 for other scalars.
func (tc *templateCompiler) blockIndent(n *yaml.Node) int {
	if n.Style != yaml.LiteralStyle {
		return -1
	}
	for i := n.Line; i < len(tc.lines); i++ { // tc.lines[n.Line] is the line after the indicator
		if raw := tc.lines[i]; strings.TrimSpace(raw) != "" {
			return len(raw) - len(strings.TrimLeft(raw, " "))
		}
	}
	return -1
}

func hasPlaceholder(n *yaml.Node) bool {
	if n.Kind == yaml.AliasNode {
		return hasPlaceholder(n.Alias)
	}
	if n.Kind == yaml.ScalarNode {
		if strings.Contains(n.Value, `\((`) {
			return true // the escape becomes a literal (( when rendered
		}
		segs, err := scanPlaceholders(n.Value)
		if err != nil {
			return true // reported when compiled
		}
		for _, s := range segs {
			if s.placeholder {
				return true
			}
		}
		return false
	}
	for _, c := range n.Content {
		if hasPlaceholder(c) {
			return true
		}
	}
	return false
}

type segment struct {
	text        string
	placeholder bool
	offset      int // byte offset of the expression in the scalar
}

// scanPlaceholders splits a scalar into text and `(( expr ))` placeholders.
// It knows nested parentheses and '…'/"…" literals inside the expression;
// `\((` is a literal `((`.
func scanPlaceholders(s string) ([]segment, error) {
	var segs []segment
	var text strings.Builder
	i := 0
	for i < len(s) {
		if strings.HasPrefix(s[i:], `\((`) {
			text.WriteString("((")
			i += 3
			continue
		}
		if !strings.HasPrefix(s[i:], "((") {
			text.WriteByte(s[i])
			i++
			continue
		}
		start := i + 2
		depth, j, end := 0, start, -1
	scan:
		for j < len(s) {
			switch ch := s[j]; ch {
			case '\'', '"':
				k := j + 1
				for k < len(s) && s[k] != ch {
					if s[k] == '\\' {
						k++
					}
					k++
				}
				if k >= len(s) {
					return nil, fmt.Errorf("unterminated string literal in placeholder at offset %d", j)
				}
				j = k + 1
			case '(':
				depth++
				j++
			case ')':
				if depth == 0 && strings.HasPrefix(s[j:], "))") {
					end = j
					break scan
				}
				depth--
				j++
			default:
				j++
			}
		}
		if end < 0 {
			return nil, fmt.Errorf("unterminated placeholder: missing '))' after '((' at offset %d", i)
		}
		raw := s[start:end]
		expr := strings.TrimSpace(raw)
		if expr == "" {
			return nil, fmt.Errorf("empty placeholder at offset %d", i)
		}
		if text.Len() > 0 {
			segs = append(segs, segment{text: text.String()})
			text.Reset()
		}
		lead := len(raw) - len(strings.TrimLeft(raw, " \t\n"))
		segs = append(segs, segment{text: expr, placeholder: true, offset: start + lead})
		i = end + 2
	}
	if text.Len() > 0 {
		segs = append(segs, segment{text: text.String()})
	}
	return segs, nil
}

// jsonShape converts a decoded YAML value to JSON-shaped Go values.
func jsonShape(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			s, err := jsonShape(e)
			if err != nil {
				return nil, err
			}
			out[k] = s
		}
		return out, nil
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			s, err := jsonShape(e)
			if err != nil {
				return nil, err
			}
			out[fmt.Sprint(k)] = s
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			s, err := jsonShape(e)
			if err != nil {
				return nil, err
			}
			out[i] = s
		}
		return out, nil
	case int:
		return float64(x), nil
	case int64:
		return float64(x), nil
	case uint64:
		return float64(x), nil
	case float64, string, bool, nil:
		return x, nil
	}
	return fmt.Sprint(v), nil
}

// applyTemplate renders every document and hands them to the Host grouped
// by metadata.namespace, in the order the namespaces first appear.
func (e *evaluation) applyTemplate(t *template) error {
	var order []string
	groups := map[string][]map[string]any{}
	for _, d := range t.docs {
		v, err := e.render(d)
		if err != nil {
			return fmt.Errorf("%s: %w", t.path, err)
		}
		obj, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: a template document must render to a mapping (a resource)", t.path)
		}
		ns := ""
		if md, ok := obj["metadata"].(map[string]any); ok {
			ns, _ = md["namespace"].(string)
		}
		if e.p.namespace != "" {
			if ns == "" {
				ns = e.p.namespace
			} else if ns != e.p.namespace {
				return fmt.Errorf("%s: cross-namespace generation denied: a policy in namespace %q cannot generate resources into namespace %q", t.path, e.p.namespace, ns)
			}
		}
		if _, seen := groups[ns]; !seen {
			order = append(order, ns)
		}
		groups[ns] = append(groups[ns], obj)
	}
	for _, ns := range order {
		if err := e.host.Generate(ns, groups[ns]); err != nil {
			return fmt.Errorf("%s: %v", t.path, hostError("failed to generate resources", err))
		}
	}
	return nil
}

func (e *evaluation) render(n *tnode) (any, error) {
	switch n.kind {
	case tLiteral:
		return deepCopy(n.literal), nil
	case tMapping:
		out := make(map[string]any, len(n.keys))
		for i, k := range n.keys {
			v, err := e.render(n.values[i])
			if err != nil {
				return nil, err
			}
			out[k] = v
		}
		return out, nil
	case tSequence:
		out := make([]any, 0, len(n.values))
		for _, c := range n.values {
			v, err := e.render(c)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case tSplice:
		v, err := e.eval(n.parts[0].prg)
		if err != nil {
			return nil, err
		}
		if u, ok := v.(types.Uint); ok && uint64(u) > math.MaxInt64 {
			return nil, fmt.Errorf("%s: value %d overflows int64", n.parts[0].prg.expr.Text, uint64(u))
		}
		// Converted to a JSON-shaped value: every reference to a shared
		// part becomes a copy, so the value is priced as it will be built.
		if err := e.chargeOutside(n.parts[0].prg, measure(v, e.left()), "the placeholder's value"); err != nil {
			return nil, err
		}
		return fromCEL(v)
	}
	var b bytes.Buffer
	for _, p := range n.parts {
		if p.prg == nil {
			b.WriteString(p.text)
			continue
		}
		v, err := e.eval(p.prg)
		if err != nil {
			return nil, err
		}
		s, err := scalarText(v)
		if err != nil {
			return nil, fmt.Errorf("placeholder (( %s )): %v", p.prg.expr.Text, err)
		}
		if b.Len()+len(s) > MaxStringBytes {
			e.refusal = fmt.Sprintf("the template's text would be more than the %d bytes Kubernetes accepts in a request", MaxStringBytes)
			e.overCost = true
			return nil, e.costError(p.prg)
		}
		if err := e.chargeOutside(p.prg, tr(len(s)), "the template's text"); err != nil {
			return nil, err
		}
		b.WriteString(s)
	}
	return b.String(), nil
}

// scalarText formats an interpolated placeholder value as %v does.
func scalarText(v ref.Val) (string, error) {
	switch x := v.(type) {
	case types.String:
		return string(x), nil
	case types.Bool:
		return strconv.FormatBool(bool(x)), nil
	case types.Int:
		return strconv.FormatInt(int64(x), 10), nil
	case types.Uint:
		return strconv.FormatUint(uint64(x), 10), nil
	case types.Double:
		return fmt.Sprintf("%v", float64(x)), nil
	}
	return "", fmt.Errorf("a %s cannot be interpolated into a string (only string, bool, int, uint and double)", v.Type().TypeName())
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = deepCopy(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = deepCopy(e)
		}
		return out
	}
	return v
}
