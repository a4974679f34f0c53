// Package resource models Kubernetes objects as unstructured JSON data.
//
// An Object holds only JSON-shaped values: map[string]any, []any, string,
// float64, bool and nil. Every package of the engine keeps to that shape, so
// objects can be deep-copied, compared, marshalled and searched with JMESPath
// without conversion.
package resource

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// Object is one Kubernetes object as unstructured data.
type Object map[string]any

// Ref names one object: its type and its identity.
type Ref struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

// String renders the reference the way kubectl users read it:
// "ConfigMap team-a/settings" or "Namespace team-a".
func (r Ref) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// GVK is a group, version and kind.
type GVK struct {
	Group   string `json:"group"`
	Version string `json:"version"`
	Kind    string `json:"kind"`
}

// APIVersion joins group and version as in an object's apiVersion field.
func (g GVK) APIVersion() string {
	if g.Group == "" {
		return g.Version
	}
	return g.Group + "/" + g.Version
}

// SplitAPIVersion splits "apps/v1" into ("apps", "v1") and "v1" into ("", "v1").
func SplitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// APIVersion returns the object's apiVersion.
func (o Object) APIVersion() string { s, _ := o["apiVersion"].(string); return s }

// Kind returns the object's kind.
func (o Object) Kind() string { s, _ := o["kind"].(string); return s }

// GVK returns the object's group, version and kind.
func (o Object) GVK() GVK {
	g, v := SplitAPIVersion(o.APIVersion())
	return GVK{Group: g, Version: v, Kind: o.Kind()}
}

// Name returns metadata.name.
func (o Object) Name() string { return o.metaString("name") }

// Namespace returns metadata.namespace.
func (o Object) Namespace() string { return o.metaString("namespace") }

// UID returns metadata.uid.
func (o Object) UID() string { return o.metaString("uid") }

// ResourceVersion returns metadata.resourceVersion.
func (o Object) ResourceVersion() string { return o.metaString("resourceVersion") }

// Ref returns the reference that names the object.
func (o Object) Ref() Ref {
	return Ref{APIVersion: o.APIVersion(), Kind: o.Kind(), Namespace: o.Namespace(), Name: o.Name()}
}

func (o Object) metaString(key string) string {
	m, _ := o["metadata"].(map[string]any)
	s, _ := m[key].(string)
	return s
}

// Metadata returns metadata, creating it when absent.
func (o Object) Metadata() map[string]any {
	m, ok := o["metadata"].(map[string]any)
	if !ok {
		m = map[string]any{}
		o["metadata"] = m
	}
	return m
}

// Labels returns a copy of metadata.labels (never nil).
func (o Object) Labels() map[string]string { return o.stringMap("labels") }

// Annotations returns a copy of metadata.annotations (never nil).
func (o Object) Annotations() map[string]string { return o.stringMap("annotations") }

// Label returns metadata.labels[key] as Labels would hold it, and whether it
// is set, without copying the labels: for hot read-only paths.
func (o Object) Label(key string) (string, bool) { return o.stringMapValue("labels", key) }

// Annotation returns metadata.annotations[key] as Annotations would hold it,
// and whether it is set, without copying the annotations.
func (o Object) Annotation(key string) (string, bool) {
	return o.stringMapValue("annotations", key)
}

// stringMapValue is one entry of stringMap(field), computed without the copy.
func (o Object) stringMapValue(field, key string) (string, bool) {
	m, _ := o["metadata"].(map[string]any)
	src, _ := m[field].(map[string]any)
	switch v := src[key].(type) {
	case string:
		return v, true
	case nil:
		return "", false
	default:
		return fmt.Sprint(v), true
	}
}

