package conditions

import (
	"encoding/json"
	"fmt"
	"github.com/genplay/genplay/engine/internal/budget"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/variables"
)

// Condition is one precondition.
type Condition struct {
	Key      any
	Operator string
	Value    any
	Message  string
}

// Evaluate evaluates raw preconditions against ctx. conds is nil (always
// passes), {any: [...], all: [...]} or a list (all). When both any and all
// are present both must hold; an any list that is present but empty fails,
// as in Kyverno. reason is one sentence for the timeline: on failure the
// failing conditions, described or by their message; on success the
// messages of the conditions that held, if any.
func Evaluate(e *variables.Evaluator, ctx any, conds any) (passed bool, reason string, err error) {
	switch t := conds.(type) {
	case nil:
		return true, "", nil
	case resource.Object:
		return Evaluate(e, ctx, map[string]any(t))
	case map[string]any:
		var anyConds, allConds []Condition
		var hasAny bool
		for _, k := range resource.SortedKeys(t) {
			switch k {
			case "any":
				if t[k] == nil {
					continue
				}
				hasAny = true
				if anyConds, err = parseList(t[k]); err != nil {
					return false, "", fmt.Errorf("invalid preconditions: any: %w", err)
				}
			case "all":
				if allConds, err = parseList(t[k]); err != nil {
					return false, "", fmt.Errorf("invalid preconditions: all: %w", err)
				}
			default:
				return false, "", fmt.Errorf("invalid preconditions: unknown field %q (want any or all)", k)
			}
		}
		return evaluateAnyAll(e, ctx, hasAny, anyConds, allConds)
	case []any:
		list, err := parseList(t)
		if err != nil {
			return false, "", fmt.Errorf("invalid preconditions: %w", err)
		}
		return evaluateAnyAll(e, ctx, false, nil, list)
	default:
		return false, "", fmt.Errorf("invalid preconditions: want {any, all} or a list, got %T", conds)
	}
}

func parseList(v any) ([]Condition, error) {
	list, ok := v.([]any)
	if !ok {
		if v == nil {
			return nil, nil
		}
		return nil, fmt.Errorf("want a list of conditions, got %T", v)
	}
	out := make([]Condition, 0, len(list))
	for i, item := range list {
		c, err := parseCondition(item)
		if err != nil {
			return nil, fmt.Errorf("condition %d: %w", i, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseCondition(v any) (Condition, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return Condition{}, fmt.Errorf("want an object with key, operator and value, got %T", v)
	}
	var c Condition
	for k, val := range m {
		switch k {
		case "key":
			c.Key = val
		case "value":
			c.Value = val
		case "operator":
			s, ok := val.(string)
			if !ok {
				return c, fmt.Errorf("operator must be a string, got %T", val)
			}
			c.Operator = s
		case "message":
			s, ok := val.(string)
			if !ok {
				return c, fmt.Errorf("message must be a string, got %T", val)
			}
			c.Message = s
		default:
			return c, fmt.Errorf("unknown field %q", k)
		}
	}
	return c, nil
}

func evaluateAnyAll(e *variables.Evaluator, ctx any, hasAny bool, anyConds, allConds []Condition) (bool, string, error) {
	var passedMsgs, failedMsgs []string
	anyOK := true
	if hasAny {
		anyOK = false
		for _, c := range anyConds {
			ok, desc, err := evaluateOne(e, ctx, c)
			if err != nil {
				return false, "", err
			}
			if ok {
				anyOK = true
				passedMsgs = appendNonEmpty(passedMsgs, c.Message)
				failedMsgs = nil
				break
			}
			failedMsgs = append(failedMsgs, desc)
		}
		if !anyOK {
			if len(failedMsgs) == 0 {
				return false, "precondition failed: the any list is empty", nil
			}
			return false, "no precondition of any held: " + strings.Join(failedMsgs, "; "), nil
		}
	}
	for _, c := range allConds {
		ok, desc, err := evaluateOne(e, ctx, c)
		if err != nil {
			return false, "", err
		}
		if !ok {
			return false, "precondition failed: " + desc, nil
		}
		passedMsgs = appendNonEmpty(passedMsgs, c.Message)
	}
	return true, strings.Join(passedMsgs, "; "), nil
}

func appendNonEmpty(list []string, s string) []string {
	if s == "" {
		return list
	}
	return append(list, s)
}

// evaluateOne substitutes and compares one condition; desc describes it for
// a failure reason (its message when it has one).
func evaluateOne(e *variables.Evaluator, ctx any, c Condition) (bool, string, error) {
	op, ok := operators[strings.ToLower(c.Operator)]
	if !ok {
		return false, "", fmt.Errorf("failed to create handler for condition operator %q", c.Operator)
	}
	key, err := e.Substitute(ctx, c.Key)
	if err != nil {
		return false, "", fmt.Errorf("failed to substitute variables in condition key: %w", err)
	}
	value, err := e.Substitute(ctx, c.Value)
	if err != nil {
		return false, "", fmt.Errorf("failed to substitute variables in condition value: %w", err)
	}
	// An operator compares every key with every value, wildcards included
	// (O(pattern x text) each): the product of the sizes bounds its work.
	const limit = 1 << 40
	if err := e.Budget().Charge(budget.Size(key, limit)*budget.Size(value, limit), "condition operator "+op.name); err != nil {
		return false, "", err
	}
	result := op.eval(key, value)
	if c.Message != "" {
		return result, c.Message, nil
	}
	return result, describe(c.Key, key) + " " + op.name + " " + describe(c.Value, value), nil
}

// describe renders a raw operand as JSON, followed by its substituted value
// in parentheses when substitution changed it.
func describe(raw, resolved any) string {
	s := render(raw, true)
	if !resource.Equal(raw, resolved) {
		s += " (" + render(resolved, false) + ")"
	}
	return s
}

func render(v any, quote bool) string {
	if str, ok := v.(string); ok && !quote {
		return str
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 200
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
