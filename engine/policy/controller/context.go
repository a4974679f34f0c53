package controller

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/internal/imageref"
	"github.com/genplay/genplay/engine/resource"
)

// view is what filterRule sees of a request: Kyverno's policy context.
type view struct {
	operation string          // "" in the background
	object    resource.Object // the new object (nil on DELETE)
	oldObject resource.Object
	user      *admission.UserInfo // nil in the background
	// subResource and resource describe a subresource request (see Request).
	subResource string
	resource    resource.GVK
}

// requestContext builds the JSON context of SEMANTICS §4 for obj.
//
// It runs for every rule a trigger meets, so it builds as few maps as it
// can: each map is presized to the keys it gets, strings already boxed in
// obj are reused rather than boxed again (same values), and the strings a
// request can only hold (operations) are constants. No consumer changes the
// maps below request: applyRule replaces request's own entries, and
// setContextPath copies a nested map before it writes into it.
func requestContext(v view, obj resource.Object) map[string]any {
	n := 3 // operation, object, oldObject
	if obj != nil {
		n += 3 // namespace, name, kind
	}
	// Without an admission request (the background: generateExisting,
	// policy updates, downstream and source changes) Kyverno's context is
	// NewPolicyContext's: request.object, request.namespace and
	// request.operation, but no request.name or request.kind, which only
	// an AdmissionRequest carries.
	fromAdmission := v.user != nil
	if v.subResource != "" {
		n++
	}
	if v.user != nil {
		n += 3 // userInfo, roles, clusterRoles
	}
	req := make(map[string]any, n)
	req["operation"] = operationValue(v.operation)
	req["oldObject"] = nil
	if obj != nil {
		req["object"] = map[string]any(obj)
		md, _ := obj["metadata"].(map[string]any)
		req["namespace"] = stringValue(md["namespace"])
		if fromAdmission && req["namespace"] == "" && obj.Kind() == "Namespace" && obj.APIVersion() == "v1" {
			// The API server's admission request names a Namespace's own
			// name as its namespace, on create too (k8s.io/apiserver
			// endpoints/handlers/create.go); the background's
			// NewPolicyContext uses the trigger's namespace, "".
			req["namespace"] = stringValue(md["name"])
		}
		if fromAdmission {
			req["name"] = stringValue(md["name"])
			req["kind"] = kindValue(obj)
		}
	} else {
		req["object"] = map[string]any{}
	}
	if v.oldObject != nil {
		req["oldObject"] = map[string]any(v.oldObject)
	}
	if v.subResource != "" {
		req["subResource"] = v.subResource
	}
	var imgs map[string]any
	if v.operation != admission.OpDelete {
		imgs = images(obj)
	}
	if v.user == nil && imgs == nil {
		return map[string]any{"request": req}
	}
	ctx := make(map[string]any, 4)
	ctx["request"] = req
	if imgs != nil {
		ctx["images"] = imgs
	}
	if v.user == nil {
		return ctx
	}
	req["userInfo"] = map[string]any{"username": v.user.Username, "groups": stringsToAny(v.user.Groups)}
	req["roles"] = stringsToAny(v.user.Roles)
	req["clusterRoles"] = stringsToAny(v.user.ClusterRoles)
	if sa, ns, ok := serviceAccount(v.user.Username); ok {
		ctx["serviceAccountName"] = sa
		ctx["serviceAccountNamespace"] = ns
	} else {
		ctx["serviceAccountName"] = ""
		ctx["serviceAccountNamespace"] = ""
	}
	return ctx
}

// podSpecs is where the kinds Kyverno extracts images from keep their pod
// spec (Kyverno's registeredExtractors in pkg/utils/api/image.go).
var podSpecs = map[string][]string{
	"Pod":                   {"spec"},
	"DaemonSet":             {"spec", "template", "spec"},
	"Deployment":            {"spec", "template", "spec"},
	"ReplicaSet":            {"spec", "template", "spec"},
	"ReplicationController": {"spec", "template", "spec"},
	"StatefulSet":           {"spec", "template", "spec"},
	"Job":                   {"spec", "template", "spec"},
	"CronJob":               {"spec", "jobTemplate", "spec", "template", "spec"},
}

