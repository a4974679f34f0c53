// Package gpol is the model of Kyverno's CEL generate policies.
//
// This file is a temporary stub of helper B's contract (GPOL-DESIGN.md) so
// that engine/gpol/compiler builds before branch gpol-model lands; it is
// deleted when that branch is merged.
package gpol

import (
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Kinds and group of the policies.kyverno.io family.
const (
	Group                          = "policies.kyverno.io"
	KindGeneratingPolicy           = "GeneratingPolicy"
	KindNamespacedGeneratingPolicy = "NamespacedGeneratingPolicy"
	KindPolicyException            = "PolicyException"
)

// Expression is a CEL expression with its place in the YAML.
type Expression struct {
	Text string
	Path string
	Pos  source.Pos
}

// PosAt maps a 1-based (line, col) inside Text to the YAML. The stub is
// exact for single-line plain scalars only.
func (e Expression) PosAt(line, col int) source.Pos {
	p := e.Pos
	if line <= 1 {
		p.Col += col - 1
		return p
	}
	p.Line += line - 1
	p.Col = col
	return p
}

// NamedExpression is a matchConditions or variables entry.
type NamedExpression struct {
	Name       string
	Expression Expression
}

// Policy is a GeneratingPolicy or NamespacedGeneratingPolicy.
type Policy struct {
	APIVersion, Kind, Name, Namespace string
	Spec                              Spec
	Raw                               resource.Object
	Source                            *source.Document
}

// Namespaced reports whether the policy is a NamespacedGeneratingPolicy.
func (p *Policy) Namespaced() bool { return p.Kind == KindNamespacedGeneratingPolicy }

// Spec is the policy spec.
type Spec struct {
	MatchConditions  []NamedExpression
	Variables        []NamedExpression
	Generate         []Generation
	AuditAnnotations []AuditAnnotation
}

// AuditAnnotation is an auditAnnotations entry.
type AuditAnnotation struct {
	Key             string
	ValueExpression Expression
}

// Generation is a generate[] entry: exactly one of Expression, Template.
type Generation struct {
	Expression *Expression
	Template   *Template
}

// Template is generate[].template.
type Template struct {
	Value       Expression
	Interpolate string
}

// PolicyRef is an exception's policyRefs entry.
type PolicyRef struct{ Name, Kind string }

// Exception is a policies.kyverno.io PolicyException.
type Exception struct {
	Name, Namespace string
	PolicyRefs      []PolicyRef
	MatchConditions []NamedExpression
	Images          []string
	AllowedValues   []string
	ReportResult    string
	Raw             resource.Object
	Source          *source.Document
}
