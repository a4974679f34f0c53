package schema

import (
	"fmt"

	"github.com/genplay/genplay/engine/resource"
)

// Readers of JSON-shaped objects after Check has accepted them: a field of
// another type reads as absent (or as def), never as an error, since the
// schema check has already reported it.

// AsMap returns v as a map, or nil.
func AsMap(v any) map[string]any {
	switch m := v.(type) {
	case map[string]any:
		return m
	case resource.Object:
		return m
	}
	return nil
}

// MapOf returns the map at m[k], or nil.
func MapOf(m map[string]any, k string) map[string]any { return AsMap(m[k]) }

// ListOf returns the list at m[k], or nil.
func ListOf(m map[string]any, k string) []any {
	l, _ := m[k].([]any)
	return l
}

// BoolOr returns the bool at m[k], or def.
func BoolOr(m map[string]any, k string, def bool) bool {
	if b, ok := m[k].(bool); ok {
		return b
	}
	return def
}

// StringOr returns the string at m[k], or def.
func StringOr(m map[string]any, k string, def string) string {
	if s, ok := m[k].(string); ok {
		return s
	}
	return def
}

// StringsOf returns the strings of the list at m[k].
func StringsOf(m map[string]any, k string) []string {
	var out []string
	for _, e := range ListOf(m, k) {
		if s, ok := e.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// StringMapOf returns the map at m[k] with its values as strings (a
// non-string value printed), or nil.
func StringMapOf(m map[string]any, k string) map[string]string {
	src, ok := m[k].(map[string]any)
	if !ok {
		return nil
	}
	out := make(map[string]string, len(src))
	for key, v := range src {
		if s, ok := v.(string); ok {
			out[key] = s
		} else if v != nil {
			out[key] = fmt.Sprint(v)
		}
	}
	return out
}
