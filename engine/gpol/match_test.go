package gpol

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/resource"
)

func obj(apiVersion, kind, ns, name string, labels map[string]any) resource.Object {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	if labels != nil {
		md["labels"] = labels
	}
	return resource.Object{"apiVersion": apiVersion, "kind": kind, "metadata": md}
}

func podCreate(ns, name string, labels map[string]any) Attributes {
	return Attributes{Operation: admission.OpCreate, Version: "v1", Resource: "pods", Kind: resource.GVK{Version: "v1", Kind: "Pod"},
		Name: name, Namespace: ns, Object: obj("v1", "Pod", ns, name, labels), Namespaced: true}
}

func nsRequest(op, name string, labels map[string]any) Attributes {
	a := Attributes{Operation: op, Version: "v1", Resource: "namespaces", Kind: resource.GVK{Version: "v1", Kind: "Namespace"}, Name: name}
	o := obj("v1", "Namespace", "", name, labels)
	switch op {
	case admission.OpCreate:
		a.Object = o
	case admission.OpUpdate:
		a.Object, a.OldObject = o, o
	case admission.OpDelete:
		a.OldObject = o
	}
	return a
}

func rule(groups, versions, resources, ops []string) ResourceRule {
	return ResourceRule{APIGroups: groups, APIVersions: versions, Resources: resources, Operations: ops, Scope: "*"}
}

var (
	core    = []string{""}
	v1      = []string{"v1"}
	all     = []string{"*"}
	create  = []string{admission.OpCreate}
	pods    = []string{"pods"}
	crUp    = []string{admission.OpCreate, admission.OpUpdate}
	anyRule = rule(all, all, all, all)
)

