package policy

import "github.com/genplay/genplay/engine/internal/schema"

func resourceDescription() *schema.Schema {
	return schema.Object(map[string]*schema.Schema{
		"kinds":             schema.Strings(),
		"name":              schema.Str(),
		"names":             schema.Strings(),
		"namespaces":        schema.Strings(),
		"annotations":       schema.StringMap(),
		"selector":          schema.LabelSelector(),
		"namespaceSelector": schema.LabelSelector(),
		"operations":        schema.ArrayOf(schema.Str("CREATE", "CONNECT", "UPDATE", "DELETE")),
	})
}

func userInfoProps(props map[string]*schema.Schema) map[string]*schema.Schema {
	props["roles"] = schema.Strings()
	props["clusterRoles"] = schema.Strings()
	props["subjects"] = schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"apiGroup":  schema.Str(),
		"kind":      schema.Str(),
		"name":      schema.Str(),
		"namespace": schema.Str(),
	}, "kind", "name"))
	return props
}

func resourceFilter() *schema.Schema {
	return schema.Object(userInfoProps(map[string]*schema.Schema{"resources": resourceDescription()}))
}

func matchResources(legacy bool) *schema.Schema {
	props := map[string]*schema.Schema{
		"any": schema.ArrayOf(resourceFilter()),
		"all": schema.ArrayOf(resourceFilter()),
	}
	if legacy {
		props["resources"] = resourceDescription()
		userInfoProps(props)
	}
	return schema.Object(props)
}

func contextEntries() *schema.Schema {
	return schema.ArrayOf(schema.Object(map[string]*schema.Schema{
		"name": schema.Str(),
		"variable": schema.Object(map[string]*schema.Schema{
			"value":    schema.Any(),
			"jmesPath": schema.Str(),
			"default":  schema.Any(),
		}),
		"configMap": schema.Object(map[string]*schema.Schema{
			"name":      schema.Str(),
			"namespace": schema.Str(),
		}, "name"),
		"apiCall": schema.Object(map[string]*schema.Schema{
			"urlPath":  schema.Str(),
			"method":   schema.Str("GET", "POST"),
			"jmesPath": schema.Str(),
			"default":  schema.Any(),
			"data": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
				"key":   schema.Str(),
				"value": schema.Any(),
			}, "key", "value")),
			"service": schema.Object(map[string]*schema.Schema{
				"url":      schema.Str(),
				"caBundle": schema.Str(),
				"headers": schema.ArrayOf(schema.Object(map[string]*schema.Schema{
					"key":   schema.Str(),
					"value": schema.Str(),
				}, "key", "value")),
			}, "url"),
		}),
		"globalReference": schema.Object(map[string]*schema.Schema{
			"name":     schema.Str(),
			"jmesPath": schema.Str(),
		}, "name"),
		"imageRegistry": schema.Object(map[string]*schema.Schema{
			"reference": schema.Str(),
			"jmesPath":  schema.Str(),
			"imageRegistryCredentials": schema.Object(map[string]*schema.Schema{
				"allowInsecureRegistry": schema.Bool(),
				"providers":             schema.ArrayOf(schema.Str("default", "amazon", "azure", "google", "github")),
				"secrets":               schema.Strings(),
			}),
		}, "reference"),
	}, "name"))
}

var conditionOperators = []string{"Equals", "NotEquals", "In", "AnyIn", "AllIn", "NotIn", "AnyNotIn", "AllNotIn",
	"GreaterThanOrEquals", "GreaterThan", "LessThanOrEquals", "LessThan",
	"DurationGreaterThanOrEquals", "DurationGreaterThan", "DurationLessThanOrEquals", "DurationLessThan"}

func anyAllConditions() *schema.Schema {
	cond := schema.Object(map[string]*schema.Schema{
		"key":      schema.Any(),
		"operator": schema.Str(conditionOperators...),
		"value":    schema.Any(),
		"message":  schema.Str(),
	})
	return schema.Object(map[string]*schema.Schema{"any": schema.ArrayOf(cond), "all": schema.ArrayOf(cond)})
}

