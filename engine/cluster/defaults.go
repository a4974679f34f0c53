package cluster

import (
	"encoding/base64"
	"slices"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/internal/quantity"
	"github.com/genplay/genplay/engine/resource"
)

// applyDefaults does the defaulting and conversions the API server applies
// on write that generate policies and their tests can observe:
//   - a Secret's stringData is merged into data, base64-encoded, and
//     dropped, and its type is Opaque when it has none (SetDefaults_Secret:
//     a clone of it has the type too, as real Kyverno's copies showed);
//   - a Namespace gets status.phase Active;
//   - RBAC subjects of kind User or Group get apiGroup rbac.authorization.k8s.io;
//   - a ResourceQuota's quantities (spec.hard) are stored in canonical form,
//     as resource.Quantity serializes them ("00" is "0", "1000" is "1k",
//     "2048Mi" is "2Gi"; a real API server refuses what does not parse,
//     which genplay keeps as written).
//
// A CustomResourceDefinition's status is crdStatus's.
func applyDefaults(info KindInfo, o resource.Object) {
	switch {
	case info.Group == "" && info.Kind == "Secret":
		if t, _ := o["type"].(string); t == "" {
			o["type"] = "Opaque"
		}
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
	case info.Group == "" && info.Kind == "Namespace":
		st, _ := o["status"].(map[string]any)
		if st == nil {
			st = map[string]any{}
			o["status"] = st
		}
		if _, ok := st["phase"]; !ok {
			st["phase"] = "Active"
		}
	case info.Group == "" && info.Kind == "ResourceQuota":
		if hard, ok := o.Nested("spec", "hard"); ok {
			canonicalQuantities(hard)
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
	}
}

// canonicalQuantities rewrites each quantity of a map (a ResourceList) in
// its canonical form.
func canonicalQuantities(list any) {
	m, ok := list.(map[string]any)
	if !ok {
		return
	}
	for k, v := range m {
		s, ok := v.(string)
		if !ok {
			continue
		}
		if q, err := quantity.Parse(s); err == nil {
			m[k] = q.String()
		}
	}
}

// crdStatus sets a CustomResourceDefinition's status as the API server and
// its apiextensions controllers do once the CRD is established: the status
// is a subresource, so what a create or update writes there is dropped;
// acceptedNames are spec.names with listKind and singular defaulted (the
// naming controller); the NamesAccepted and Established conditions are True
// from the first write on (the establishing controller), keeping their
// lastTransitionTime afterwards; storedVersions lists every version that
// has been the storage version, the current one added on each write
// (the strategy's PrepareForCreate and PrepareForUpdate). old is the stored
// CRD on update, nil on create; now stamps new conditions.
func crdStatus(o, old resource.Object, now string) {
	st := map[string]any{}
	o["status"] = st
	if names, ok := o.Nested("spec", "names"); ok {
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
	var stored []any
	conditions := []any{
		map[string]any{"type": "NamesAccepted", "status": "True", "reason": "NoConflicts", "message": "no conflicts found",
			"lastTransitionTime": now},
		map[string]any{"type": "Established", "status": "True", "reason": "InitialNamesAccepted",
			"message": "the initial names have been accepted", "lastTransitionTime": now},
	}
	if old != nil {
		if prev, ok := old.Nested("status", "storedVersions"); ok {
			stored, _ = resource.DeepCopyValue(prev).([]any)
		}
		if prev, ok := old.Nested("status", "conditions"); ok {
			if list, ok := resource.DeepCopyValue(prev).([]any); ok && len(list) > 0 {
				conditions = list
			}
		}
	}
	st["conditions"] = conditions
	if v := storageVersion(o); v != "" && !slices.Contains(stored, any(v)) {
		stored = append(stored, v)
	}
	if stored == nil {
		stored = []any{}
	}
	st["storedVersions"] = stored
}

// storageVersion is the name of the CRD version marked storage: true.
func storageVersion(o resource.Object) string {
	versions, _ := o.Nested("spec", "versions")
	list, _ := versions.([]any)
	for _, raw := range list {
		v, _ := raw.(map[string]any)
		if v["storage"] == true {
			name, _ := v["name"].(string)
			return name
		}
	}
	return ""
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
