package schema

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// Type is an OpenAPI type of a CRD schema.
type Type uint8

// The types strict validation distinguishes.
const (
	TAny       Type = iota // x-kubernetes-preserve-unknown-fields without a type
	TObject                // object with known properties
	TFree                  // object with any content
	TArray                 //
	TString                //
	TBool                  //
	TInt                   //
	TStringMap             // object with string values
)

// Schema is one node of a CRD schema.
type Schema struct {
	Type     Type
	Props    map[string]*Schema
	Items    *Schema
	Enum     []string
	Required []string
	// MinItems (arrays) and MinLength (strings) are checked when > 0.
	MinItems, MinLength int
	// Rules are x-kubernetes-validations of an object, written in Go.
	Rules []Rule
	// MapKey makes an array an x-kubernetes-list-type: map keyed by this
	// field of its items: two items with the same key are an error.
	MapKey string
	// Suggest names, for an unknown field of an object that people write
	// by mistake (a tutorial's name for it), the field they meant: the
	// API server's error is followed by `; did you mean "<field>"?`.
	Suggest map[string]string
}

// Rule is an x-kubernetes-validations rule: when Holds is false the API
// server reports `<path>: Invalid value: "object": <Message>`.
type Rule struct {
	Message string
	Holds   func(obj map[string]any) bool
}

// Object is an object with known properties.
func Object(props map[string]*Schema, required ...string) *Schema {
	return &Schema{Type: TObject, Props: props, Required: required}
}

// ArrayOf is an array of items.
func ArrayOf(items *Schema) *Schema { return &Schema{Type: TArray, Items: items} }

// Str is a string, restricted to enum when given.
func Str(enum ...string) *Schema { return &Schema{Type: TString, Enum: enum} }

// Bool is a boolean.
func Bool() *Schema { return &Schema{Type: TBool} }

// Int is an integer.
func Int() *Schema { return &Schema{Type: TInt} }

// Free is an object with any content.
func Free() *Schema { return &Schema{Type: TFree} }

// Any is any value.
func Any() *Schema { return &Schema{Type: TAny} }

// StringMap is an object with string values.
func StringMap() *Schema { return &Schema{Type: TStringMap} }

// Strings is an array of strings.
func Strings() *Schema { return ArrayOf(Str()) }

// WithMinItems sets MinItems and returns s.
func (s *Schema) WithMinItems(n int) *Schema { s.MinItems = n; return s }

// WithMinLength sets MinLength and returns s.
func (s *Schema) WithMinLength(n int) *Schema { s.MinLength = n; return s }

// KeyedBy makes s a list-map keyed by key and returns s.
func (s *Schema) KeyedBy(key string) *Schema { s.MapKey = key; return s }

// WithRules adds x-kubernetes-validations rules and returns s.
func (s *Schema) WithRules(r ...Rule) *Schema { s.Rules = append(s.Rules, r...); return s }

// LabelSelector is metav1.LabelSelector.
func LabelSelector() *Schema {
	return Object(map[string]*Schema{
		"matchLabels": StringMap(),
		"matchExpressions": ArrayOf(Object(map[string]*Schema{
			"key":      Str(),
			"operator": Str(),
			"values":   Strings(),
		}, "key", "operator")),
	})
}

// Reporter receives the problems Check finds, at the path of the field.
type Reporter interface {
	Errorf(path Path, format string, args ...any)
}

// JSONType names a value's type as OpenAPI validation messages do.
func JSONType(v any) string {
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

// Check validates v against s like the API server with strict field
// validation: unknown fields, wrong types, enums, missing required fields,
// minItems, minLength and rules.
func (s *Schema) Check(r Reporter, v any, p Path) {
	if v == nil {
		return // the API server prunes nulls of non-nullable fields
	}
	if o, ok := v.(resource.Object); ok {
		v = map[string]any(o)
	}
	typeError := func(want string) {
		r.Errorf(p, "%s: Invalid value: %q: %s in body must be of type %s: %q", p, JSONType(v), p, want, JSONType(v))
	}
	switch s.Type {
	case TAny:
	case TObject, TFree, TStringMap:
		m, ok := v.(map[string]any)
		if !ok {
			typeError("object")
			return
		}
		switch s.Type {
		case TStringMap:
			for _, k := range resource.SortedKeys(m) {
				if _, ok := m[k].(string); !ok && m[k] != nil {
					kp := p.Key(k)
					r.Errorf(kp, "%s: Invalid value: %q: %s in body must be of type string: %q", kp, JSONType(m[k]), kp, JSONType(m[k]))
				}
			}
		case TObject:
			for _, k := range resource.SortedKeys(m) {
				child, known := s.Props[k]
				if !known {
					msg := fmt.Sprintf("strict decoding error: unknown field %q", p.Key(k).String())
					if meant, ok := s.Suggest[k]; ok {
						msg += fmt.Sprintf("; did you mean %q?", meant)
					}
					r.Errorf(p.Key(k), "%s", msg)
					continue
				}
				child.Check(r, m[k], p.Key(k))
			}
			for _, req := range s.Required {
				if _, ok := m[req]; !ok {
					r.Errorf(p, "%s: Required value", p.Key(req))
				}
			}
			for _, rule := range s.Rules {
				if !rule.Holds(m) {
					r.Errorf(p, "%s: Invalid value: \"object\": %s", p, rule.Message)
				}
			}
		}
	case TArray:
		l, ok := v.([]any)
		if !ok {
			typeError("array")
			return
		}
		if s.MinItems > 0 && len(l) < s.MinItems {
			r.Errorf(p, "%s: Invalid value: %d: %s in body should have at least %d items", p, len(l), p, s.MinItems)
		}
		for i, e := range l {
			s.Items.Check(r, e, p.Index(i))
		}
		if s.MapKey != "" {
			seen := make(map[any]bool, len(l))
			for i, e := range l {
				m, ok := e.(map[string]any)
				if !ok {
					continue
				}
				k, ok := m[s.MapKey]
				if !ok || !comparable(k) {
					continue
				}
				if seen[k] {
					r.Errorf(p.Index(i), "%s: Duplicate value: map[string]interface {}{%q:%s}", p.Index(i), s.MapKey, goValue(k))
				}
				seen[k] = true
			}
		}
	case TString:
		sv, ok := v.(string)
		if !ok {
			typeError("string")
			return
		}
		if s.MinLength > 0 && len([]rune(sv)) < s.MinLength {
			r.Errorf(p, "%s: Invalid value: %q: %s in body should be at least %d chars long", p, sv, p, s.MinLength)
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, sv) {
			quoted := make([]string, len(s.Enum))
			for i, e := range s.Enum {
				quoted[i] = fmt.Sprintf("%q", e)
			}
			r.Errorf(p, "%s: Unsupported value: %q: supported values: %s", p, sv, strings.Join(quoted, ", "))
		}
	case TBool:
		if _, ok := v.(bool); !ok {
			typeError("boolean")
		}
	case TInt:
		if JSONType(v) != "integer" {
			typeError("integer")
		}
	}
}

func comparable(v any) bool {
	switch v.(type) {
	case string, bool, float64:
		return true
	}
	return false
}

// goValue renders a key as Go's %#v does inside the API server's message.
func goValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%#v", v)
}