func TestMatchFollowsKubernetesRules(t *testing.T) {
	exec := podCreate("team-a", "web", nil)
	exec.Operation, exec.SubResource = admission.OpConnect, "exec"
	exec.Kind = resource.GVK{Version: "v1", Kind: "PodExecOptions"}
	scale := Attributes{Operation: admission.OpUpdate, Group: "apps", Version: "v1", Resource: "deployments", SubResource: "scale", Name: "web", Namespace: "team-a"}
	deploy := Attributes{Operation: admission.OpCreate, Group: "apps", Version: "v1", Resource: "deployments", Name: "web", Namespace: "team-a",
		Kind: resource.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}}
	generated := podCreate("team-a", "", nil)
	generated.Object.Metadata()["generateName"] = "web-"
	clusterRole := Attributes{Operation: admission.OpCreate, Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Name: "admin"}

	tests := []struct {
		name  string
		rules []ResourceRule
		a     Attributes
		want  bool
		why   string
	}{
		{"an exact rule matches", []ResourceRule{rule(core, v1, pods, create)}, podCreate("team-a", "web", nil), true, ""},
		{"* matches every group, version, resource and operation", []ResourceRule{anyRule}, deploy, true, ""},
		{"an unlisted operation does not match", []ResourceRule{rule(core, v1, pods, create)}, func() Attributes { a := podCreate("team-a", "web", nil); a.Operation = admission.OpUpdate; return a }(), false,
			"UPDATE of Pod team-a/web does not match matchConstraints.resourceRules: operation UPDATE is not in operations [CREATE]"},
		{"another group does not match", []ResourceRule{rule(core, v1, []string{"deployments"}, create)}, deploy, false,
			`CREATE of Deployment team-a/web does not match matchConstraints.resourceRules: API group "apps" is not in apiGroups [""]`},
		{"another version does not match", []ResourceRule{rule([]string{"apps"}, []string{"v1beta1"}, []string{"deployments"}, create)}, deploy, false,
			`CREATE of Deployment team-a/web does not match matchConstraints.resourceRules: version "v1" is not in apiVersions [v1beta1]`},
		{"another resource does not match", []ResourceRule{rule(core, v1, []string{"configmaps"}, create)}, podCreate("team-a", "web", nil), false,
			`CREATE of Pod team-a/web does not match matchConstraints.resourceRules: resource "pods" is not in resources [configmaps]`},
		{"* does not match subresources", []ResourceRule{rule(core, v1, all, all)}, exec, false,
			`CONNECT of PodExecOptions/exec team-a/web does not match matchConstraints.resourceRules: resource "pods/exec" is not in resources [*]`},
		{"pods/* matches pods/exec", []ResourceRule{rule(core, v1, []string{"pods/*"}, all)}, exec, true, ""},
		{"pods/exec matches pods/exec", []ResourceRule{rule(core, v1, []string{"pods/exec"}, []string{admission.OpConnect})}, exec, true, ""},
		{"pods does not match pods/exec", []ResourceRule{rule(core, v1, pods, all)}, exec, false,
			`CONNECT of PodExecOptions/exec team-a/web does not match matchConstraints.resourceRules: resource "pods/exec" is not in resources [pods]`},
		{"*/scale matches a scale subresource", []ResourceRule{rule(all, all, []string{"*/scale"}, all)}, scale, true, ""},
		{"*/* matches everything", []ResourceRule{rule(all, all, []string{"*/*"}, all)}, scale, true, ""},
		{"*/scale does not match the resource itself", []ResourceRule{rule(all, all, []string{"*/scale"}, all)}, deploy, false,
			`CREATE of Deployment team-a/web does not match matchConstraints.resourceRules: resource "deployments" is not in resources [*/scale]`},
		{"scope Namespaced matches a namespaced request", []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, Scope: "Namespaced"}}, podCreate("team-a", "web", nil), true, ""},
		{"scope Namespaced does not match a Namespace", []ResourceRule{{APIGroups: all, APIVersions: all, Resources: all, Operations: all, Scope: "Namespaced"}}, nsRequest(admission.OpCreate, "team-a", nil), false,
			"CREATE of Namespace team-a does not match matchConstraints.resourceRules: scope Namespaced does not match a cluster-scoped request"},
		{"scope Cluster matches a Namespace", []ResourceRule{{APIGroups: all, APIVersions: all, Resources: all, Operations: all, Scope: "Cluster"}}, nsRequest(admission.OpCreate, "team-a", nil), true, ""},
		{"scope Cluster matches a cluster-scoped kind", []ResourceRule{{APIGroups: all, APIVersions: all, Resources: all, Operations: all, Scope: "Cluster"}}, clusterRole, true, ""},
		{"scope Cluster does not match a namespaced request", []ResourceRule{{APIGroups: all, APIVersions: all, Resources: all, Operations: all, Scope: "Cluster"}}, deploy, false,
			"CREATE of Deployment team-a/web does not match matchConstraints.resourceRules: scope Cluster does not match a namespaced request"},
		{"resourceNames match the name exactly", []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, ResourceNames: []string{"web"}}}, podCreate("team-a", "web", nil), true, ""},
		{"resourceNames do not match another name", []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, ResourceNames: []string{"we"}}}, podCreate("team-a", "web", nil), false,
			`CREATE of Pod team-a/web does not match matchConstraints.resourceRules: name "web" is not in resourceNames [we]`},
		{"resourceNames match a generateName prefix when the name is empty", []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, ResourceNames: []string{"web"}}}, generated, true, ""},
		{"resourceNames need the generateName to start with a name", []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, ResourceNames: []string{"api"}}}, generated, false,
			`CREATE of Pod does not match matchConstraints.resourceRules: the request has no name and its generateName "web-" starts with none of resourceNames [api]`},
		{"any of several rules matches", []ResourceRule{rule(core, v1, []string{"configmaps"}, create), rule(core, v1, pods, create)}, podCreate("team-a", "web", nil), true, ""},
		{"none of several rules says why for each", []ResourceRule{rule(core, v1, []string{"configmaps"}, create), rule(core, v1, pods, []string{admission.OpDelete})}, podCreate("team-a", "web", nil), false,
			`CREATE of Pod team-a/web matches none of matchConstraints.resourceRules: [0] resource "pods" is not in resources [configmaps]; [1] operation CREATE is not in operations [DELETE]`},
		{"an empty rule list matches everything", nil, podCreate("team-a", "web", nil), true, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := &MatchResources{ResourceRules: tc.rules}
			got, why := m.Match(tc.a)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.why, why)
		})
	}
}

