package gpol

import (
	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/source"
)

// diags collects the diagnostics of one object.
type diags struct{ schema.Diags }

func newDiags(doc *source.Document) *diags { return &diags{Diags: *schema.NewDiags(doc)} }

// The CRD schemas of the simulated releases (kyverno/api config/crds):
// every served version of a kind has the same schema.

func namedExpressions(mapKeyed bool) *schema.Schema {
	key := ""
	if mapKeyed {
		key = "name"
	}
	return schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"name":       schema.Str(),
		"expression": schema.Str(),
	}, "expression", "name")).KeyedBy(key)
}

func resourceRules() *schema.Schema {
	return schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"apiGroups":     schema.Strings(),
		"apiVersions":   schema.Strings(),
		"operations":    schema.Strings(),
		"resourceNames": schema.Strings(),
		"resources":     schema.Strings(),
		"scope":         schema.Str(),
	}))
}

// exactlyOne is the x-kubernetes-validations rule of a generate entry.
var exactlyOne = schema.Rule{
	Message: "exactly one of expression or template must be set",
	Holds: func(m map[string]any) bool {
		_, e := m["expression"]
		_, t := m["template"]
		return e != t
	},
}

func enabled() *schema.Schema {
	return schema.Object(map[string]*schema.Schema{"enabled": schema.Bool()})
}

// The fields Kyverno v1.19.0's CRDs added (kyverno/api alpha.3): a
// v1.18.2 API server refuses them as unknown fields.
var (
	// Templates is the YAML template mode of a generate entry.
	Templates = upstream.Register(upstream.Change{
		ID: "kyverno#16699", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
		Title:  "generate entries can be YAML templates",
		Before: "accept only generate[].expression (generate[].template is an unknown field)",
		After:  "accept generate[].template, YAML with (( )) placeholders when interpolate is cel",
		Files:  []string{"pkg/cel/policies/gpol/template/template.go", "pkg/cel/policies/gpol/compiler/policy.go"},
	})
	// ServerSideApply is spec.useServerSideApply.
	ServerSideApply = upstream.Register(upstream.Change{
		ID: "kyverno#16403", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
		Title:  "GeneratingPolicies can write with server-side apply",
		Before: "have no spec.useServerSideApply (an unknown field): downstreams are created and, where updated, replaced",
		After:  "apply downstreams with the kyverno-generate field manager when spec.useServerSideApply is true",
		Files:  []string{"pkg/cel/libs/context.go"},
	})
	// AuditAnnotations is spec.auditAnnotations.
	AuditAnnotations = upstream.Register(upstream.Change{
		ID: "kyverno#16505", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
		Title:  "GeneratingPolicies have audit annotations",
		Before: "have no spec.auditAnnotations (an unknown field)",
		After:  "evaluate spec.auditAnnotations and write them as the report result's properties",
		Files:  []string{"pkg/cel/policies/gpol/compiler/policy.go", "pkg/cel/policies/gpol/engine/engine.go"},
	})
	// SkipBackgroundRequests is spec.evaluation.skipBackgroundRequests
	// and the webhook's skipping of Kyverno's own requests.
	SkipBackgroundRequests = upstream.Register(upstream.Change{
		ID: "kyverno#16369", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
		Title:  "GeneratingPolicies skip Kyverno's own requests",
		Before: "send requests made by Kyverno's background controller to every GeneratingPolicy (skipBackgroundRequests is an unknown field), so generated objects trigger policies",
		After:  "skip them unless spec.evaluation.skipBackgroundRequests is false",
		Files:  []string{"pkg/webhooks/resource/gpol/handler.go"},
	})
	// ExceptionExpiry is a PolicyException's expiresAt and properties.
	ExceptionExpiry = upstream.Register(upstream.Change{
		ID: "kyverno#16299", Since: upstream.V1_19_0, Family: upstream.FamilyCEL,
		Title:  "PolicyExceptions have expiresAt and properties",
		Before: "have no spec.expiresAt, spec.properties nor spec.evaluationMode in a CEL PolicyException (unknown fields)",
		After:  "accept them (a GeneratingPolicy does not look at expiresAt: kyverno#17473)",
		Files:  []string{"pkg/cel/engine/exception.go"},
	})
)

