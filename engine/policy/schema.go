package policy

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// typ is an OpenAPI type of Kyverno's CRD schema.
type typ uint8

const (
	tAny       typ = iota // x-kubernetes-preserve-unknown-fields without a type
	tObject               // object with known properties
	tFree                 // object with any content
	tArray                //
	tString               //
	tBool                 //
	tInt                  //
	tStringMap            // object with string values
)

// schema is the part of a CRD schema that strict validation needs.
type schema struct {
	typ      typ
	props    map[string]*schema
	items    *schema
	enum     []string
	required []string
}

func object(props map[string]*schema, required ...string) *schema {
	return &schema{typ: tObject, props: props, required: required}
}
func arrayOf(items *schema) *schema { return &schema{typ: tArray, items: items} }
func str(enum ...string) *schema    { return &schema{typ: tString, enum: enum} }
func boolean() *schema              { return &schema{typ: tBool} }
func integer() *schema              { return &schema{typ: tInt} }
func free() *schema                 { return &schema{typ: tFree} }
func anything() *schema             { return &schema{typ: tAny} }
func stringMap() *schema            { return &schema{typ: tStringMap} }
func stringsSchema() *schema        { return arrayOf(str()) }

func labelSelector() *schema {
	return object(map[string]*schema{
		"matchLabels": stringMap(),
		"matchExpressions": arrayOf(object(map[string]*schema{
			"key":      str(),
			"operator": str(),
			"values":   stringsSchema(),
		}, "key", "operator")),
	})
}

func resourceDescription() *schema {
	return object(map[string]*schema{
		"kinds":             stringsSchema(),
		"name":              str(),
		"names":             stringsSchema(),
		"namespaces":        stringsSchema(),
		"annotations":       stringMap(),
		"selector":          labelSelector(),
		"namespaceSelector": labelSelector(),
		"operations":        arrayOf(str("CREATE", "CONNECT", "UPDATE", "DELETE")),
	})
}

func userInfoProps(props map[string]*schema) map[string]*schema {
	props["roles"] = stringsSchema()
	props["clusterRoles"] = stringsSchema()
	props["subjects"] = arrayOf(object(map[string]*schema{
		"apiGroup":  str(),
		"kind":      str(),
		"name":      str(),
		"namespace": str(),
	}, "kind", "name"))
	return props
}

func resourceFilter() *schema {
	return object(userInfoProps(map[string]*schema{"resources": resourceDescription()}))
}

func matchResources(legacy bool) *schema {
	props := map[string]*schema{
		"any": arrayOf(resourceFilter()),
		"all": arrayOf(resourceFilter()),
	}
	if legacy {
		props["resources"] = resourceDescription()
		userInfoProps(props)
	}
	return object(props)
}

func contextEntries() *schema {
	return arrayOf(object(map[string]*schema{
		"name": str(),
		"variable": object(map[string]*schema{
			"value":    anything(),
			"jmesPath": str(),
			"default":  anything(),
		}),
		"configMap": object(map[string]*schema{
			"name":      str(),
			"namespace": str(),
		}, "name"),
		"apiCall": object(map[string]*schema{
			"urlPath":  str(),
			"method":   str("GET", "POST"),
			"jmesPath": str(),
			"default":  anything(),
			"data": arrayOf(object(map[string]*schema{
				"key":   str(),
				"value": anything(),
			}, "key", "value")),
			"service": object(map[string]*schema{
				"url":      str(),
				"caBundle": str(),
				"headers": arrayOf(object(map[string]*schema{
					"key":   str(),
					"value": str(),
				}, "key", "value")),
			}, "url"),
		}),
		"globalReference": object(map[string]*schema{
			"name":     str(),
			"jmesPath": str(),
		}, "name"),
		"imageRegistry": object(map[string]*schema{
			"reference": str(),
			"jmesPath":  str(),
			"imageRegistryCredentials": object(map[string]*schema{
				"allowInsecureRegistry": boolean(),
				"providers":             arrayOf(str("default", "amazon", "azure", "google", "github")),
				"secrets":               stringsSchema(),
			}),
		}, "reference"),
	}, "name"))
}

var conditionOperators = []string{"Equals", "NotEquals", "In", "AnyIn", "AllIn", "NotIn", "AnyNotIn", "AllNotIn",
	"GreaterThanOrEquals", "GreaterThan", "LessThanOrEquals", "LessThan",
	"DurationGreaterThanOrEquals", "DurationGreaterThan", "DurationLessThanOrEquals", "DurationLessThan"}

func anyAllConditions() *schema {
	cond := object(map[string]*schema{
		"key":      anything(),
		"operator": str(conditionOperators...),
		"value":    anything(),
		"message":  str(),
	})
	return object(map[string]*schema{"any": arrayOf(cond), "all": arrayOf(cond)})
}

// generatePatternProps are the fields shared by generate and its foreach entries.
func generatePatternProps() map[string]*schema {
	return map[string]*schema{
		"apiVersion": str(),
		"kind":       str(),
		"name":       str(),
		"namespace":  str(),
		"uid":        str(),
		"data":       anything(),
		"clone": object(map[string]*schema{
			"name":      str(),
			"namespace": str(),
		}),
		"cloneList": object(map[string]*schema{
			"namespace": str(),
			"kinds":     stringsSchema(),
			"selector":  labelSelector(),
		}),
	}
}

