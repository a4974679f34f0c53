package compiler

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// evaluation is one run of a policy (one Match, Generate or
// AuditAnnotations call): the activation, the memoised variables and the
// cost spent so far.
type evaluation struct {
	p        *Policy
	host     Host
	act      map[string]any
	varVals  []ref.Val
	varDone  []bool
	cost     uint64
	charged  uint64 // the part of cost already charged to the Host's Meter
	rng      *rand.Rand
	overCost bool
	refusal  string // the call the cost budget refused, when one was
	meterErr error  // the run's work budget refused a call
}

func (p *Policy) newEvaluation(in Input, h Host) *evaluation {
	e := &evaluation{p: p, host: h, varVals: make([]ref.Val, len(p.variables)), varDone: make([]bool, len(p.variables))}
	obj := any(types.NullValue)
	if in.Object != nil {
		obj = toCEL(in.Object)
	}
	old := any(types.NullValue)
	if in.OldObject != nil {
		old = toCEL(in.OldObject)
	}
	req := any(map[string]any{})
	if in.Request != nil {
		req = toCEL(in.Request)
	}
	nsObj := any(types.NullValue)
	if in.NamespaceObject != nil {
		nsObj = toCEL(in.NamespaceObject)
	}
	images, values := in.AllowedImages, in.AllowedValues
	if images == nil {
		images = []string{}
	}
	if values == nil {
		values = []string{}
	}
	e.act = map[string]any{
		"object":          obj,
		"oldObject":       old,
		"request":         req,
		"namespaceObject": nsObj,
		"variables":       &lazyVariables{ev: e},
		"exceptions": map[string]any{
			"allowedImages": images,
			"allowedValues": values,
		},
		stateVar:        &opaque{typ: stateType, ev: e},
		"generator":     &opaque{typ: generatorType, ev: e},
		"resource":      &opaque{typ: resourceType, ev: e},
		"globalContext": &opaque{typ: globalContextType, ev: e},
		"http":          &opaque{typ: httpType, ev: e},
		"image":         &opaque{typ: imageDataType, ev: e},
		"json":          &opaque{typ: jsonType, ev: e},
		"yaml":          &opaque{typ: yamlType, ev: e},
	}
	return e
}

// errCostLimit is wrapped by every error that ends an evaluation because it
// spent its CEL cost budget.
var errCostLimit = errors.New("cost limit exceeded")

// eval runs one program and charges its cost to the evaluation.
func (e *evaluation) eval(p *program) (ref.Val, error) {
	if e.meterErr != nil {
		return nil, fmt.Errorf("%s: %w", p.expr.Path, e.meterErr)
	}
	if e.overCost {
		return nil, e.costError(p)
	}
	val, _, err := p.prg.Eval(e.act)
	if e.meterErr != nil {
		return nil, fmt.Errorf("%s: %w", p.expr.Path, e.meterErr)
	}
	if merr := e.meter(p); merr != nil {
		return nil, merr
	}
	if err != nil {
		if e.overCost {
			return nil, e.costError(p)
		}
		if msg := err.Error(); strings.HasPrefix(msg, "internal error: ") {
			// cel-go recovered a panic of a function: genplay's fault,
			// never an evaluation error Kyverno would report.
			panic(fmt.Sprintf("CEL evaluation of %s: %s", p.expr.Path, msg))
		}
		return nil, fmt.Errorf("%s: %v", p.expr.Path, err)
	}
	if e.cost > e.p.costLimit {
		e.overCost = true
		return nil, e.costError(p)
	}
	return val, nil
}

// meter charges the Host's Meter, if it has one, with the cost spent since
// the last charge.
func (e *evaluation) meter(p *program) error {
	if err := e.meterNow("CEL evaluation"); err != nil {
		return fmt.Errorf("%s: %w", p.expr.Path, err)
	}
	return nil
}

