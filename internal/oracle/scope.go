package oracle

import (
	"fmt"
	"sort"
	"strings"
)

// What a recording holds and a comparison looks at: the objects a scenario
// and Kyverno's reactions to it create, update and delete. The same rules
// apply to the live cluster (the recorder) and to genplay's (Compare).

// outOfScopeNamespaces hold the cluster's own objects and Kyverno's.
var outOfScopeNamespaces = map[string]bool{"kube-system": true, "kube-public": true, "kube-node-lease": true, "kyverno": true}

// outOfScopeGroups are API groups of the machinery (webhook
// configurations Kyverno rewrites, leases, events, reports).
var outOfScopeGroups = map[string]bool{
	"admissionregistration.k8s.io": true, "apiregistration.k8s.io": true, "coordination.k8s.io": true,
	"discovery.k8s.io": true, "events.k8s.io": true, "flowcontrol.apiserver.k8s.io": true,
	"certificates.k8s.io": true, "wgpolicyk8s.io": true, "reports.kyverno.io": true, "openreports.io": true,
	"internal.apiserver.k8s.io": true, "resource.k8s.io": true, "storagemigration.k8s.io": true,
}

// outOfScopeKinds are kinds of the machinery, or made by controllers
// genplay does not simulate (the Deployment and ReplicaSet controllers).
var outOfScopeKinds = map[string]bool{
	"Event": true, "Endpoints": true, "UpdateRequest": true, "ControllerRevision": true, "ReplicaSet": true,
	"ComponentStatus": true, "IPAddress": true, "ServiceCIDR": true, // a Service's ClusterIP allocation
}

// InScope reports whether an object (a JSON object of the API) is one a
// recording holds: not the cluster's machinery, not Kyverno's own, and not
// an object kube-controller-manager makes in every namespace (the default
// ServiceAccount, the kube-root-ca.crt ConfigMap), nor a Pod a controller
// made.
func InScope(o map[string]any) bool {
	apiVersion, _ := o["apiVersion"].(string)
	kind, _ := o["kind"].(string)
	m, _ := o["metadata"].(map[string]any)
	ns, _ := m["namespace"].(string)
	name, _ := m["name"].(string)
	group := ""
	if i := strings.LastIndex(apiVersion, "/"); i >= 0 {
		group = apiVersion[:i]
	}
	switch {
	case outOfScopeGroups[group], outOfScopeKinds[kind], outOfScopeNamespaces[ns]:
		return false
	case kind == "Namespace" && outOfScopeNamespaces[name]:
		return false
	case kind == "ConfigMap" && name == "kube-root-ca.crt", kind == "ServiceAccount" && name == "default":
		return false
	case kind == "Pod" && m["ownerReferences"] != nil:
		return false
	}
	return true
}

// Key is an object's key: apiVersion/kind/namespace/name.
func Key(o map[string]any) string {
	apiVersion, _ := o["apiVersion"].(string)
	kind, _ := o["kind"].(string)
	m, _ := o["metadata"].(map[string]any)
	ns, _ := m["namespace"].(string)
	name, _ := m["name"].(string)
	return keyOf(apiVersion, kind, ns, name)
}

// droppedAnnotations are written by clients, not by Kyverno.
var droppedAnnotations = map[string]bool{"kubectl.kubernetes.io/last-applied-configuration": true}

// serverAllocated are fields the API server fills with values of its own
// choosing (a Service's cluster IPs): they differ between runs.
var serverAllocated = map[string][]string{"Service": {"clusterIP", "clusterIPs"}}

// View is what a comparison looks at in an object: its labels,
// annotations and owner references, and every field outside metadata and
// status; each string equal to the UID of an object of the run (uids:
// UID to key) reads "uid:<key>", so that views compare across runs and
// clusters.
func View(o map[string]any, uids map[string]string) map[string]any {
	out := map[string]any{}
	for k, v := range o {
		switch k {
		case "apiVersion", "kind", "metadata", "status":
			continue
		}
		out[k] = normalize(v, uids)
	}
	if fields, ok := serverAllocated[fmt.Sprint(o["kind"])]; ok {
		if spec, ok := out["spec"].(map[string]any); ok {
			for _, f := range fields {
				delete(spec, f)
			}
		}
	}
	m, _ := o["metadata"].(map[string]any)
	if l, ok := m["labels"].(map[string]any); ok && len(l) > 0 {
		out["labels"] = normalize(l, uids)
	}
	if a, ok := m["annotations"].(map[string]any); ok {
		kept := map[string]any{}
		for k, v := range a {
			if !droppedAnnotations[k] {
				kept[k] = v
			}
		}
		if len(kept) > 0 {
			out["annotations"] = normalize(kept, uids)
		}
	}
	if refs, ok := m["ownerReferences"].([]any); ok && len(refs) > 0 {
		var owners []any
		for _, r := range refs {
			rm, _ := r.(map[string]any)
			uid, _ := rm["uid"].(string)
			owner := map[string]any{"kind": rm["kind"], "name": rm["name"], "uid": normalize(uid, uids)}
			if c, ok := rm["controller"].(bool); ok && c {
				owner["controller"] = true
			}
			owners = append(owners, owner)
		}
		out["ownerReferences"] = owners
	}
	return out
}

func normalize(v any, uids map[string]string) any {
	switch t := v.(type) {
	case string:
		if k, ok := uids[t]; ok {
			return "uid:" + k
		}
		return t
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = normalize(e, uids)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = normalize(e, uids)
		}
		return out
	}
	return v
}

// SortObjects sorts objects by key.
func SortObjects(l []Object) {
	sort.Slice(l, func(i, j int) bool { return l[i].Key < l[j].Key })
}
