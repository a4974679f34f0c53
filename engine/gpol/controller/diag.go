package controller

import (
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// diagnostic points a runtime error at the expression it names: the
// compiler's errors start with the expression's path
// ("spec.generate[0].expression: ..."); without one, at spec.generate.
func diagnostic(p *gpol.Policy, msg string) timeline.Diagnostic {
	pos := source.Pos{File: p.File}
	if p.Source != nil {
		pos = p.Source.Pos("spec", "generate")
	}
	if e, ok := expressionNamed(p, msg); ok {
		pos = e.Pos
	}
	return timeline.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Col, Severity: source.SeverityWarning,
		Message: "GeneratingPolicy " + p.Name + " failed: " + msg}
}

// expressionNamed finds the expression whose path msg mentions first.
func expressionNamed(p *gpol.Policy, msg string) (gpol.Expression, bool) {
	var all []gpol.Expression
	for _, m := range p.Spec.MatchConditions {
		all = append(all, m.Expression)
	}
	for _, v := range p.Spec.Variables {
		all = append(all, v.Expression)
	}
	for _, g := range p.Spec.Generate {
		if g.Expression != nil {
			all = append(all, *g.Expression)
		}
		if g.Template != nil {
			all = append(all, g.Template.Value)
		}
	}
	for _, a := range p.Spec.AuditAnnotations {
		all = append(all, a.ValueExpression)
	}
	best, at := gpol.Expression{}, -1
	for _, e := range all {
		if e.Path == "" {
			continue
		}
		if i := strings.Index(msg, e.Path+":"); i >= 0 && (at < 0 || i < at) {
			best, at = e, i
		}
	}
	return best, at >= 0
}

// rule names the generate entry that is applying, for the timeline: with
// one entry it is spec.generate[0]; with several, the apply core cannot
// tell which entry called generator.apply, so the policy is named alone.
func (ev *evaluation) rule() string {
	if len(ev.e.p.Spec.Generate) == 1 {
		return "spec.generate[0]"
	}
	return ""
}

var generatePath = regexp.MustCompile(`spec\.(generate|variables|matchConditions|auditAnnotations)\[\d+\]`)

// failedRule names the entry a runtime error names first
// ("spec.generate[0].expression: ...").
func failedRule(msg string) string { return generatePath.FindString(msg) }
