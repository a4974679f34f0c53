package compiler

import (
	"github.com/google/cel-go/common/types"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

// Exception is a PolicyException's matchConditions compiled in the
// environment of the policy it refers to (§3.11).
type Exception struct {
	source          *gpol.Exception
	policy          *Policy
	matchConditions []namedProgram
}

// CompileException compiles e's matchConditions in p's environment (no
// variables are declared).
func CompileException(e *gpol.Exception, p *gpol.Policy, opts Options) (*Exception, source.Diagnostics) {
	ns := policyNamespace(p)
	c, err := newCompiler(ns, opts)
	if err != nil {
		return nil, source.Diagnostics{source.Errorf(source.Pos{}, "generating policy compiler error: %v", err)}
	}
	defer c.release()
	out := &Exception{source: e, policy: &Policy{source: p, namespace: ns, opts: opts, costLimit: c.costLimit, varIndex: map[string]int{}}}
	for _, m := range e.MatchConditions {
		if prg, ok := c.compile(m.Expression, types.BoolType); ok {
			out.matchConditions = append(out.matchConditions, namedProgram{m.Name, prg.program})
		}
	}
	if len(c.diags) > 0 {
		return nil, c.diags
	}
	return out, nil
}

// Match evaluates the exception's matchConditions against the same input
// as the policy: an empty list matches; a false wins over errors.
func (e *Exception) Match(in Input, h Host) (bool, error) {
	return matchAll(e.policy.newEvaluation(in, h), e.matchConditions)
}

// Full reports whether the exception exempts fully (no images and no
// allowedValues): a matching full exception stops the evaluation.
func (e *Exception) Full() bool {
	return len(e.source.Images) == 0 && len(e.source.AllowedValues) == 0
}

// exceptionVariables are the variables Kyverno v1.19.1's admission check
// of a PolicyException declares (K:pkg/cel/compiler/policy_exception.go):
// Kubernetes' base environment with these, without Kyverno's libraries.
var exceptionVariables = map[string]bool{"object": true, "oldObject": true, "request": true, "namespaceObject": true}

// CheckException is Kyverno v1.19.1's admission check of a PolicyException's
// matchConditions: each compiles to a bool in an environment that declares
// object, oldObject, request and namespaceObject only. genplay compiles in
// the policies' environment and refuses every other variable it references
// (Kyverno's libraries are variables: resource, http, globalContext, ...),
// with CEL's message for an undeclared reference.
func CheckException(e *gpol.Exception) source.Diagnostics {
	c, err := newCompiler("", Options{})
	if err != nil {
		return source.Diagnostics{source.Errorf(source.Pos{}, "generating policy compiler error: %v", err)}
	}
	defer c.release()
	for _, m := range e.MatchConditions {
		checked, iss := c.env.Compile(m.Expression.Text)
		if iss != nil && iss.Err() != nil {
			c.compile(m.Expression, types.BoolType) // records the errors
			continue
		}
		info := checked.NativeRep().SourceInfo()
		undeclared := false
		for id, r := range checked.NativeRep().ReferenceMap() {
			if r.Name == "" || exceptionVariables[r.Name] || r.Value != nil {
				continue
			}
			loc := info.GetStartLocation(id)
			c.errorAt(m.Expression, m.Expression.PosAt, loc.Line(), loc.Column()+1,
				"undeclared reference to '"+r.Name+"' (in container '')")
			undeclared = true
			break
		}
		if !undeclared && !checked.OutputType().IsExactType(types.BoolType) {
			c.invalid(m.Expression, "output is expected to be of type bool")
		}
	}
	return c.diags
}