// specSchemaAt is the spec of a GeneratingPolicy in release v's CRDs.
func specSchemaAt(v upstream.Version) *schema.Schema {
	evaluation := map[string]*schema.Schema{
		"admission":                      enabled(),
		"generateExisting":               enabled(),
		"orphanDownstreamOnPolicyDelete": enabled(),
		"synchronize":                    enabled(),
	}
	generate := map[string]*schema.Schema{"expression": schema.Str()}
	fields := map[string]*schema.Schema{
		"evaluation":      schema.Object(evaluation),
		"matchConditions": namedExpressions(true),
		"matchConstraints": schema.Object(map[string]*schema.Schema{
			"excludeResourceRules": resourceRules(),
			"matchPolicy":          schema.Str(),
			"namespaceSelector":    schema.LabelSelector(),
			"objectSelector":       schema.LabelSelector(),
			"resourceRules":        resourceRules(),
		}),
		"variables": namedExpressions(true),
		"webhookConfiguration": schema.Object(map[string]*schema.Schema{
			"timeoutSeconds": schema.Int(),
		}),
	}
	entry := schema.Object(generate)
	if Templates.In(v) {
		generate["template"] = schema.Object(map[string]*schema.Schema{
			"interpolate": schema.Str(InterpolateNone, InterpolateCEL),
			"value":       schema.Str().WithMinLength(1),
		}, "value")
		entry = entry.WithRules(exactlyOne)
	}
	fields["generate"] = schema.ArrayOf(entry).WithMinItems(1)
	if AuditAnnotations.In(v) {
		fields["auditAnnotations"] = schema.ArrayOf(schema.Object(map[string]*schema.Schema{
			"key":             schema.Str(),
			"valueExpression": schema.Str(),
		}, "key", "valueExpression"))
	}
	if SkipBackgroundRequests.In(v) {
		evaluation["skipBackgroundRequests"] = schema.Bool()
	}
	if ServerSideApply.In(v) {
		fields["useServerSideApply"] = schema.Bool()
	}
	return schema.Object(fields, "generate")
}

// exceptionSchemaAt is a CEL PolicyException in release v's CRDs.
func exceptionSchemaAt(v upstream.Version) *schema.Schema {
	fields := map[string]*schema.Schema{
		"allowedValues":   schema.Strings(),
		"images":          schema.Strings(),
		"matchConditions": namedExpressions(false),
		"policyRefs": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
			"kind": schema.Str(),
			"name": schema.Str(),
		}, "kind", "name")),
		"reportResult": schema.Str("skip", "pass"),
	}
	if ExceptionExpiry.In(v) {
		fields["evaluationMode"] = schema.Str()
		fields["expiresAt"] = schema.Str()
		fields["properties"] = schema.StringMap()
	}
	return topLevel(schema.Object(fields, "policyRefs"))
}

func topLevel(spec *schema.Schema) *schema.Schema {
	return schema.Object(map[string]*schema.Schema{
		"apiVersion": schema.Str(),
		"kind":       schema.Str(),
		"metadata":   schema.Free(),
		"spec":       spec,
		"status":     schema.Free(),
	}, "spec")
}

// The schemas of every simulated release, built once.
var (
	policySchemas    = map[upstream.Version]*schema.Schema{}
	exceptionSchemas = map[upstream.Version]*schema.Schema{}
)

func init() {
	for _, v := range upstream.Versions() {
		policySchemas[v] = topLevel(specSchemaAt(v))
		exceptionSchemas[v] = exceptionSchemaAt(v)
	}
}

// Schema returns the CRD schema of a GeneratingPolicy (and of a
// NamespacedGeneratingPolicy: the same) of the latest release, the one
// Parse checks against; engine/fieldref describes it for the editor.
func Schema() *schema.Schema { return policySchemas[upstream.Latest] }