func TestMatchExcludeRulesWin(t *testing.T) {
	m := &MatchResources{
		ResourceRules:        []ResourceRule{anyRule},
		ExcludeResourceRules: []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: all, ResourceNames: []string{"legacy"}}},
	}
	ok, _ := m.Match(podCreate("team-a", "web", nil))
	assert.True(t, ok)
	ok, why := m.Match(podCreate("team-a", "legacy", nil))
	assert.False(t, ok)
	assert.Equal(t, "CREATE of Pod team-a/legacy is excluded by matchConstraints.excludeResourceRules[0]", why)
}

func TestMatchNamespaceSelector(t *testing.T) {
	prod := &LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
	m := &MatchResources{ResourceRules: []ResourceRule{anyRule}, NamespaceSelector: prod}
	withNS := func(a Attributes, labels map[string]string) Attributes { a.NamespaceLabels = labels; return a }

	ok, _ := m.Match(withNS(podCreate("team-a", "web", nil), map[string]string{"env": "prod"}))
	assert.True(t, ok, "the namespace's labels are read")

	ok, why := m.Match(withNS(podCreate("team-a", "web", nil), map[string]string{"env": "dev"}))
	assert.False(t, ok)
	assert.Equal(t, "CREATE of Pod team-a/web: the labels of namespace team-a do not match matchConstraints.namespaceSelector (env=prod)", why)

	ok, _ = m.Match(Attributes{Operation: admission.OpCreate, Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles", Name: "admin"})
	assert.True(t, ok, "a cluster-scoped object other than a Namespace always matches")

	ok, _ = m.Match(nsRequest(admission.OpCreate, "team-a", map[string]any{"env": "prod"}))
	assert.True(t, ok, "a Namespace's CREATE reads its own labels")
	ok, why = m.Match(nsRequest(admission.OpUpdate, "team-a", map[string]any{"env": "dev"}))
	assert.False(t, ok, "a Namespace's UPDATE reads its own labels")
	assert.Equal(t, "UPDATE of Namespace team-a: the Namespace's own labels do not match matchConstraints.namespaceSelector (env=prod)", why)

	ok, _ = m.Match(withNS(podCreate("team-a", "web", nil), nil))
	assert.False(t, ok, "without a namespace object only kubernetes.io/metadata.name is known")
	byName := &MatchResources{ResourceRules: []ResourceRule{anyRule}, NamespaceSelector: &LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "team-a"}}}
	ok, _ = byName.Match(withNS(podCreate("team-a", "web", nil), nil))
	assert.True(t, ok)

	del := podCreate("team-a", "web", nil)
	del.Operation, del.Object, del.OldObject, del.Namespace = admission.OpDelete, nil, del.Object, ""
	ok, _ = m.Match(withNS(del, map[string]string{"env": "dev"}))
	assert.True(t, ok, "on DELETE Kyverno's attributes have no namespace: the selector is not consulted")

	ok, why = m.Match(withNS(nsRequest(admission.OpDelete, "team-a", nil), map[string]string{"env": "prod"}))
	assert.False(t, ok, "a Namespace's DELETE: Kyverno looks for the namespace named \"\"")
	assert.Equal(t, `failed to execute matching: namespaces.v1 "" not found`, why)

	empty := &MatchResources{ResourceRules: []ResourceRule{anyRule}, NamespaceSelector: &LabelSelector{}}
	ok, _ = empty.Match(withNS(podCreate("team-a", "web", nil), map[string]string{"env": "dev"}))
	assert.True(t, ok, "an empty selector selects everything")
}