func (o Object) stringMap(key string) map[string]string {
	out := map[string]string{}
	m, _ := o["metadata"].(map[string]any)
	src, _ := m[key].(map[string]any)
	for k, v := range src {
		if s, ok := v.(string); ok {
			out[k] = s
		} else if v != nil {
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

// SetLabels replaces metadata.labels; an empty map removes the field.
func (o Object) SetLabels(labels map[string]string) { o.setStringMap("labels", labels) }

// SetAnnotations replaces metadata.annotations; an empty map removes the field.
func (o Object) SetAnnotations(annotations map[string]string) {
	o.setStringMap("annotations", annotations)
}

func (o Object) setStringMap(key string, values map[string]string) {
	md := o.Metadata()
	if len(values) == 0 {
		delete(md, key)
		return
	}
	m := make(map[string]any, len(values))
	for k, v := range values {
		m[k] = v
	}
	md[key] = m
}

// Nested returns the value at path, and whether every step of the path exists.
func (o Object) Nested(path ...string) (any, bool) {
	var cur any = map[string]any(o)
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// NestedString returns the string at path, or "".
func (o Object) NestedString(path ...string) string {
	v, _ := o.Nested(path...)
	s, _ := v.(string)
	return s
}

// SetNested sets the value at path, creating intermediate maps.
func (o Object) SetNested(value any, path ...string) {
	m := map[string]any(o)
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[path[len(path)-1]] = value
}

// DeleteNested removes the value at path if it exists.
func (o Object) DeleteNested(path ...string) {
	m := map[string]any(o)
	for _, p := range path[:len(path)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			return
		}
		m = next
	}
	delete(m, path[len(path)-1])
}

// DeepCopy returns a copy that shares nothing with o.
func (o Object) DeepCopy() Object {
	if o == nil {
		return nil
	}
	return Object(DeepCopyValue(map[string]any(o)).(map[string]any))
}

// DeepCopyValue copies a JSON-shaped value.
func DeepCopyValue(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = DeepCopyValue(e)
		}
		return out
	case Object:
		return map[string]any(t.DeepCopy())
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = DeepCopyValue(e)
		}
		return out
	default:
		return v
	}
}

// Equal reports whether two JSON-shaped values are deeply equal.
func Equal(a, b any) bool {
	if ao, ok := a.(Object); ok {
		a = map[string]any(ao)
	}
	if bo, ok := b.(Object); ok {
		b = map[string]any(bo)
	}
	return equalValue(a, b)
}

// Same reports whether a and b are the same object (the same map), not
// merely equal ones: a store that never changes what it stored tells its
// versions apart by identity.
func Same(a, b Object) bool {
	return reflect.ValueOf(map[string]any(a)).UnsafePointer() == reflect.ValueOf(map[string]any(b)).UnsafePointer()
}

// equalValue is reflect.DeepEqual(a, b), answered without reflection for
// JSON-shaped values (reflect's map iteration allocates for every key and
// value; Equal runs on every store update and sync). The rules are
// DeepEqual's: dynamic types must be identical (a nested Object differs from
// a map[string]any), a nil map or slice differs from an empty one, the same
// map or slice is equal to itself, floats compare with ==. Any other type is
// handed to reflect.DeepEqual.
func equalValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case float64:
		y, ok := b.(float64)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case map[string]any:
		y, ok := b.(map[string]any)
		return ok && equalMap(x, y)
	case Object:
		y, ok := b.(Object)
		return ok && equalMap(x, y)
	case []any:
		y, ok := b.([]any)
		if !ok || (x == nil) != (y == nil) || len(x) != len(y) {
			return false
		}
		if len(x) > 0 && &x[0] == &y[0] {
			return true
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(a, b)
	}
}

func equalMap(x, y map[string]any) bool {
	if (x == nil) != (y == nil) || len(x) != len(y) {
		return false
	}
	if reflect.ValueOf(x).UnsafePointer() == reflect.ValueOf(y).UnsafePointer() {
		return true
	}
	for k, xv := range x {
		yv, ok := y[k]
		if !ok || !equalValue(xv, yv) {
			return false
		}
	}
	return true
}

// Normalize converts any value that encoding/json can marshal into the
// JSON shape Objects hold (numbers become float64, structs become maps).
func Normalize(v any) (any, error) {
	switch v.(type) {
	case nil, string, float64, bool:
		return v, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// SortedKeys returns the keys of m in order.
func SortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