func generation() *schema {
	props := generatePatternProps()
	props["synchronize"] = boolean()
	props["orphanDownstreamOnPolicyDelete"] = boolean()
	props[orphanedAlias] = boolean() // not in the CRD; see Parse
	props["generateExisting"] = boolean()
	foreach := generatePatternProps()
	foreach["list"] = str()
	foreach["context"] = contextEntries()
	foreach["preconditions"] = anyAllConditions()
	props["foreach"] = arrayOf(object(foreach))
	return object(props)
}

// orphanedAlias is the field name some tutorials use for
// orphanDownstreamOnPolicyDelete.
const orphanedAlias = "orphaned"

func policySchema(version string) *schema {
	legacy := version == "v1"
	preconditions := anything()
	if !legacy {
		preconditions = anyAllConditions()
	}
	rule := object(map[string]*schema{
		"name":                   str(),
		"context":                contextEntries(),
		"match":                  matchResources(legacy),
		"exclude":                matchResources(legacy),
		"preconditions":          preconditions,
		"celPreconditions":       arrayOf(free()),
		"imageExtractors":        free(),
		"reportProperties":       stringMap(),
		"skipBackgroundRequests": boolean(),
		"generate":               generation(),
		"validate":               free(),
		"mutate":                 free(),
		"verifyImages":           arrayOf(free()),
	}, "match", "name")
	spec := object(map[string]*schema{
		"rules":                            arrayOf(rule),
		"admission":                        boolean(),
		"applyRules":                       str("All", "One"),
		"background":                       boolean(),
		"emitWarning":                      boolean(),
		"failurePolicy":                    str("Ignore", "Fail"),
		"generateExisting":                 boolean(),
		"generateExistingOnPolicyUpdate":   boolean(),
		"mutateExistingOnPolicyUpdate":     boolean(),
		"schemaValidation":                 boolean(),
		"useServerSideApply":               boolean(),
		"validationFailureAction":          str("audit", "enforce", "Audit", "Enforce"),
		"validationFailureActionOverrides": arrayOf(free()),
		"webhookConfiguration":             free(),
		"webhookTimeoutSeconds":            integer(),
	})
	return object(map[string]*schema{
		"apiVersion": str(),
		"kind":       str(),
		"metadata":   free(),
		"spec":       spec,
		"status":     free(),
	}, "spec")
}

var schemas = map[string]*schema{
	"v1":      policySchema("v1"),
	"v2beta1": policySchema("v2beta1"),
}

// jsonType names a value's type as OpenAPI validation messages do.
func jsonType(v any) string {
	switch t := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if t == math.Trunc(t) {
			return "integer"
		}
		return "number"
	case map[string]any, resource.Object:
		return "object"
	case []any:
		return "array"
	}
	return fmt.Sprintf("%T", v)
}

// check validates v against s like the API server with strict field
// validation: unknown fields, wrong types, enums and missing required fields.
func (s *schema) check(d *diags, v any, p fieldPath) {
	if v == nil {
		return // the API server prunes nulls of non-nullable fields
	}
	if o, ok := v.(resource.Object); ok {
		v = map[string]any(o)
	}
	typeError := func(want string) {
		d.errorf(p, "%s: Invalid value: %q: %s in body must be of type %s: %q", p, jsonType(v), p, want, jsonType(v))
	}
	switch s.typ {
	case tAny:
	case tObject, tFree, tStringMap:
		m, ok := v.(map[string]any)
		if !ok {
			typeError("object")
			return
		}
		switch s.typ {
		case tStringMap:
			for _, k := range resource.SortedKeys(m) {
				if _, ok := m[k].(string); !ok && m[k] != nil {
					kp := p.key(k)
					d.errorf(kp, "%s: Invalid value: %q: %s in body must be of type string: %q", kp, jsonType(m[k]), kp, jsonType(m[k]))
				}
			}
		case tObject:
			for _, k := range resource.SortedKeys(m) {
				child, known := s.props[k]
				if !known {
					d.errorf(p.key(k), "strict decoding error: unknown field %q", p.key(k).String())
					continue
				}
				child.check(d, m[k], p.key(k))
			}
			for _, r := range s.required {
				if _, ok := m[r]; !ok {
					d.errorf(p, "%s: Required value", p.key(r))
				}
			}
		}
	case tArray:
		l, ok := v.([]any)
		if !ok {
			typeError("array")
			return
		}
		for i, e := range l {
			s.items.check(d, e, p.index(i))
		}
	case tString:
		sv, ok := v.(string)
		if !ok {
			typeError("string")
			return
		}
		if len(s.enum) > 0 && !slices.Contains(s.enum, sv) {
			quoted := make([]string, len(s.enum))
			for i, e := range s.enum {
				quoted[i] = fmt.Sprintf("%q", e)
			}
			d.errorf(p, "%s: Unsupported value: %q: supported values: %s", p, sv, strings.Join(quoted, ", "))
		}
	case tBool:
		if _, ok := v.(bool); !ok {
			typeError("boolean")
		}
	case tInt:
		if jsonType(v) != "integer" {
			typeError("integer")
		}
	}
}
