package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
)

// referenceRequestContext is requestContext as it was before it was tuned
// for fewer allocations: the tuned one must build the same context.
func referenceRequestContext(v view, obj resource.Object) map[string]any {
	req := make(map[string]any, 10)
	req["operation"] = v.operation
	req["object"] = map[string]any{}
	req["oldObject"] = nil
	if obj != nil {
		req["object"] = map[string]any(obj)
		g := obj.GVK()
		req["namespace"] = obj.Namespace()
		if v.user != nil && obj.APIVersion() == "v1" && obj.Kind() == "Namespace" && obj.Namespace() == "" {
			req["namespace"] = obj.Name() // the API server names a Namespace's own name as the request's namespace
		}
		if v.user != nil { // only an admission request names the object and its kind
			req["name"] = obj.Name()
			req["kind"] = map[string]any{"group": g.Group, "version": g.Version, "kind": g.Kind}
		}
	}
	if v.oldObject != nil {
		req["oldObject"] = map[string]any(v.oldObject)
	}
	if v.subResource != "" {
		req["subResource"] = v.subResource
	}
	ctx := map[string]any{"request": req}
	if v.user != nil {
		list := func(s []string) []any {
			out := make([]any, len(s))
			for i, v := range s {
				out[i] = v
			}
			return out
		}
		req["userInfo"] = map[string]any{"username": v.user.Username, "groups": list(v.user.Groups)}
		req["roles"] = list(v.user.Roles)
		req["clusterRoles"] = list(v.user.ClusterRoles)
		ctx["serviceAccountName"], ctx["serviceAccountNamespace"] = "", ""
		const prefix = "system:serviceaccount:"
		if strings.HasPrefix(v.user.Username, prefix) {
			if parts := strings.SplitN(strings.TrimPrefix(v.user.Username, prefix), ":", 2); len(parts) == 2 {
				ctx["serviceAccountName"], ctx["serviceAccountNamespace"] = parts[1], parts[0]
			}
		}
	}
	return ctx
}

func TestRequestContextIsTheReferenceContext(t *testing.T) {
	objects := []resource.Object{
		nil,
		{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}},
		{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "team-a"}},
		{"apiVersion": "/v1", "kind": "Odd", "metadata": map[string]any{"name": "x"}},
		{"apiVersion": "a/b/v1", "metadata": map[string]any{"name": float64(1), "namespace": nil}},
		{"apiVersion": float64(1), "kind": true},
		{},
	}
	users := []*admission.UserInfo{
		nil,
		{Username: "alice"},
		{Username: "alice", Groups: []string{"dev", "ops"}, Roles: []string{"r"}, ClusterRoles: []string{"c1", "c2"}},
		{Username: "system:serviceaccount:kyverno:kyverno-background-controller", Groups: []string{}},
		{Username: "system:serviceaccount:no-name"},
		{Username: "system:serviceaccount::"},
		{Username: "system:serviceaccount:ns:a:b"},
	}
	ops := []string{"", admission.OpCreate, admission.OpUpdate, admission.OpDelete, admission.OpConnect, "PATCH"}
	n := 0
	for _, obj := range objects {
		for _, old := range objects[:3] {
			for _, user := range users {
				for _, op := range ops {
					for _, sub := range []string{"", "status"} {
						v := view{operation: op, object: obj, oldObject: old, user: user, subResource: sub}
						want, got := referenceRequestContext(v, obj), requestContext(v, obj)
						if !assert.Equal(t, want, got, "%+v", v) {
							return
						}
						// The same JSON too: the same types, not only equal values.
						assert.Equal(t, fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got))
						n++
					}
				}
			}
		}
	}
	assert.Greater(t, n, 1000)
}

func TestRequestContextsAreIndependent(t *testing.T) {
	// applyRule writes request.object on DELETE, loadContext writes the
	// top level: one context's writes must not show in another's.
	obj := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "a"}}
	v := view{operation: admission.OpDelete, user: &admission.UserInfo{Username: "u"}}
	a, b := requestContext(v, obj), requestContext(v, obj)
	a["request"].(map[string]any)["object"] = nil
	a["extra"] = true
	assert.Equal(t, map[string]any(obj), b["request"].(map[string]any)["object"])
	assert.NotContains(t, b, "extra")
	a["request"].(map[string]any)["kind"].(map[string]any)["kind"] = "changed"
	assert.Equal(t, "Namespace", b["request"].(map[string]any)["kind"].(map[string]any)["kind"])
}

func TestANamespacesRequestNamespaceIsItsNameInAdmissionOnly(t *testing.T) {
	ns := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a"}}
	fromAdmission := requestContext(view{operation: admission.OpCreate, object: ns, user: &admission.UserInfo{Username: "alice"}}, ns)
	assert.Equal(t, "team-a", fromAdmission["request"].(map[string]any)["namespace"],
		"the API server's admission request for a Namespace names the Namespace itself, on create too")
	background := requestContext(view{operation: admission.OpCreate, object: ns}, ns)
	assert.Equal(t, "", background["request"].(map[string]any)["namespace"],
		"Kyverno's background context (NewPolicyContext) uses the trigger's namespace")
}