// images is the value of the images context variable for obj, or nil
// when it has none (Kyverno then adds no images entry): for each of
// initContainers, containers and ephemeralContainers that holds an image,
// the image of every container by its name, as imageref describes it,
// with the JSON pointer of the image. An image Kyverno cannot parse, or a
// container without a name, leaves the variable out (in Kyverno, reading
// it is then an error).
func images(obj resource.Object) map[string]any {
	fields, ok := podSpecs[stringOf(obj["kind"])]
	if !ok {
		return nil
	}
	var spec any = map[string]any(obj)
	for _, f := range fields {
		m, _ := spec.(map[string]any)
		spec = m[f]
	}
	podSpec, _ := spec.(map[string]any)
	if podSpec == nil {
		return nil
	}
	var out map[string]any
	for _, section := range []string{"initContainers", "containers", "ephemeralContainers"} {
		list, ok := podSpec[section].([]any)
		if !ok {
			continue
		}
		var infos map[string]any
		for i, raw := range list {
			c, ok := raw.(map[string]any)
			if !ok {
				return nil // "invalid image config"
			}
			name, ok := c["name"].(string)
			if !ok {
				return nil // "invalid key"
			}
			img, ok := c["image"].(string)
			if !ok || strings.TrimSpace(img) == "" {
				continue // the image may not be present
			}
			info, err := imageref.Parse(img)
			if err != nil {
				return nil
			}
			if infos == nil {
				infos = map[string]any{}
			}
			pointer := "/" + strings.Join(fields, "/") + "/" + section + "/" + strconv.Itoa(i) + "/image"
			infos[name] = info.Value(pointer)
		}
		if infos != nil {
			if out == nil {
				out = map[string]any{}
			}
			out[section] = infos
		}
	}
	return out
}

func stringOf(v any) string {
	s, _ := v.(string)
	return s
}

// operationValue is op as a JSON value; the admission operations are
// constants, whose boxes are static (no allocation).
func operationValue(op string) any {
	switch op {
	case "":
		return ""
	case admission.OpCreate:
		return admission.OpCreate
	case admission.OpUpdate:
		return admission.OpUpdate
	case admission.OpDelete:
		return admission.OpDelete
	case admission.OpConnect:
		return admission.OpConnect
	}
	return op
}

// stringValue is v when it holds a string and "" otherwise: what boxing
// Object.Name() and the like would give, without boxing again.
func stringValue(v any) any {
	if _, ok := v.(string); ok {
		return v
	}
	return ""
}

// kindValue is request.kind for obj: {group, version, kind} of obj.GVK(),
// reusing obj's own apiVersion and kind values where they are the same
// strings (a core apiVersion is its version).
func kindValue(obj resource.Object) map[string]any {
	g := obj.GVK()
	kind := map[string]any{"group": g.Group, "kind": stringValue(obj["kind"])}
	if strings.Contains(obj.APIVersion(), "/") {
		kind["version"] = g.Version
	} else {
		kind["version"] = stringValue(obj["apiVersion"]) // the version is all of it
	}
	return kind
}

// emptyList is the value of an empty list of strings: a non-nil slice of
// no capacity, which nothing can write into, so one value serves all.
var emptyList any = []any{}

