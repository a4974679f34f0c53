package assert

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	jmespath "github.com/kyverno/go-jmespath"

	"github.com/genplay/genplay/engine/internal/nesting"
)

var (
	foreachRegex  = regexp.MustCompile(`^~(\w+)?\.(.*)$`)
	bindingRegex  = regexp.MustCompile(`^(.*?)\s*->\s*(\w+)$`)
	escapeRegex   = regexp.MustCompile(`^\\(.+)\\$`)
	compilerRegex = regexp.MustCompile(`^\((?:(\w+);)?(.+)\)$`)
)

// Expression is a parsed assertion-tree key or value, following
// kyverno-json's grammar: [~[name].]<statement>[ -> binding], where the
// statement is either "(expr)", "(engine;expr)", "\literal\" or a literal.
type Expression struct {
	// Foreach is set by a "~." prefix; ForeachName by "~name.".
	Foreach     bool
	ForeachName string
	// Binding is the name after "->".
	Binding string
	// Engine is "jp" (the default) or "cel"; empty when Statement is a
	// literal.
	Engine string
	// Statement is the JMESPath expression, or the literal text.
	Statement string
}

// IsProjection reports whether the statement is evaluated rather than read
// literally.
func (e Expression) IsProjection() bool { return e.Engine != "" }

// ParseExpression parses a key or string value of an assertion tree.
func ParseExpression(in string) Expression {
	// Each pattern needs a prefix, suffix or operator a string checks
	// faster than the regular expression: most keys and values are plain
	// text, and the expressions were 5% of a run.
	var e Expression
	if strings.HasPrefix(in, "~") {
		if m := foreachRegex.FindStringSubmatch(in); m != nil {
			e.Foreach, e.ForeachName, in = true, m[1], m[2]
		}
	}
	if strings.Contains(in, "->") {
		if m := bindingRegex.FindStringSubmatch(in); m != nil {
			e.Binding, in = m[2], m[1]
		}
	}
	tmpl := ParseTemplate(in)
	e.Engine, e.Statement = tmpl.Engine, tmpl.Statement
	return e
}

// ParseTemplate parses a string the way chainsaw's templating does: only
// "(expr)", "(engine;expr)" and the "\text\" escape are special; "~" and
// "->" are plain text.
func ParseTemplate(in string) Expression {
	if len(in) < 3 {
		return Expression{Statement: in} // each pattern needs three bytes or more
	}
	if in[0] == '\\' && in[len(in)-1] == '\\' {
		if m := escapeRegex.FindStringSubmatch(in); m != nil {
			return Expression{Statement: m[1]}
		}
	}
	if in[0] != '(' || in[len(in)-1] != ')' {
		return Expression{Statement: in}
	}
	if m := compilerRegex.FindStringSubmatch(in); m != nil {
		e := Expression{Engine: m[1], Statement: m[2]}
		if e.Engine == "" {
			e.Engine = "jp"
		}
		return e
	}
	return Expression{Statement: in}
}

// ReadLiterally reports whether chainsaw reads the string s as the text it
// is, both where it templates a resource and in an assertion tree: s is not
// "(expr)" or "(engine;expr)", not the "\text\" escape, and has no "~."
// prefix or "-> binding" suffix (which kyverno-json refuses in values). A
// string with a line break is always read literally: none of the forms
// spans lines.
func ReadLiterally(s string) bool {
	e := ParseExpression(s)
	return !e.Foreach && e.Binding == "" && e.Engine == "" && e.Statement == s
}