func TestContextValueLoadsEveryKindOfEntry(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	_, err := h.store.Create(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "settings", "namespace": "default"}, "data": map[string]any{"tier": "gold"}})
	require.NoError(t, err)
	ctx := map[string]any{"request": map[string]any{"object": map[string]any{"metadata": map[string]any{"name": "team"}}}}
	for _, tt := range []struct {
		name  string
		entry map[string]any
		want  any
		err   string
	}{
		{"a variable's value", map[string]any{"variable": map[string]any{"value": "{{request.object.metadata.name}}"}}, "team", ""},
		{"a variable's jmesPath over its value", map[string]any{"variable": map[string]any{"value": map[string]any{"a": "b"}, "jmesPath": "a"}}, "b", ""},
		{"a variable's jmesPath over the context", map[string]any{"variable": map[string]any{"jmesPath": "request.object.metadata.name"}}, "team", ""},
		{"a variable's default when its path finds nothing", map[string]any{"variable": map[string]any{"jmesPath": "request.nope", "default": "d"}}, "d", ""},
		{"a variable whose path is not in the context", map[string]any{"variable": map[string]any{"jmesPath": "request.nope"}}, nil, "failed to apply jmespath"},
		{"a variable that evaluates to nothing", map[string]any{"variable": map[string]any{"value": nil}}, nil, "evaluated to nil"},
		{"a variable whose path is not JMESPath", map[string]any{"variable": map[string]any{"value": "x", "jmesPath": "a["}}, nil, "failed to apply jmespath"},
		{"a ConfigMap, default namespace", map[string]any{"configMap": map[string]any{"name": "settings"}}, "gold", ""},
		{"a missing ConfigMap", map[string]any{"configMap": map[string]any{"name": "none"}}, nil, "not found"},
		{"an apiCall with jmesPath", map[string]any{"apiCall": map[string]any{"urlPath": "/api/v1/namespaces/default/configmaps/settings", "jmesPath": "data.tier"}}, "gold", ""},
		{"an apiCall list", map[string]any{"apiCall": map[string]any{"urlPath": "/api/v1/namespaces/default/configmaps", "jmesPath": "items | length(@)"}}, float64(1), ""},
		{"an apiCall's default when the call fails", map[string]any{"apiCall": map[string]any{"urlPath": "/api/v1/namespaces/default/configmaps/none", "default": "d"}}, "d", ""},
		{"an apiCall with another method", map[string]any{"apiCall": map[string]any{"urlPath": "/api/v1/namespaces", "method": "POST"}}, nil, "is not simulated"},
		{"an apiCall to a service", map[string]any{"apiCall": map[string]any{"service": map[string]any{"url": "http://x"}}}, nil, "no network"},
		{"an apiCall path that is not the API's", map[string]any{"apiCall": map[string]any{"urlPath": "/metrics"}}, nil, "not a Kubernetes API path"},
		{"a globalReference", map[string]any{"globalReference": map[string]any{"name": "g"}}, nil, "not simulated"},
		{"an imageRegistry", map[string]any{"imageRegistry": map[string]any{"reference": "nginx"}}, nil, "no network"},
		{"an entry of no known type", map[string]any{"other": 1}, nil, "unknown context entry type"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := h.fam.contextValue("e", tt.entry, ctx)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			if m, ok := got.(map[string]any); ok && tt.name == "a ConfigMap, default namespace" {
				got = m["data"].(map[string]any)["tier"]
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLoadContextUsesValuesInsteadOfTheEntriesTheyName(t *testing.T) {
	values := &generate.Values{
		Global:    map[string]any{"request.operation": "UPDATE"},
		Resources: map[string]map[string]map[string]any{"p": {"team": {"request.object.metadata.labels.env": "test"}}},
		Rules:     map[string]map[string]map[string]any{"p": {"r": {"cm": map[string]any{"data": map[string]any{"tier": "silver"}}}}},
	}
	h := newHarness(t, generate.FamilyConfig{Values: values})
	h.mustPut(replaceOnce(dataPolicy(true, "", "    context:\n    - name: cm\n      configMap:\n        name: settings\n        namespace: default\n", ""),
		"key: value", "key: '{{cm.data.tier}}-{{request.object.metadata.labels.env}}-{{request.operation}}'"))
	h.mustPut(namespaceYAML("team"))
	got := h.get(cmRef("team", "generated"))
	require.NotNil(t, got, "the missing ConfigMap is not read: the value stands in")
	assert.Equal(t, "silver-test-UPDATE", got["data"].(map[string]any)["key"])
}
