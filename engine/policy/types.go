package policy

import (
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Kinds of policy the engine understands.
const (
	KindClusterPolicy = "ClusterPolicy"
	KindPolicy        = "Policy"
)

// Policy is a parsed kyverno.io ClusterPolicy or namespaced Policy.
// Only what shapes generate behaviour is typed; Raw keeps the whole object.
type Policy struct {
	APIVersion string // kyverno.io/v1 or kyverno.io/v2beta1
	Kind       string // KindClusterPolicy or KindPolicy
	Name       string
	Namespace  string // empty for a ClusterPolicy
	Spec       Spec
	Raw        resource.Object
	// Source is the document the policy was read from; diagnostics take
	// their positions from it. It may be nil.
	Source *source.Document
	// File names the input when Source is nil.
	File string
}

// Spec holds the policy-level fields that matter to generate rules.
type Spec struct {
	Rules []Rule
	// Background is spec.background (default true).
	Background bool
	// GenerateExisting is the deprecated spec.generateExisting, the fallback
	// for rules that leave generate.generateExisting unset.
	GenerateExisting bool
	// UseServerSideApply is spec.useServerSideApply.
	UseServerSideApply bool
	// ApplyRules is spec.applyRules: "All" (default) or "One".
	ApplyRules string
	// Admission is spec.admission (default true).
	Admission bool
}

// Rule is one entry of spec.rules.
type Rule struct {
	Name    string
	Index   int // position in spec.rules
	Match   MatchBlock
	Exclude MatchBlock
	// Context is the raw rule context: a list of {name, variable|configMap|apiCall|...}.
	Context []any
	// Preconditions is the raw preconditions value: {any: [...], all: [...]} or a legacy list.
	Preconditions any
	// SkipBackgroundRequests is rule.skipBackgroundRequests (default true).
	SkipBackgroundRequests bool
	// Generate is nil for rules of other types (validate, mutate, verifyImages).
	Generate *Generation
	// Raw is the rule as written.
	Raw map[string]any
}

// MatchBlock is a match or exclude block. The legacy form (resources,
// subjects, roles, clusterRoles directly under match) is parsed as All with
// one filter. An empty block has neither Any nor All.
type MatchBlock struct {
	Any []Filter
	All []Filter
}

// Empty reports whether the block lists no filter.
func (m MatchBlock) Empty() bool { return len(m.Any) == 0 && len(m.All) == 0 }

// Filter is one entry of match.any / match.all (a ResourceFilter in Kyverno).
type Filter struct {
	Resources    ResourceDescription
	Subjects     []Subject
	Roles        []string
	ClusterRoles []string
}

// ResourceDescription is Kyverno's resources block.
type ResourceDescription struct {
	Kinds             []string
	Name              string
	Names             []string
	Namespaces        []string
	Annotations       map[string]string
	Selector          *LabelSelector
	NamespaceSelector *LabelSelector
	Operations        []string // CREATE, UPDATE, DELETE, CONNECT
}

// Subject is an RBAC subject in match.userInfo.
type Subject struct {
	Kind      string
	Name      string
	Namespace string
}

// LabelSelector is a metav1.LabelSelector; engine/match gives it Kyverno's
// semantics (wildcards in matchLabels).
type LabelSelector = labels.Selector

// Requirement is one matchExpressions entry.
type Requirement = labels.Requirement

// Generation is a rule's generate block.
type Generation struct {
	Target
	Synchronize bool
	// OrphanDownstreamOnPolicyDelete is generate.orphanDownstreamOnPolicyDelete.
	OrphanDownstreamOnPolicyDelete bool
	// GenerateExisting is generate.generateExisting; nil when unset.
	GenerateExisting *bool
	ForEach          []ForEach
}

// Target is what one generate pattern produces: the downstream identity and
// where its content comes from. It is shared by a rule's generate block and
// each foreach entry. Strings may hold {{ }} variables.
type Target struct {
	APIVersion string
	Kind       string
	Name       string
	Namespace  string
	// Data is the raw data value; HasData tells an absent data from a null one.
	Data      any
	HasData   bool
	Clone     *Clone
	CloneList *CloneList
}

// Clone is generate.clone.
type Clone struct {
	Namespace string
	Name      string
}

// CloneList is generate.cloneList.
type CloneList struct {
	Namespace string
	Kinds     []string // "v1/Secret", "Secret", "apps/v1/Deployment"
	Selector  *LabelSelector
}

// ForEach is one generate.foreach entry.
type ForEach struct {
	Target
	// List is a JMESPath expression without braces.
	List          string
	Context       []any
	Preconditions any
}

// Key identifies the policy: "ClusterPolicy/name" or "Policy/namespace/name".
func (p *Policy) Key() string {
	if p.Kind == KindPolicy {
		return KindPolicy + "/" + p.Namespace + "/" + p.Name
	}
	return KindClusterPolicy + "/" + p.Name
}

// Rule returns the rule with the given name, or nil.
func (p *Policy) Rule(name string) *Rule {
	for i := range p.Spec.Rules {
		if p.Spec.Rules[i].Name == name {
			return &p.Spec.Rules[i]
		}
	}
	return nil
}

// GenerateExisting reports whether a rule applies to triggers that already
// exist: the rule's generate.generateExisting, or spec.generateExisting when unset.
func (p *Policy) GenerateExisting(r *Rule) bool {
	if r.Generate == nil {
		return false
	}
	if r.Generate.GenerateExisting != nil {
		return *r.Generate.GenerateExisting
	}
	return p.Spec.GenerateExisting
}
