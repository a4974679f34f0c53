package gpol

import (
	"github.com/genplay/genplay/engine/internal/schema"
	"github.com/genplay/genplay/engine/source"
)

// diags collects the diagnostics of one object.
type diags struct{ schema.Diags }

func newDiags(doc *source.Document) *diags { return &diags{Diags: *schema.NewDiags(doc)} }

// The CRD schemas of Kyverno 1.19 (kyverno/api config/crds): every served
// version of a kind has the same schema.

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

var specSchema = schema.Object(map[string]*schema.Schema{
	"auditAnnotations": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"key":             schema.Str(),
		"valueExpression": schema.Str(),
	}, "key", "valueExpression")),
	"evaluation": schema.Object(map[string]*schema.Schema{
		"admission":                      enabled(),
		"generateExisting":               enabled(),
		"orphanDownstreamOnPolicyDelete": enabled(),
		"skipBackgroundRequests":         schema.Bool(),
		"synchronize":                    enabled(),
	}),
	"generate": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"expression": schema.Str(),
		"template": schema.Object(map[string]*schema.Schema{
			"interpolate": schema.Str(InterpolateNone, InterpolateCEL),
			"value":       schema.Str().WithMinLength(1),
		}, "value"),
	}).WithRules(exactlyOne)).WithMinItems(1),
	"matchConditions": namedExpressions(true),
	"matchConstraints": schema.Object(map[string]*schema.Schema{
		"excludeResourceRules": resourceRules(),
		"matchPolicy":          schema.Str(),
		"namespaceSelector":    schema.LabelSelector(),
		"objectSelector":       schema.LabelSelector(),
		"resourceRules":        resourceRules(),
	}),
	"useServerSideApply": schema.Bool(),
	"variables":          namedExpressions(true),
	"webhookConfiguration": schema.Object(map[string]*schema.Schema{
		"timeoutSeconds": schema.Int(),
	}),
}, "generate")

func topLevel(spec *schema.Schema) *schema.Schema {
	return schema.Object(map[string]*schema.Schema{
		"apiVersion": schema.Str(),
		"kind":       schema.Str(),
		"metadata":   schema.Free(),
		"spec":       spec,
		"status":     schema.Free(),
	}, "spec")
}

var policySchema = topLevel(specSchema)

var exceptionSchema = topLevel(schema.Object(map[string]*schema.Schema{
	"allowedValues":   schema.Strings(),
	"evaluationMode":  schema.Str(),
	"expiresAt":       schema.Str(),
	"images":          schema.Strings(),
	"matchConditions": namedExpressions(false),
	"policyRefs": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"kind": schema.Str(),
		"name": schema.Str(),
	}, "kind", "name")),
	"properties":   schema.StringMap(),
	"reportResult": schema.Str("skip", "pass"),
}, "policyRefs"))

// Schema returns the CRD schema of a GeneratingPolicy (and of a
// NamespacedGeneratingPolicy: the same), the one Parse checks against;
// engine/fieldref describes it for the editor.
func Schema() *schema.Schema { return policySchema }
