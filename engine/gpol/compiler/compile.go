package compiler

import (
	"fmt"
	"sync"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/interpreter"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

// httpForbidden is Kyverno's admission message for http.* in a namespaced
// policy (K:pkg/cel/compiler/http.go, K:pkg/cel/policies/gpol/validate.go).
const httpForbidden = "spec: Forbidden: http.* is not allowed in namespaced policies; set --allowHTTPInNamespacedPolicies to enable"

// GlobalContextForbidden is Kyverno v1.19.1's admission message for
// globalContext.* in a namespaced policy (K:pkg/cel/policies/gpol/validate.go).
const GlobalContextForbidden = "spec: Forbidden: globalContext.* is not allowed in namespaced policies"

// program is one compiled expression.
type program struct {
	expr     gpol.Expression
	prg      cel.Program
	usesHTTP bool
}

type namedProgram struct {
	name string
	program
}

type generation struct {
	expr     *program
	template *template
}

type auditAnnotation struct {
	key string
	program
}

// Policy is a compiled GeneratingPolicy or NamespacedGeneratingPolicy. It
// is immutable and safe to evaluate many times, concurrently.
type Policy struct {
	source          *gpol.Policy
	namespace       string // "" for a GeneratingPolicy
	opts            Options
	costLimit       uint64
	matchConditions []namedProgram
	variables       []namedProgram
	varIndex        map[string]int
	generate        []generation
	audit           []auditAnnotation
	usesHTTP        bool
}

// compiler compiles the expressions of one policy in its environment.
type compiler struct {
	env       *cel.Env
	provider  *provider
	decorator interpreter.InterpretableDecoratorV2
	costLimit uint64
	diags     source.Diagnostics
	usesHTTP  bool
	firstHTTP source.Pos
	// usesGlobalContext and firstGlobalContext are the same for the
	// globalContext variable.
	usesGlobalContext  bool
	firstGlobalContext source.Pos
}

// The two environments (cluster and namespaced) are built once: building
// one costs about 4.5 ms, compiling a typical policy in a built one about
// half of that again (most of it cel-go planning each program).
// What differs per policy is the type of variables.<name>, which the
// provider answers from the policy being compiled; compilations therefore
// take turns (compileMu). Evaluation does not consult the provider: field
// types are resolved when a program is planned.
var (
	compileMu sync.Mutex
	envs      [2]struct {
		once      sync.Once
		env       *cel.Env
		provider  *provider
		decorator interpreter.InterpretableDecoratorV2
		err       error
	}
)

// newCompiler locks the environment of the policy kind; release unlocks it.
func newCompiler(namespace string, opts Options) (*compiler, error) {
	i := 0
	if namespace != "" {
		i = 1
	}
	e := &envs[i]
	e.once.Do(func() {
		e.env, e.provider, e.err = newEnv(namespace)
		if e.err == nil {
			e.decorator, e.err = budgetDecorator(e.env)
		}
	})
	if e.err != nil {
		return nil, e.err
	}
	limit := opts.CostLimit
	if limit == 0 {
		limit = DefaultCostLimit
	}
	compileMu.Lock()
	e.provider.reset()
	return &compiler{env: e.env, provider: e.provider, decorator: e.decorator, costLimit: limit}, nil
}

// release ends the compilation: the environment is free for the next.
func (c *compiler) release() {
	c.provider.reset()
	compileMu.Unlock()
}

// Compile compiles the CEL of a policy (K:pkg/cel/policies/gpol/compiler/
// compiler.go Compile): matchConditions (bool), variables (typed in order),
// generate expressions (exactly bool) and templates, auditAnnotations
// (string or null). As in Kyverno, compilation stops at the first section
// that has errors. A NamespacedGeneratingPolicy that uses http is refused
// unless opts.AllowHTTPInNamespacedPolicies.
func Compile(p *gpol.Policy, opts Options) (*Policy, source.Diagnostics) {
	ns := policyNamespace(p)
	c, err := newCompiler(ns, opts)
	if err != nil {
		return nil, source.Diagnostics{source.Errorf(source.Pos{}, "generating policy compiler error: %v", err)}
	}
	defer c.release()
	out := &Policy{source: p, namespace: ns, opts: opts, costLimit: c.costLimit, varIndex: map[string]int{}}

	for _, m := range p.Spec.MatchConditions {
		if prg, ok := c.compile(m.Expression, types.BoolType); ok {
			out.matchConditions = append(out.matchConditions, namedProgram{m.Name, prg.program})
		}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	for _, v := range p.Spec.Variables {
		prg, ok := c.compile(v.Expression, nil)
		if !ok {
			continue
		}
		c.provider.addVariable(v.Name, prg.outputType)
		out.varIndex[v.Name] = len(out.variables)
		out.variables = append(out.variables, namedProgram{v.Name, prg.program})
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	for i, g := range p.Spec.Generate {
		switch {
		case g.Expression != nil:
			if prg, ok := c.compile(*g.Expression, types.BoolType); ok {
				out.generate = append(out.generate, generation{expr: &prg.program})
			}
		case g.Template != nil:
			if t, ok := c.compileTemplate(g.Template, fmt.Sprintf("spec.generate[%d].template", i)); ok {
				out.generate = append(out.generate, generation{template: t})
			}
		default:
			c.diags = append(c.diags, source.Errorf(policyPos(p, "spec", "generate", i), "spec.generate[%d]: Invalid value: exactly one of expression or template must be set", i))
		}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	for _, a := range p.Spec.AuditAnnotations {
		if prg, ok := c.compile(a.ValueExpression, nil); ok {
			t := prg.outputType
			if t.Kind() != types.StringKind && t.Kind() != types.NullTypeKind && t.Kind() != types.DynKind {
				c.invalid(a.ValueExpression, fmt.Sprintf("output is expected to be of type string or null, got %s", t))
				continue
			}
			out.audit = append(out.audit, auditAnnotation{a.Key, prg.program})
		}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	out.usesHTTP = c.usesHTTP
	var forbidden source.Diagnostics
	if ns != "" && c.usesGlobalContext && opts.DenyGlobalContextInNamespaced {
		forbidden = append(forbidden, source.Errorf(c.firstGlobalContext, "%s", GlobalContextForbidden))
	}
	if ns != "" && c.usesHTTP && !opts.AllowHTTPInNamespacedPolicies {
		forbidden = append(forbidden, source.Errorf(c.firstHTTP, "%s", httpForbidden))
	}
	if len(forbidden) > 0 {
		return nil, forbidden
	}
	return out, nil
}

type compiled struct {
	program
	outputType *types.Type
}

// compile parses and checks one expression; want, when set, is the exact
// output type. Errors are recorded as diagnostics at the YAML position of
// the offending part of the expression.
func (c *compiler) compile(e gpol.Expression, want *types.Type) (compiled, bool) {
	return c.compileAt(e, want, e.PosAt)
}

// compileAt is compile with the mapping from a (line, col) inside the
// expression to the YAML given (a template placeholder maps through its
// template).
func (c *compiler) compileAt(e gpol.Expression, want *types.Type, posAt func(line, col int) source.Pos) (compiled, bool) {
	checked, iss := c.env.Compile(e.Text)
	if iss != nil && iss.Err() != nil {
		for _, ce := range iss.Errors() {
			loc := ce.Location
			c.errorAt(e, posAt, loc.Line(), loc.Column()+1, ce.Message)
		}
		return compiled{}, false
	}
	if want != nil && !checked.OutputType().IsExactType(want) {
		c.invalid(e, fmt.Sprintf("output is expected to be of type %s, got %s", want, checked.OutputType()))
		return compiled{}, false
	}
	prg, err := c.env.Program(checked, cel.CustomDecoratorV2(c.decorator))
	if err != nil {
		c.errorAt(e, posAt, 1, 1, err.Error())
		return compiled{}, false
	}
	usesHTTP := references(checked.NativeRep(), "http")
	if usesHTTP && !c.usesHTTP {
		c.usesHTTP = true
		c.firstHTTP = e.Pos
	}
	if references(checked.NativeRep(), "globalContext") && !c.usesGlobalContext {
		c.usesGlobalContext = true
		c.firstGlobalContext = e.Pos
	}
	return compiled{program: program{expr: e, prg: prg, usesHTTP: usesHTTP}, outputType: checked.OutputType()}, true
}

// errorAt records a compile error at (line, col) inside the expression, in
// the form of Kyverno's aggregate entry:
// spec.generate[0].expression: Invalid value: "…": ERROR: <input>:1:16: …
func (c *compiler) errorAt(e gpol.Expression, posAt func(line, col int) source.Pos, line, col int, msg string) {
	c.diags = append(c.diags, source.Errorf(posAt(line, col),
		"%s: Invalid value: %q: ERROR: <input>:%d:%d: %s", e.Path, e.Text, line, col, msg))
}

// invalid records an error about the whole expression (its type), in
// Kyverno's words (field.Invalid with "output is expected to be of type
// bool"), at the start of the expression.
func (c *compiler) invalid(e gpol.Expression, msg string) {
	c.diags = append(c.diags, source.Errorf(e.PosAt(1, 1), "%s: Invalid value: %q: %s", e.Path, e.Text, msg))
}

// references reports whether a checked expression uses a variable, such
// as http or globalContext (Kyverno's ExpressionsUseHTTP and
// ExpressionsUseGlobalContext look for the identifier).
func references(a *ast.AST, variable string) bool {
	for _, r := range a.ReferenceMap() {
		if r.Name == variable {
			return true
		}
	}
	return false
}

// policyNamespace is the namespace a policy is confined to: "" for a
// GeneratingPolicy; for a NamespacedGeneratingPolicy its namespace, or
// "default" when it has none (kubectl's default context).
func policyNamespace(p *gpol.Policy) string {
	if !p.Namespaced() {
		return ""
	}
	if p.Namespace == "" {
		return "default"
	}
	return p.Namespace
}

// policyPos is the position of a field of the policy, when it has a source.
func policyPos(p *gpol.Policy, path ...any) source.Pos {
	if p.Source == nil {
		return source.Pos{}
	}
	return p.Source.Pos(path...)
}
