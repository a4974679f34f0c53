package compiler

import (
	"github.com/google/cel-go/common/types"
)

// The type of `request`: Kubernetes' AdmissionRequest CEL type
// (k8s.io/apiserver/pkg/admission/plugin/cel BuildRequestType) with object
// and oldObject re-declared dyn, as Kyverno does (K:pkg/cel/compiler/
// request.go). A misspelt field is a compile error; a field the request
// does not carry reads as its zero value, as it does from Kyverno's typed
// request.
var (
	requestType  = types.NewObjectType("kubernetes.AdmissionRequest")
	gvkType      = types.NewObjectType("kubernetes.GroupVersionKind")
	gvrObjType   = types.NewObjectType("kubernetes.GroupVersionResource")
	userInfoType = types.NewObjectType("kubernetes.UserInfo")
)

var requestTypes = map[string]map[string]*types.Type{
	requestType.TypeName(): {
		"kind":               gvkType,
		"resource":           gvrObjType,
		"subResource":        types.StringType,
		"requestKind":        gvkType,
		"requestResource":    gvrObjType,
		"requestSubResource": types.StringType,
		"name":               types.StringType,
		"namespace":          types.StringType,
		"operation":          types.StringType,
		"userInfo":           userInfoType,
		"dryRun":             types.BoolType,
		"options":            types.DynType,
		"object":             types.DynType,
		"oldObject":          types.DynType,
		"uid":                types.StringType,
	},
	gvkType.TypeName():    {"group": types.StringType, "version": types.StringType, "kind": types.StringType},
	gvrObjType.TypeName(): {"group": types.StringType, "version": types.StringType, "resource": types.StringType},
	userInfoType.TypeName(): {
		"username": types.StringType,
		"uid":      types.StringType,
		"groups":   types.NewListType(types.StringType),
		"extra":    types.NewMapType(types.StringType, types.NewListType(types.StringType)),
	},
}

// zeroValue is what a field the request does not carry reads as.
func zeroValue(t *types.Type) any {
	switch t.Kind() {
	case types.StringKind:
		return ""
	case types.BoolKind:
		return false
	case types.ListKind:
		return []any{}
	case types.MapKind, types.StructKind:
		return map[string]any{}
	}
	return types.NullValue
}

// getRequestField reads a field of the request (or of one of its parts).
func getRequestField(obj any, field string, t *types.Type) (any, error) {
	if m, ok := obj.(map[string]any); ok {
		if v, ok := m[field]; ok && v != nil {
			return v, nil
		}
	}
	return zeroValue(t), nil
}