// generatePatternProps are the fields shared by generate and its foreach entries.
func generatePatternProps() map[string]*schema.Schema {
	return map[string]*schema.Schema{
		"apiVersion": schema.Str(),
		"kind":       schema.Str(),
		"name":       schema.Str(),
		"namespace":  schema.Str(),
		"uid":        schema.Str(),
		"data":       schema.Any(),
		"clone": schema.Object(map[string]*schema.Schema{
			"name":      schema.Str(),
			"namespace": schema.Str(),
		}),
		"cloneList": schema.Object(map[string]*schema.Schema{
			"namespace": schema.Str(),
			"kinds":     schema.Strings(),
			"selector":  schema.LabelSelector(),
		}),
	}
}

func generation() *schema.Schema {
	props := generatePatternProps()
	props["synchronize"] = schema.Bool()
	props["orphanDownstreamOnPolicyDelete"] = schema.Bool()
	props["generateExisting"] = schema.Bool()
	foreach := generatePatternProps()
	foreach["list"] = schema.Str()
	foreach["context"] = contextEntries()
	foreach["preconditions"] = anyAllConditions()
	props["foreach"] = schema.ArrayOf(schema.Object(foreach))
	g := schema.Object(props)
	// A tutorial wrote "orphaned"; Kyverno has no such field and the API
	// server refuses it (seen on a real one: ../shared/kyverno/ORACLE.md).
	g.Suggest = map[string]string{"orphaned": "orphanDownstreamOnPolicyDelete"}
	return g
}

func policySchema(version string) *schema.Schema {
	legacy := version == "v1"
	preconditions := schema.Any()
	if !legacy {
		preconditions = anyAllConditions()
	}
	rule := schema.Object(map[string]*schema.Schema{
		"name":                   schema.Str(),
		"context":                contextEntries(),
		"match":                  matchResources(legacy),
		"exclude":                matchResources(legacy),
		"preconditions":          preconditions,
		"celPreconditions":       schema.ArrayOf(schema.Free()),
		"imageExtractors":        schema.Free(),
		"reportProperties":       schema.StringMap(),
		"skipBackgroundRequests": schema.Bool(),
		"generate":               generation(),
		"validate":               schema.Free(),
		"mutate":                 schema.Free(),
		"verifyImages":           schema.ArrayOf(schema.Free()),
	}, "match", "name")
	spec := schema.Object(map[string]*schema.Schema{
		"rules":                            schema.ArrayOf(rule),
		"admission":                        schema.Bool(),
		"applyRules":                       schema.Str("All", "One"),
		"background":                       schema.Bool(),
		"emitWarning":                      schema.Bool(),
		"failurePolicy":                    schema.Str("Ignore", "Fail"),
		"generateExisting":                 schema.Bool(),
		"generateExistingOnPolicyUpdate":   schema.Bool(),
		"mutateExistingOnPolicyUpdate":     schema.Bool(),
		"schemaValidation":                 schema.Bool(),
		"useServerSideApply":               schema.Bool(),
		"validationFailureAction":          schema.Str("audit", "enforce", "Audit", "Enforce"),
		"validationFailureActionOverrides": schema.ArrayOf(schema.Free()),
		"webhookConfiguration":             schema.Free(),
		"webhookTimeoutSeconds":            schema.Int(),
	})
	return schema.Object(map[string]*schema.Schema{
		"apiVersion": schema.Str(),
		"kind":       schema.Str(),
		"metadata":   schema.Free(),
		"spec":       spec,
		"status":     schema.Free(),
	}, "spec")
}

var schemas = map[string]*schema.Schema{
	"v1":      policySchema("v1"),
	"v2beta1": policySchema("v2beta1"),
}

// Schema returns the CRD schema of a kyverno.io ClusterPolicy or Policy of
// the version ("v1", "v2beta1"), or nil. It is the one Parse checks
// against; engine/fieldref describes it for the editor.
func Schema(version string) *schema.Schema { return schemas[version] }