func TestMatchObjectSelectorMatchesTheObjectOrTheOldObject(t *testing.T) {
	web := &LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	m := &MatchResources{ResourceRules: []ResourceRule{anyRule}, ObjectSelector: web}

	ok, _ := m.Match(podCreate("team-a", "p", map[string]any{"app": "web"}))
	assert.True(t, ok)
	ok, why := m.Match(podCreate("team-a", "p", map[string]any{"app": "db"}))
	assert.False(t, ok)
	assert.Equal(t, "CREATE of Pod team-a/p: the object's labels do not match matchConstraints.objectSelector (app=web)", why)

	upd := podCreate("team-a", "p", map[string]any{"app": "db"})
	upd.Operation, upd.OldObject = admission.OpUpdate, obj("v1", "Pod", "team-a", "p", map[string]any{"app": "web"})
	ok, _ = m.Match(upd)
	assert.True(t, ok, "an UPDATE that removes the selected label still matches: the old object does")

	upd.OldObject = upd.Object
	ok, why = m.Match(upd)
	assert.False(t, ok)
	assert.Equal(t, "UPDATE of Pod team-a/p: neither the object's nor the old object's labels match matchConstraints.objectSelector (app=web)", why)

	in := &MatchResources{ResourceRules: []ResourceRule{anyRule}, ObjectSelector: &LabelSelector{MatchExpressions: []Requirement{{Key: "tier", Operator: "NotIn", Values: []string{"db"}}}}}
	ok, _ = in.Match(podCreate("team-a", "p", nil))
	assert.True(t, ok, "NotIn holds for an absent label")
}

func TestMatchHasNoWildcardsInSelectors(t *testing.T) {
	m := &MatchResources{ResourceRules: []ResourceRule{anyRule}, ObjectSelector: &LabelSelector{MatchLabels: map[string]string{"app": "w*"}}}
	ok, why := m.Match(podCreate("team-a", "p", map[string]any{"app": "web"}))
	assert.False(t, ok, "Kubernetes selectors have no wildcards: w* is an invalid label value")
	assert.Contains(t, why, "failed to execute matching: matchConstraints.objectSelector:")
}

func TestMatchReportsASelectorErrorOnlyWhenTheRulesMatch(t *testing.T) {
	bad := &LabelSelector{MatchExpressions: []Requirement{{Key: "a", Operator: "Has"}}}
	m := &MatchResources{ResourceRules: []ResourceRule{rule(core, v1, []string{"configmaps"}, all)}, NamespaceSelector: bad}
	ok, why, err := m.Check(podCreate("team-a", "p", nil))
	assert.False(t, ok)
	assert.NoError(t, err, "a request the rules do not match is not an error")
	assert.Contains(t, why, "does not match matchConstraints.resourceRules")

	m.ResourceRules = []ResourceRule{anyRule}
	_, _, err = m.Check(podCreate("team-a", "p", nil))
	assert.EqualError(t, err, `matchConstraints.namespaceSelector: "Has" is not a valid label selector operator`)
}

func TestMatchWithoutMatchConstraints(t *testing.T) {
	var m *MatchResources
	ok, why := m.Match(podCreate("team-a", "p", nil))
	assert.False(t, ok)
	assert.Equal(t, "the policy has no matchConstraints", why)
}

func TestBackgroundRequestsAreCreates(t *testing.T) {
	// Kyverno evaluates background URs as CREATE: a rule without CREATE
	// never matches them.
	m := &MatchResources{ResourceRules: []ResourceRule{rule(core, v1, pods, []string{admission.OpUpdate})}}
	ok, why := m.Match(podCreate("team-a", "p", nil))
	assert.False(t, ok)
	assert.Contains(t, why, "operation CREATE is not in operations [UPDATE]")
}
