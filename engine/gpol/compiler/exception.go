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