func stringsToAny(s []string) any {
	if len(s) == 0 {
		return emptyList
	}
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func serviceAccount(username string) (name, namespace string, ok bool) {
	const prefix = "system:serviceaccount:"
	rest, ok := strings.CutPrefix(username, prefix)
	if !ok {
		return "", "", false
	}
	namespace, name, ok = strings.Cut(rest, ":")
	if !ok {
		return "", "", false
	}
	return name, namespace, true
}

// cloneContext returns a shallow copy of ctx that a rule or foreach
// iteration may add entries to.
func cloneContext(ctx map[string]any) map[string]any {
	out := make(map[string]any, len(ctx)+4)
	for k, v := range ctx {
		out[k] = v
	}
	return out
}

// loadContext evaluates a rule's (or foreach entry's) context entries into
// ctx, after the values that stand in for them (Values.Rules).
func (c *Family) loadContext(entries []any, ctx map[string]any, values map[string]any) error {
	for k, x := range values {
		setPath(ctx, strings.Split(k, "."), resource.DeepCopyValue(x))
	}
	for i, raw := range entries {
		entry, ok := raw.(map[string]any)
		if !ok {
			return fmt.Errorf("context[%d] is not an object", i)
		}
		name, _ := entry["name"].(string)
		if name == "" {
			return fmt.Errorf("context[%d] has no name", i)
		}
		if _, given := values[name]; given && entry["variable"] == nil {
			continue // the CLI loads nothing from a cluster: the value stands in
		}
		val, err := c.contextValue(name, entry, ctx)
		if err != nil {
			return fmt.Errorf("failed to load context %q: %w", name, err)
		}
		// The name is one key, dots and all (Kyverno's addToContext):
		// "{{ a.b }}" does not read an entry named "a.b".
		ctx[name] = val
	}
	return nil
}

func (c *Family) contextValue(name string, entry map[string]any, ctx map[string]any) (any, error) {
	switch {
	case entry["variable"] != nil:
		v, _ := entry["variable"].(map[string]any)
		return c.variableValue(name, v, ctx)
	case entry["configMap"] != nil:
		cm, _ := entry["configMap"].(map[string]any)
		sub, err := c.eval.Substitute(ctx, resource.DeepCopyValue(cm))
		if err != nil {
			return nil, err
		}
		m, _ := sub.(map[string]any)
		name, _ := m["name"].(string)
		ns, _ := m["namespace"].(string)
		if ns == "" {
			ns = "default"
		}
		obj, err := c.store.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: name})
		if err != nil {
			return nil, err
		}
		return map[string]any(obj), nil
	case entry["apiCall"] != nil:
		ac, _ := entry["apiCall"].(map[string]any)
		sub, err := c.eval.Substitute(ctx, resource.DeepCopyValue(ac))
		if err != nil {
			return nil, err
		}
		m, _ := sub.(map[string]any)
		if method, _ := m["method"].(string); method != "" && method != "GET" {
			return nil, fmt.Errorf("apiCall method %s is not simulated (genplay answers GET from the simulated cluster)", method)
		}
		if _, ok := m["service"]; ok {
			return nil, fmt.Errorf("apiCall.service is not simulated (genplay has no network)")
		}
		path, _ := m["urlPath"].(string)
		data, err := c.core.APIGet(path)
		if err != nil {
			if def, ok := m["default"]; ok {
				return def, nil
			}
			return nil, err
		}
		if jp, _ := m["jmesPath"].(string); jp != "" {
			res, err := c.eval.Search(jp, data)
			if err != nil || res == nil {
				if def, ok := m["default"]; ok {
					return def, nil
				}
			}
			return res, err
		}
		return data, nil
	case entry["globalReference"] != nil:
		return nil, fmt.Errorf("globalReference context entries are not simulated")
	case entry["imageRegistry"] != nil:
		return nil, fmt.Errorf("imageRegistry context entries are not simulated (genplay has no network)")
	}
	return nil, fmt.Errorf("unknown context entry type")
}

// variableValue is Kyverno's variable loader (loadVariable): the default
// first; then the value, or the JMESPath over the value when both are set
// (a failed query leaves the default, or fails without one); or the
// JMESPath over the context, whose null result leaves the default. A
// variable that ends up null fails.
func (c *Family) variableValue(name string, v map[string]any, ctx map[string]any) (any, error) {
	path := ""
	if jp, ok := v["jmesPath"].(string); ok && jp != "" {
		expr, err := c.eval.Substitute(ctx, jp)
		if err != nil {
			return nil, fmt.Errorf("failed to substitute variables in context entry %s %s: %w", name, jp, err)
		}
		if path, ok = expr.(string); !ok {
			return nil, fmt.Errorf("jmespath value must be a string %s %s", name, jp)
		}
	}
	var output any
	if def, ok := v["default"]; ok && def != nil {
		d, err := c.eval.Substitute(ctx, def)
		if err != nil {
			return nil, fmt.Errorf("failed to substitute variables in context entry %s: %w", name, err)
		}
		output = d
	}
	hasDefault := output != nil
	if raw, ok := v["value"]; ok && raw != nil {
		val, err := c.eval.Substitute(ctx, raw)
		if err != nil {
			return nil, fmt.Errorf("failed to substitute variables in context entry %s: %w", name, err)
		}
		if path == "" {
			output = val
		} else if res, err := c.eval.Search(path, val); err == nil {
			output = res
		} else if !hasDefault {
			return nil, fmt.Errorf("failed to apply jmespath %s to variable %v: %w", path, val, err)
		}
	} else if path != "" {
		res, err := c.eval.Search(path, ctx)
		switch {
		case err == nil && res != nil:
			output = res
		case err != nil && !hasDefault:
			return nil, fmt.Errorf("failed to apply jmespath %s to variable %v: %w", path, res, err)
		}
	}
	if output == nil {
		return nil, fmt.Errorf("failed to add context entry for variable %s since it evaluated to nil", name)
	}
	return output, nil
}
