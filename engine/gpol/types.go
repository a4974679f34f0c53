package gpol

import (
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Group is the API group of Kyverno's CEL policies.
const Group = "policies.kyverno.io"

// Kinds of the CEL generate family.
const (
	KindGeneratingPolicy           = "GeneratingPolicy"
	KindNamespacedGeneratingPolicy = "NamespacedGeneratingPolicy"
	KindPolicyException            = "PolicyException"
)

// Interpolation modes of a generate template.
const (
	InterpolateNone = "none"
	InterpolateCEL  = "cel"
)

// Match policies of matchConstraints.
const (
	MatchPolicyExact      = "Exact"
	MatchPolicyEquivalent = "Equivalent"
)

// Expression is one CEL expression (or template text) of a policy, with
// where it was written.
type Expression struct {
	// Text is the expression as the YAML value gives it.
	Text string
	// Path is the field path: "spec.generate[0].expression".
	Path string
	// Pos is where the scalar's value starts in the YAML.
	Pos source.Pos
	// scalar maps positions inside Text back to the file; nil when the
	// policy was not read from a document.
	scalar *source.Scalar
}

// PosAt maps a position inside Text (line and column 1-based, columns
// counted in Unicode code points as CEL counts them) to the YAML file. When
// the mapping is not exact (an escape sequence, a folded line break), it is
// the nearest position that is; without a source it is Pos.
func (e Expression) PosAt(line, col int) source.Pos {
	if e.scalar == nil {
		return e.Pos
	}
	return e.scalar.PosAt(line, col)
}

// PosAtOffset maps a rune offset into Text (0-based) to the YAML file.
func (e Expression) PosAtOffset(offset int) source.Pos {
	if e.scalar == nil {
		return e.Pos
	}
	return e.scalar.PosAtOffset(offset)
}

// NamedExpression is a {name, expression} entry: a match condition or a
// variable.
type NamedExpression struct {
	Name       string
	Expression Expression
}

// Policy is a parsed GeneratingPolicy or NamespacedGeneratingPolicy.
type Policy struct {
	APIVersion string // policies.kyverno.io/v1, v1beta1 or v1alpha1
	Kind       string // KindGeneratingPolicy or KindNamespacedGeneratingPolicy
	Name       string
	Namespace  string // "" for a GeneratingPolicy
	Spec       Spec
	Raw        resource.Object
	// Source is the document the policy was read from; it may be nil.
	Source *source.Document
	// File names the input when Source is nil.
	File string
}

// Key identifies the policy: "GeneratingPolicy/name" or
// "NamespacedGeneratingPolicy/ns/name".
func (p *Policy) Key() string {
	if p.Namespaced() {
		return KindNamespacedGeneratingPolicy + "/" + p.Namespace + "/" + p.Name
	}
	return KindGeneratingPolicy + "/" + p.Name
}

// Namespaced reports whether p is a NamespacedGeneratingPolicy.
func (p *Policy) Namespaced() bool { return p.Kind == KindNamespacedGeneratingPolicy }

// Spec is GeneratingPolicySpec with Kyverno's defaults applied.
type Spec struct {
	// MatchConstraints is nil when absent (Validate rejects that).
	MatchConstraints *MatchResources
	MatchConditions  []NamedExpression
	Variables        []NamedExpression
	Generate         []Generation
	Evaluation       Evaluation
	// WebhookTimeoutSeconds is webhookConfiguration.timeoutSeconds; nil when unset.
	WebhookTimeoutSeconds *int32
	AuditAnnotations      []AuditAnnotation
	UseServerSideApply    bool
}

// Generation is one spec.generate entry: exactly one of Expression and
// Template is set in a valid policy.
type Generation struct {
	Expression *Expression
	Template   *Template
}

// Template is generate[].template.
type Template struct {
	// Value is the YAML text; its Pos and PosAt map lines of the template
	// back to the policy file.
	Value Expression
	// Interpolate is InterpolateNone (default) or InterpolateCEL.
	Interpolate string
}

// Evaluation is spec.evaluation with Kyverno's defaults applied.
type Evaluation struct {
	AdmissionEnabled               bool // default true
	GenerateExisting               bool
	Synchronize                    bool
	OrphanDownstreamOnPolicyDelete bool
	SkipBackgroundRequests         bool // default true
}

// AuditAnnotation is a spec.auditAnnotations entry.
type AuditAnnotation struct {
	Key             string
	ValueExpression Expression
}

// LabelSelector is a Kubernetes label selector, without Kyverno's wildcards.
type LabelSelector = labels.Selector

// Requirement is one matchExpressions entry of a LabelSelector.
type Requirement = labels.Requirement

// MatchResources is admissionregistration/v1 MatchResources.
type MatchResources struct {
	ResourceRules        []ResourceRule
	ExcludeResourceRules []ResourceRule
	// NamespaceSelector and ObjectSelector are nil when absent (select
	// everything).
	NamespaceSelector *LabelSelector
	ObjectSelector    *LabelSelector
	// MatchPolicy is MatchPolicyExact or MatchPolicyEquivalent (default).
	MatchPolicy string
}

// ResourceRule is a NamedRuleWithOperations.
type ResourceRule struct {
	APIGroups     []string
	APIVersions   []string
	Resources     []string
	Operations    []string
	ResourceNames []string
	// Scope is "Cluster", "Namespaced" or "*" (default).
	Scope string
}

// PolicyRef is a PolicyException's spec.policyRefs entry.
type PolicyRef struct {
	Name string
	Kind string
}

// Exception is a policies.kyverno.io PolicyException.
type Exception struct {
	APIVersion      string
	Name, Namespace string
	PolicyRefs      []PolicyRef
	MatchConditions []NamedExpression
	Images          []string
	AllowedValues   []string
	// ReportResult is "skip" (default) or "pass".
	ReportResult string
	// ExpiresAt, Properties and EvaluationMode are read but, as in Kyverno
	// 1.19 for generating policies, not honoured.
	ExpiresAt      string
	Properties     map[string]string
	EvaluationMode string
	// Priority is the integer label polex.kyverno.io/priority; 0 when
	// absent or not a positive integer.
	Priority int
	Raw      resource.Object
	Source   *source.Document
	File     string
}