// meterNow charges the Host's Meter with what was spent since the last
// charge, as what.
func (e *evaluation) meterNow(what string) error {
	m, ok := e.host.(Meter)
	if !ok || e.cost <= e.charged {
		return nil
	}
	units := e.cost - e.charged
	e.charged = e.cost
	return m.Charge(int64(min(units, math.MaxInt64)), what)
}

func (e *evaluation) costError(p *program) error {
	why := fmt.Sprintf("the evaluation spent more than its CEL cost budget of %d", e.p.costLimit)
	if e.refusal != "" {
		why = e.refusal
	}
	err := fmt.Errorf("%s: %w: %s; genplay stops runaway expressions (Kyverno sets no limit for generating policies)", p.expr.Path, errCostLimit, why)
	if s, ok := e.host.(Stopper); ok {
		s.Stop(fmt.Sprintf("the CEL of %s: %s (genplay's CEL cost limit: Kyverno sets none for generating policies)", p.expr.Path, why))
	}
	return err
}

// variable evaluates variables.<name> once per evaluation.
func (e *evaluation) variable(name string) (ref.Val, bool) {
	i, ok := e.p.varIndex[name]
	if !ok {
		return nil, false
	}
	if !e.varDone[i] {
		v, err := e.eval(&e.p.variables[i].program)
		if err != nil {
			v = types.NewErrFromString(err.Error())
		}
		e.varVals[i], e.varDone[i] = v, true
	}
	return e.varVals[i], true
}

func (e *evaluation) now() time.Time {
	if c, ok := e.host.(Clock); ok {
		return c.Now().UTC()
	}
	return e.p.opts.Now.UTC()
}

func (e *evaluation) random(pattern string) (string, error) {
	if e.rng == nil {
		seed := e.p.opts.Seed
		if s, ok := e.host.(Seeder); ok {
			seed = s.Seed()
		}
		e.rng = rand.New(rand.NewPCG(seed, 0x6b7976657266))
	}
	return generateRandom(e.rng, pattern)
}

// Match evaluates matchConditions: all must be true. A false wins over
// errors; errors without a false are an evaluation error
// (K:pkg/cel/policies/gpol/compiler/policy.go match).
func (p *Policy) Match(in Input, h Host) (bool, error) {
	return matchAll(p.newEvaluation(in, h), p.matchConditions)
}

func matchAll(e *evaluation, conds []namedProgram) (bool, error) {
	var errs []error
	for i := range conds {
		v, err := e.eval(&conds[i].program)
		if err != nil {
			if errors.Is(err, errCostLimit) {
				return false, err
			}
			errs = append(errs, err)
			continue
		}
		if b, ok := v.(types.Bool); ok && !bool(b) {
			return false, nil
		}
	}
	if len(errs) > 0 {
		return false, errors.Join(errs...)
	}
	return true, nil
}

// Generate runs generate[] in order (variables are lazy and memoised); the
// side effects go to Host.Generate. An error aborts the remaining entries;
// what earlier entries applied stays.
func (p *Policy) Generate(in Input, h Host) error {
	e := p.newEvaluation(in, h)
	for i := range p.generate {
		g := &p.generate[i]
		if g.expr != nil {
			if _, err := e.eval(g.expr); err != nil {
				return err
			}
			continue
		}
		if err := e.applyTemplate(g.template); err != nil {
			return err
		}
	}
	return nil
}

// AuditAnnotations evaluates auditAnnotations; non-empty string results are
// kept under their key, null and "" are left out.
func (p *Policy) AuditAnnotations(in Input, h Host) (map[string]string, error) {
	e := p.newEvaluation(in, h)
	out := map[string]string{}
	for i := range p.audit {
		v, err := e.eval(&p.audit[i].program)
		if err != nil {
			return nil, err
		}
		if s, ok := v.(types.String); ok && s != "" {
			out[p.audit[i].key] = string(s)
		}
	}
	return out, nil
}

// UsesHTTP reports whether some expression of the policy references http.
func (p *Policy) UsesHTTP() bool { return p.usesHTTP }

// Namespace is the namespace the policy is confined to ("" for a
// GeneratingPolicy).
func (p *Policy) Namespace() string { return p.namespace }
