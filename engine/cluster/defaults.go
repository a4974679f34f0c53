package cluster

import (
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// applyDefaults does the defaulting and conversions the API server applies
// on write that generate policies and their tests can observe:
//   - a Secret's stringData is merged into data, base64-encoded, and dropped;
//   - a Namespace gets status.phase Active;
//   - RBAC subjects of kind User or Group get apiGroup rbac.authorization.k8s.io;
//   - a CustomResourceDefinition gets status.acceptedNames from spec.names.
func applyDefaults(info KindInfo, o resource.Object) {
	switch {
	case info.Group == "" && info.Kind == "Secret":
		if sd, ok := o["stringData"].(map[string]any); ok {
			data, _ := o["data"].(map[string]any)
			if data == nil {
				data = map[string]any{}
			}
			for k, v := range sd {
				if s, ok := v.(string); ok {
					data[k] = base64.StdEncoding.EncodeToString([]byte(s))
				}
			}
			o["data"] = data
			delete(o, "stringData")
		}
	case info.Group == "apiextensions.k8s.io" && info.Kind == "CustomResourceDefinition":
		// The apiextensions controller accepts the names and establishes the
		// CRD at once here: its kinds are served from the write on.
		st, _ := o["status"].(map[string]any)
		if st == nil {
			st = map[string]any{}
			o["status"] = st
		}
		if _, ok := st["acceptedNames"]; !ok {
			names, _ := o.Nested("spec", "names")
			if nm, ok := names.(map[string]any); ok {
				acc := map[string]any{}
				for k, v := range nm {
					acc[k] = resource.DeepCopyValue(v)
				}
				kind, _ := acc["kind"].(string)
				if _, ok := acc["listKind"]; !ok && kind != "" {
					acc["listKind"] = kind + "List"
				}
				if _, ok := acc["singular"]; !ok && kind != "" {
					acc["singular"] = strings.ToLower(kind)
				}
				st["acceptedNames"] = acc
			}
		}
		if _, ok := st["conditions"]; !ok {
			cond := func(typ, reason, msg string) any {
				return map[string]any{"type": typ, "status": "True", "reason": reason, "message": msg}
			}
			st["conditions"] = []any{
				cond("NamesAccepted", "NoConflicts", "no conflicts found"),
				cond("Established", "InitialNamesAccepted", "the initial names have been accepted"),
			}
		}
	case info.Group == "" && info.Kind == "Namespace":
		st, _ := o["status"].(map[string]any)
		if st == nil {
			st = map[string]any{}
			o["status"] = st
		}
		if _, ok := st["phase"]; !ok {
			st["phase"] = "Active"
		}
	case info.Group == "rbac.authorization.k8s.io" && (info.Kind == "RoleBinding" || info.Kind == "ClusterRoleBinding"):
		subjects, _ := o["subjects"].([]any)
		for _, raw := range subjects {
			sub, ok := raw.(map[string]any)
			if !ok {
				continue
			}
			if k := sub["kind"]; (k == "User" || k == "Group") && sub["apiGroup"] == nil {
				sub["apiGroup"] = "rbac.authorization.k8s.io"
			}
		}
	case info.Group == "apiextensions.k8s.io" && info.Kind == "CustomResourceDefinition":
		names, _ := o.Nested("spec", "names")
		if m, ok := names.(map[string]any); ok {
			st, _ := o["status"].(map[string]any)
			if st == nil {
				st = map[string]any{}
				o["status"] = st
			}
			if _, ok := st["acceptedNames"]; !ok {
				st["acceptedNames"] = resource.DeepCopyValue(m)
			}
		}
	}
}

// registerCRD serves the kinds a CustomResourceDefinition defines, with
// its scope, as the API server does once the CRD is established.
func (s *Store) registerCRD(o resource.Object) {
	if o.APIVersion() != "apiextensions.k8s.io/v1" || o.Kind() != "CustomResourceDefinition" {
		return
	}
	group := o.NestedString("spec", "group")
	kind := o.NestedString("spec", "names", "kind")
	plural := o.NestedString("spec", "names", "plural")
	if group == "" || kind == "" {
		return
	}
	namespaced := o.NestedString("spec", "scope") != "Cluster"
	versions, _ := o.Nested("spec", "versions")
	list, _ := versions.([]any)
	for _, raw := range list {
		v, _ := raw.(map[string]any)
		name, _ := v["name"].(string)
		if name == "" {
			continue
		}
		s.register(KindInfo{Group: group, Version: name, Kind: kind, Resource: plural, Namespaced: namespaced})
	}
}

var crdGK = groupKind{group: "apiextensions.k8s.io", kind: "CustomResourceDefinition"}

// crdKind is the group and kind a CustomResourceDefinition serves.
func crdKind(o resource.Object) (groupKind, bool) {
	group, kind := o.NestedString("spec", "group"), o.NestedString("spec", "names", "kind")
	return groupKind{group: group, kind: kind}, group != "" && kind != ""
}

// crdImmutable is the apiextensions server's update validation of what an
// established CRD may not change because it decides where and how its
// objects are stored: its scope (a change would leave the stored objects
// under the wrong keys) and its kind. (Its group and plural make its name,
// which no update changes.)
func crdImmutable(old, updated resource.Object) []FieldError {
	var causes []FieldError
	scope := func(o resource.Object) string { return cmpOr(o.NestedString("spec", "scope"), "Namespaced") }
	if was, now := scope(old), scope(updated); was != now {
		causes = append(causes, FieldError{Type: "Invalid value", Field: "spec.scope", Value: strconv.Quote(now), Detail: "field is immutable"})
	}
	if was, now := old.NestedString("spec", "names", "kind"), updated.NestedString("spec", "names", "kind"); was != now {
		causes = append(causes, FieldError{Type: "Invalid value", Field: "spec.names.kind", Value: strconv.Quote(now), Detail: "field is immutable"})
	}
	return causes
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
