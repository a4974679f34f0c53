package generate

// Labels Kyverno writes on downstreams and clone sources (SEMANTICS §3 for
// ClusterPolicy/Policy, GENERATING-POLICY.md §3.5 for the CEL family, which
// writes trigger-name and source-uid but no policy-namespace, rule-name or
// other source-* labels).
const (
	LabelManagedBy       = "app.kubernetes.io/managed-by"
	ValueKyverno         = "kyverno"
	LabelPolicyName      = "generate.kyverno.io/policy-name"
	LabelPolicyNamespace = "generate.kyverno.io/policy-namespace"
	LabelRuleName        = "generate.kyverno.io/rule-name"
	LabelTriggerGroup    = "generate.kyverno.io/trigger-group"
	LabelTriggerVersion  = "generate.kyverno.io/trigger-version"
	LabelTriggerKind     = "generate.kyverno.io/trigger-kind"
	LabelTriggerNS       = "generate.kyverno.io/trigger-namespace"
	LabelTriggerUID      = "generate.kyverno.io/trigger-uid"
	LabelTriggerName     = "generate.kyverno.io/trigger-name" // pre-1.11 fallback, read only
	LabelCloneSource     = "generate.kyverno.io/clone-source"
	LabelSourceGroup     = "generate.kyverno.io/source-group"
	LabelSourceVersion   = "generate.kyverno.io/source-version"
	LabelSourceKind      = "generate.kyverno.io/source-kind"
	LabelSourceNS        = "generate.kyverno.io/source-namespace"
	LabelSourceUID       = "generate.kyverno.io/source-uid"
	LabelSourceName      = "generate.kyverno.io/source-name" // pre-1.11 fallback, read only
)