// Literal is s written so that chainsaw reads it as s: as it is when it
// reads literally, else in the "\s\" escape.
func Literal(s string) string {
	if ReadLiterally(s) {
		return s
	}
	return `\` + s + `\`
}

// Evaluate runs the expression's statement against value with bindings. A
// literal statement evaluates to itself.
func (e Expression) Evaluate(value any, bindings map[string]any) (any, error) {
	switch e.Engine {
	case "":
		return e.Statement, nil
	case "jp", "default":
		return Eval(e.Statement, value, bindings)
	default:
		return nil, fmt.Errorf("%s expressions are not supported (only JMESPath): %s", e.Engine, e.Statement)
	}
}

// Eval evaluates a JMESPath expression against value. $name references are
// resolved from bindings (keys without the "$").
func Eval(expr string, value any, bindings map[string]any) (any, error) {
	substituted, err := substitute(expr, bindings)
	if err != nil {
		return nil, err
	}
	if err := nesting.Check(substituted); err != nil {
		return nil, fmt.Errorf("invalid expression %q: %w", expr, err)
	}
	compiled, err := jmespath.Compile(substituted)
	if err != nil {
		return nil, fmt.Errorf("invalid expression %q: %w", expr, err)
	}
	out, err := compiled.Search(value, jmespath.WithFunctionCaller(functions()))
	if err != nil {
		return nil, fmt.Errorf("evaluate %q: %w", expr, err)
	}
	if d := nesting.ValueDepth(out, nesting.MaxValueDepth); d > nesting.MaxValueDepth {
		return nil, fmt.Errorf("evaluate %q: the result nests more than %d levels deep", expr, nesting.MaxValueDepth)
	}
	return out, nil
}

// substitute replaces every $name outside string literals with a JSON
// literal of the binding's value.
func substitute(expr string, bindings map[string]any) (string, error) {
	if !strings.Contains(expr, "$") {
		return expr, nil
	}
	var b strings.Builder
	for i := 0; i < len(expr); {
		c := expr[i]
		switch c {
		case '\'', '"', '`':
			j := i + 1
			for j < len(expr) && expr[j] != c {
				if expr[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(expr) {
				return "", fmt.Errorf("invalid expression %q: unterminated %c", expr, c)
			}
			b.WriteString(expr[i : j+1])
			i = j + 1
		case '$':
			j := i + 1
			for j < len(expr) && isIdentChar(expr[j]) {
				j++
			}
			name := expr[i+1 : j]
			if name == "" {
				return "", fmt.Errorf("invalid expression %q: $ without a name", expr)
			}
			v, ok := lookup(bindings, name)
			if !ok {
				return "", fmt.Errorf("variable $%s is not defined", name)
			}
			lit, err := json.Marshal(v)
			if err != nil {
				return "", fmt.Errorf("binding $%s: %w", name, err)
			}
			b.WriteByte('`')
			b.WriteString(strings.ReplaceAll(string(lit), "`", "\\`"))
			b.WriteByte('`')
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

func lookup(bindings map[string]any, name string) (any, bool) {
	if v, ok := bindings[name]; ok {
		return v, true
	}
	v, ok := bindings["$"+name]
	return v, ok
}

func isIdentChar(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func functions() *jmespath.FunctionCaller {
	fc := jmespath.NewFunctionCaller()
	fc.Register(jmespath.FunctionEntry{
		Name:      "trim_space",
		Arguments: []jmespath.ArgSpec{{Types: []jmespath.JpType{jmespath.JpString}}},
		Handler: func(args []any) (any, error) {
			return strings.TrimSpace(args[0].(string)), nil
		},
	})
	fc.Register(jmespath.FunctionEntry{
		Name:      "json_parse",
		Arguments: []jmespath.ArgSpec{{Types: []jmespath.JpType{jmespath.JpString}}},
		Handler: func(args []any) (any, error) {
			var v any
			if err := json.Unmarshal([]byte(args[0].(string)), &v); err != nil {
				return nil, fmt.Errorf("json_parse: %w", err)
			}
			return v, nil
		},
	})
	fc.Register(jmespath.FunctionEntry{
		Name:      "as_string",
		Arguments: []jmespath.ArgSpec{{Types: []jmespath.JpType{jmespath.JpAny}}},
		Handler: func(args []any) (any, error) {
			if s, ok := args[0].(string); ok {
				return s, nil
			}
			return nil, nil
		},
	})
	return fc
}
