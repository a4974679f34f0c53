package rbac

import (
	"fmt"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Profile names the permissions Kyverno's controllers have before the
// cluster's own RBAC objects add to them.
type Profile string

// The permission profiles.
const (
	// Chart is a default Helm install of Kyverno (the default).
	Chart Profile = ""
	// KyvernoE2E is the install Kyverno's own conformance tests
	// run against (scripts/config/standard/kyverno.yaml in the Kyverno
	// repository): the chart's defaults plus, for the background
	// controller, create, update, patch, delete, get and list on
	// configmaps, networkpolicies, resourcequotas, secrets, roles,
	// rolebindings, clusterroles, clusterrolebindings, limitranges,
	// namespaces, nodes and pods, and for the admission controller the same
	// verbs on secrets.
	KyvernoE2E Profile = "kyverno-e2e"
	// Unchecked skips the check, as the Kyverno CLI does.
	Unchecked Profile = "none"
)

// ParseProfile reads a profile name.
func ParseProfile(s string) (Profile, error) {
	switch p := Profile(s); p {
	case "chart":
		return Chart, nil
	case Chart, KyvernoE2E, Unchecked:
		return p, nil
	}
	return "", fmt.Errorf("unknown permissions %q: want chart, kyverno-e2e or none", s)
}

// kyvernoE2EPermissions is what scripts/config/standard/kyverno.yaml adds
// (backgroundController.rbac.clusterRole.extraResources).
var kyvernoE2EPermissions = []rbacRule{{
	apiGroups: []string{"*"},
	resources: []string{"configmaps", "networkpolicies", "resourcequotas", "secrets", "roles", "rolebindings",
		"clusterroles", "clusterrolebindings", "limitranges", "namespaces", "nodes", "nodes/status", "pods"},
	verbs: []string{"create", "update", "patch", "delete", "get", "list"},
}}

// kyvernoE2EAdmissionPermissions is what it adds for the admission
// controller (admissionController.rbac.clusterRole.extraResources).
var kyvernoE2EAdmissionPermissions = []rbacRule{{
	apiGroups: []string{"*"},
	resources: []string{"secrets"},
	verbs:     []string{"create", "update", "patch", "delete", "get", "list"},
}}

// read is get, list and watch.
var read = []string{"get", "list", "watch"}

// defaultAdmissionPermissions are the reads the chart (1.19) gives the
// admission controller: its ":core" ClusterRole's (configmaps, namespaces,
// RBAC objects, CRDs, webhooks, Kyverno's own kinds, reports, leases; only
// list and get matter here), and Kubernetes' view ClusterRole, which the
// chart binds to it (viewRules).
var defaultAdmissionPermissions = append([]rbacRule{
	{apiGroups: []string{""}, resources: []string{"configmaps", "namespaces"}, verbs: read},
	{apiGroups: []string{"rbac.authorization.k8s.io"}, resources: []string{"roles", "clusterroles", "rolebindings", "clusterrolebindings"}, verbs: read},
	{apiGroups: []string{"apiextensions.k8s.io"}, resources: []string{"customresourcedefinitions"}, verbs: []string{"get"}},
	{apiGroups: []string{"admissionregistration.k8s.io"}, resources: []string{"mutatingwebhookconfigurations", "validatingwebhookconfigurations",
		"validatingadmissionpolicies", "validatingadmissionpolicybindings", "mutatingadmissionpolicies", "mutatingadmissionpolicybindings"}, verbs: read},
	{apiGroups: []string{"kyverno.io"}, resources: []string{"policies", "policies/status", "clusterpolicies", "clusterpolicies/status",
		"updaterequests", "updaterequests/status", "globalcontextentries", "globalcontextentries/status", "policyexceptions"}, verbs: read},
	{apiGroups: []string{"policies.kyverno.io"}, resources: []string{"validatingpolicies", "namespacedvalidatingpolicies", "imagevalidatingpolicies",
		"namespacedimagevalidatingpolicies", "generatingpolicies", "namespacedgeneratingpolicies", "mutatingpolicies", "namespacedmutatingpolicies",
		"policyexceptions"}, verbs: read},
	{apiGroups: []string{"reports.kyverno.io"}, resources: []string{"ephemeralreports", "clusterephemeralreports"}, verbs: read},
	{apiGroups: []string{"wgpolicyk8s.io"}, resources: []string{"policyreports", "clusterpolicyreports"}, verbs: read},
	{apiGroups: []string{"coordination.k8s.io"}, resources: []string{"leases"}, verbs: read},
}, viewRules...)

// viewRules are Kubernetes' view ClusterRole (v1.36's bootstrap policy,
// viewRules), which the chart binds to the admission and the background
// controllers (admissionController.rbac.viewRoleName,
// backgroundController.rbac.createViewRoleBinding; the ClusterRoles
// aggregated into view are added from the cluster). It leaves out Secrets
// and RBAC objects: reading or watching them takes an extra ClusterRole.
var viewRules = []rbacRule{
	{apiGroups: []string{""}, resources: []string{"pods", "replicationcontrollers", "replicationcontrollers/scale", "serviceaccounts",
		"services", "services/status", "endpoints", "persistentvolumeclaims", "persistentvolumeclaims/status", "configmaps"}, verbs: read},
	{apiGroups: []string{""}, resources: []string{"limitranges", "resourcequotas", "bindings", "pods/status", "resourcequotas/status",
		"namespaces/status", "replicationcontrollers/status", "pods/log"}, verbs: read},
	{apiGroups: []string{"", "events.k8s.io"}, resources: []string{"events"}, verbs: read},
	{apiGroups: []string{"discovery.k8s.io"}, resources: []string{"endpointslices"}, verbs: read},
	{apiGroups: []string{"apps"}, resources: []string{"controllerrevisions", "statefulsets", "statefulsets/status", "statefulsets/scale",
		"daemonsets", "daemonsets/status", "deployments", "deployments/status", "deployments/scale",
		"replicasets", "replicasets/status", "replicasets/scale"}, verbs: read},
	{apiGroups: []string{"autoscaling"}, resources: []string{"horizontalpodautoscalers", "horizontalpodautoscalers/status"}, verbs: read},
	{apiGroups: []string{"batch"}, resources: []string{"jobs", "cronjobs", "cronjobs/status", "jobs/status"}, verbs: read},
	{apiGroups: []string{"extensions"}, resources: []string{"daemonsets", "daemonsets/status", "deployments", "deployments/scale", "deployments/status",
		"ingresses", "ingresses/status", "replicasets", "replicasets/scale", "replicasets/status", "replicationcontrollers/scale", "networkpolicies"}, verbs: read},
	{apiGroups: []string{"policy"}, resources: []string{"poddisruptionbudgets", "poddisruptionbudgets/status"}, verbs: read},
	{apiGroups: []string{"networking.k8s.io"}, resources: []string{"networkpolicies", "ingresses", "ingresses/status"}, verbs: read},
}

// controller is one of Kyverno's controllers whose permissions policy
// validation checks: its service account, the chart's rules for it, what
// Kyverno's e2e install adds, and the labels of the ClusterRoles
// aggregated into its ClusterRole.
type controller struct {
	serviceAccount string // in the kyverno namespace
	user           string
	defaults, e2e  []rbacRule
	aggregation    []map[string]string
}

var (
	backgroundController = controller{serviceAccount: backgroundServiceAccountName, user: admission.BackgroundUser,
		defaults: defaultBackgroundPermissions, e2e: kyvernoE2EPermissions, aggregation: backgroundAggregationSelectors}
	admissionController = controller{serviceAccount: "kyverno-admission-controller",
		user:     "system:serviceaccount:" + backgroundServiceAccountNamespace + ":kyverno-admission-controller",
		defaults: defaultAdmissionPermissions, e2e: kyvernoE2EAdmissionPermissions, aggregation: []map[string]string{
			{"rbac.kyverno.io/aggregate-to-admission-controller": "true"},
			{"app.kubernetes.io/component": "admission-controller", "app.kubernetes.io/instance": "kyverno", "app.kubernetes.io/part-of": "kyverno"},
			// The view ClusterRole the chart binds it to aggregates these.
			{"rbac.authorization.k8s.io/aggregate-to-view": "true"},
		}}
)

// rbacRule is one PolicyRule of a (Cluster)Role.
type rbacRule struct {
	apiGroups, resources, verbs, resourceNames []string
}

// defaultBackgroundPermissions are the rules the Kyverno chart (1.18 and
// 1.19 alike: charts/kyverno/templates/background-controller) gives the
// background controller: its ":core" ClusterRole, the default
// backgroundController.rbac.coreClusterRole.extraResources, and Kubernetes'
// view ClusterRole (viewRules). So a default install reads Namespaces,
// ConfigMaps and what view reads, but not Secrets or RBAC objects.
// (Kyverno's own e2e install adds secrets, namespaces, pods and more, with
// get and list but not watch, through
// backgroundController.rbac.clusterRole.extraResources; a default install
// does not.)
var defaultBackgroundPermissions = append([]rbacRule{
	{apiGroups: []string{"apiextensions.k8s.io"}, resources: []string{"customresourcedefinitions"}, verbs: []string{"get"}},
	{apiGroups: []string{"kyverno.io"}, resources: []string{"policies", "policies/status", "clusterpolicies", "clusterpolicies/status",
		"policyexceptions", "updaterequests", "updaterequests/status", "globalcontextentries", "globalcontextentries/status"},
		verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch", "deletecollection"}},
	{apiGroups: []string{"policies.kyverno.io"}, resources: []string{"generatingpolicies", "namespacedgeneratingpolicies", "mutatingpolicies",
		"namespacedmutatingpolicies", "policyexceptions"},
		verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch", "deletecollection"}},
	{apiGroups: []string{""}, resources: []string{"namespaces", "configmaps"}, verbs: read},
	{apiGroups: []string{"", "events.k8s.io"}, resources: []string{"events"}, verbs: []string{"create", "get", "list", "patch", "update", "watch"}},
	{apiGroups: []string{"reports.kyverno.io"}, resources: []string{"ephemeralreports", "clusterephemeralreports"},
		verbs: []string{"create", "delete", "get", "list", "patch", "update", "watch", "deletecollection"}},
	{apiGroups: []string{"networking.k8s.io"}, resources: []string{"ingresses", "ingressclasses", "networkpolicies"}, verbs: []string{"create", "update", "patch", "delete"}},
	{apiGroups: []string{"rbac.authorization.k8s.io"}, resources: []string{"rolebindings", "roles"}, verbs: []string{"create", "update", "patch", "delete"}},
	{apiGroups: []string{""}, resources: []string{"configmaps", "resourcequotas", "limitranges"}, verbs: []string{"create", "update", "patch", "delete"}},
	{apiGroups: []string{"resource.k8s.io"}, resources: []string{"resourceclaims", "resourceclaimtemplates"}, verbs: []string{"create", "delete", "update", "patch", "deletecollection"}},
}, viewRules...)

// backgroundAggregationSelectors are the label sets whose ClusterRoles the
// chart aggregates into the background controller's ClusterRole.
var backgroundAggregationSelectors = []map[string]string{
	{"rbac.kyverno.io/aggregate-to-background-controller": "true"},
	{"app.kubernetes.io/component": "background-controller", "app.kubernetes.io/instance": "kyverno", "app.kubernetes.io/part-of": "kyverno"},
}

// backgroundServiceAccount is the subject Kyverno checks.
const (
	backgroundServiceAccountNamespace = "kyverno"
	backgroundServiceAccountName      = "kyverno-background-controller"
)

// CheckGenerate returns an error diagnostic for every generate rule of p
// whose targets Kyverno's controllers may not handle, given profile and the
// RBAC objects in store: the admission controller must list and get a
// synchronized rule's targets (it is checked first), the background
// controller must manage them (pkg/validation/policy/actions.go).
func CheckGenerate(store *cluster.Store, profile Profile, p *policy.Policy) source.Diagnostics {
	if profile == Unchecked {
		return nil
	}
	var out source.Diagnostics
	for i := range p.Spec.Rules {
		rule := &p.Spec.Rules[i]
		if rule.Generate == nil {
			continue
		}
		verbs := []string{"get", "create"}
		if rule.Generate.Synchronize {
			verbs = []string{"get", "create", "update", "delete"}
		}
		targets := []policy.Target{rule.Generate.Target}
		path := []any{"spec", "rules", rule.Index, "generate"}
		if len(rule.Generate.ForEach) > 0 {
			targets = targets[:0]
			for _, fe := range rule.Generate.ForEach {
				targets = append(targets, fe.Target)
			}
			path = append(path, "foreach")
		}
		for _, t := range targets {
			msg := ""
			if rule.Generate.Synchronize {
				msg = canIGenerate(store, profile, admissionController, t, []string{"list", "get"})
			}
			if msg == "" {
				msg = canIGenerate(store, profile, backgroundController, t, verbs)
			}
			if msg == "" {
				continue
			}
			pos := source.Pos{File: p.File, Line: 1, Col: 1}
			if p.Source != nil {
				pos = p.Source.Pos(path...)
			}
			out = append(out, source.Diagnostic{Pos: pos, Severity: source.SeverityError,
				Message: fmt.Sprintf("spec.rules[%d].generate: %s", rule.Index, msg)})
			break // Kyverno stops at the first target it may not manage
		}
	}
	return out
}

// canIGenerate is Kyverno's check for one pattern: "" when allowed, else
// Kyverno's message naming the missing verbs.
func canIGenerate(store *cluster.Store, profile Profile, c controller, t policy.Target, verbs []string) string {
	apiVersion, kind := t.APIVersion, t.Kind
	if t.CloneList != nil && len(t.CloneList.Kinds) > 0 {
		// Kyverno checks only the first kind of a cloneList.
		apiVersion, kind = splitCloneKind(t.CloneList.Kinds[0])
	}
	kind, sub, _ := strings.Cut(kind, "/")
	if kind == "" || strings.Contains(apiVersion+kind, "{{") {
		return "" // variables cannot be resolved: Kyverno skips the check
	}
	info, known := store.KindInfo(apiVersion, kind)
	if !known || store.Inferred(info.APIVersion(), info.Kind) {
		// Kyverno's discovery lookup would fail for a kind the cluster does
		// not serve; genplay cannot tell, so it does not judge.
		return ""
	}
	res := info.Resource
	if sub != "" {
		res += "/" + sub
	}
	rules := permissions(store, profile, c, t.Namespace)
	var missing []string
	for _, v := range verbs {
		if !allows(rules, info.Group, res, v) {
			missing = append(missing, v)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	gvk := apiVersion + "/" + kind
	if apiVersion == "" {
		gvk = info.APIVersion() + "/" + kind
	}
	if sub != "" {
		gvk += "/" + sub
	}
	msg := fmt.Sprintf("%s requires permissions %s for resource %s", c.user, strings.Join(missing, ","), gvk)
	if t.Namespace != "" {
		msg += " in namespace " + t.Namespace
	}
	return msg
}

// splitCloneKind reads a cloneList kind: "v1/Secret", "apps/v1/Deployment"
// or "Secret".
func splitCloneKind(k string) (apiVersion, kind string) {
	i := strings.LastIndex(k, "/")
	if i < 0 {
		return "", k
	}
	return k[:i], k[i+1:]
}

// permissions are the rules granted to a controller's service account:
// the chart's defaults, ClusterRoles aggregated into its ClusterRole,
// ClusterRoles bound to it, and, in namespace, Roles and ClusterRoles bound
// to it by RoleBindings.
func permissions(store *cluster.Store, profile Profile, c controller, namespace string) []rbacRule {
	rules := append([]rbacRule{}, c.defaults...)
	if profile == KyvernoE2E {
		rules = append(rules, c.e2e...)
	}
	rbacV1 := "rbac.authorization.k8s.io/v1"
	clusterRoles := map[string]resource.Object{}
	for _, cr := range store.List(cluster.Query{APIVersion: rbacV1, Kind: "ClusterRole"}) {
		clusterRoles[cr.Name()] = cr
		for _, sel := range c.aggregation {
			if labelsMatch(cr.Labels(), sel) {
				rules = append(rules, roleRules(cr)...)
				break
			}
		}
	}
	for _, b := range store.List(cluster.Query{APIVersion: rbacV1, Kind: "ClusterRoleBinding"}) {
		if binds(b, c) {
			if cr, ok := clusterRoles[b.NestedString("roleRef", "name")]; ok && b.NestedString("roleRef", "kind") == "ClusterRole" {
				rules = append(rules, roleRules(cr)...)
			}
		}
	}
	if namespace == "" || strings.Contains(namespace, "{{") {
		return rules
	}
	for _, b := range store.List(cluster.Query{APIVersion: rbacV1, Kind: "RoleBinding", Namespace: namespace}) {
		if !binds(b, c) {
			continue
		}
		name := b.NestedString("roleRef", "name")
		switch b.NestedString("roleRef", "kind") {
		case "ClusterRole":
			if cr, ok := clusterRoles[name]; ok {
				rules = append(rules, roleRules(cr)...)
			}
		case "Role":
			if r, err := store.Get(resource.Ref{APIVersion: rbacV1, Kind: "Role", Namespace: namespace, Name: name}); err == nil {
				rules = append(rules, roleRules(r)...)
			}
		}
	}
	return rules
}

func labelsMatch(labels, sel map[string]string) bool {
	for k, v := range sel {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}

// binds reports whether a binding's subjects include the controller's
// service account (directly or by group).
func binds(b resource.Object, c controller) bool {
	subjects, _ := b.Nested("subjects")
	list, _ := subjects.([]any)
	for _, x := range list {
		m, _ := x.(map[string]any)
		kind, _ := m["kind"].(string)
		name, _ := m["name"].(string)
		ns, _ := m["namespace"].(string)
		switch {
		case kind == "ServiceAccount" && name == c.serviceAccount && ns == backgroundServiceAccountNamespace:
			return true
		case kind == "User" && name == c.user:
			return true
		case kind == "Group" && slices.Contains([]string{"system:serviceaccounts", "system:serviceaccounts:" + backgroundServiceAccountNamespace, "system:authenticated"}, name):
			return true
		}
	}
	return false
}

// roleRules reads the rules of a Role or ClusterRole.
func roleRules(role resource.Object) []rbacRule {
	raw, _ := role.Nested("rules")
	list, _ := raw.([]any)
	var out []rbacRule
	for _, x := range list {
		m, _ := x.(map[string]any)
		out = append(out, rbacRule{
			apiGroups: stringList(m["apiGroups"]), resources: stringList(m["resources"]),
			verbs: stringList(m["verbs"]), resourceNames: stringList(m["resourceNames"]),
		})
	}
	return out
}

func stringList(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// allows reports whether rules grant verb on group/resource for a request
// that names no object (a rule limited to resourceNames does not).
func allows(rules []rbacRule, group, res, verb string) bool {
	for _, r := range rules {
		if len(r.resourceNames) > 0 {
			continue
		}
		if matchesAny(r.apiGroups, group) && matchesAny(r.resources, res) && matchesAny(r.verbs, verb) {
			return true
		}
	}
	return false
}

func matchesAny(list []string, s string) bool {
	for _, x := range list {
		if x == s || x == "*" {
			return true
		}
		// "*/scale" grants the scale subresource of every resource.
		if strings.HasPrefix(x, "*/") && strings.Contains(s, "/") && strings.HasSuffix(s, x[1:]) {
			return true
		}
	}
	return false
}

// Authorize is the API server's authorization of a write by Kyverno's
// background controller (a create, update or delete of obj, as verb): nil
// when its permissions (profile and the cluster's RBAC objects, as for
// CheckGenerate) grant it, else the API server's Forbidden error. Both
// families' writes pass it: Kyverno validates a GeneratingPolicy without
// asking for its targets' permissions (K:pkg/cel/policies/gpol/validate.go,
// unlike a ClusterPolicy's canIGenerate), so the API server's refusal,
// when the background controller writes, is what a user sees, as
// "failed to generate resources: permission denied: ..." (the generator
// library). Kinds the cluster does not serve are not judged.
func Authorize(store *cluster.Store, profile Profile, verb string, obj resource.Object) error {
	if profile == Unchecked {
		return nil
	}
	info, known := store.KindInfo(obj.APIVersion(), obj.Kind())
	if !known || store.Inferred(info.APIVersion(), info.Kind) {
		return nil
	}
	ns := obj.Namespace()
	if !info.Namespaced {
		ns = ""
	}
	if allows(permissions(store, profile, backgroundController, ns), info.Group, info.Resource, verb) {
		return nil
	}
	where := "at the cluster scope"
	if ns != "" {
		where = fmt.Sprintf("in the namespace %q", ns)
	}
	qualified := info.Resource
	if info.Group != "" {
		qualified += "." + info.Group
	}
	msg := fmt.Sprintf("%s %q is forbidden: User %q cannot %s resource %q in API group %q %s",
		qualified, obj.Name(), admission.BackgroundUser, verb, info.Resource, info.Group, where)
	if obj.Name() == "" || verb == "create" {
		msg = fmt.Sprintf("%s is forbidden: User %q cannot %s resource %q in API group %q %s",
			qualified, admission.BackgroundUser, verb, info.Resource, info.Group, where)
	}
	return &cluster.StatusError{Reason: cluster.ReasonForbidden, Code: 403, Message: msg}
}
