package gpol

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
)

func TestTriggerTargetsEnumerateRulesGroupsVersionsResources(t *testing.T) {
	m := &MatchResources{ResourceRules: []ResourceRule{
		{APIGroups: []string{"", "apps"}, APIVersions: []string{"v1"}, Resources: []string{"pods", "deployments"}},
		{APIGroups: []string{""}, APIVersions: []string{"*"}, Resources: []string{"namespaces"}},
	}}
	assert.Equal(t, []TriggerTarget{
		{0, "", "v1", "pods"}, {0, "", "v1", "deployments"}, {0, "apps", "v1", "pods"}, {0, "apps", "v1", "deployments"},
		{1, "", "*", "namespaces"},
	}, m.TriggerTargets())
	var none *MatchResources
	assert.Empty(t, none.TriggerTargets())
}

func TestTriggerTargetKindResolvesAsKyvernosRESTMapper(t *testing.T) {
	kinds := cluster.NewStore(cluster.NewClock()).Kinds()
	k, ok := TriggerTarget{Group: "", Version: "v1", Resource: "namespaces"}.Kind(kinds)
	require.True(t, ok)
	assert.Equal(t, "Namespace", k.Kind)
	k, ok = TriggerTarget{Group: "apps", Version: "*", Resource: "deployments"}.Kind(kinds)
	require.True(t, ok, "a single * version is the preferred version")
	assert.Equal(t, "Deployment", k.Kind)
	for _, t2 := range []TriggerTarget{
		{Group: "*", Version: "v1", Resource: "pods"},
		{Group: "", Version: "v1", Resource: "*"},
		{Group: "", Version: "v1", Resource: "pods/exec"},
		{Group: "", Version: "v2", Resource: "pods"},
		{Group: "", Version: "v1", Resource: "widgets"},
	} {
		_, ok := t2.Kind(kinds)
		assert.False(t, ok, "%+v is skipped", t2)
	}
}

func TestTriggerCandidateIsGetGpolTriggersCrudeFilter(t *testing.T) {
	target := TriggerTarget{Group: "", Version: "v1", Resource: "pods"}
	nsLabels := map[string]map[string]string{"prod": {"env": "prod"}, "dev": {"env": "dev"}}
	namespaces := func(name string) (map[string]string, bool) { l, ok := nsLabels[name]; return l, ok }
	base := func() *MatchResources {
		return &MatchResources{ResourceRules: []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, Operations: []string{admission.OpUpdate}}}}
	}

	m := base()
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "web", nil), namespaces), "operations are not looked at")

	m = base()
	m.ExcludeResourceRules = []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods}}
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "web", nil), namespaces), "an exact exclude rule excludes")

	m = base()
	m.ExcludeResourceRules = []ResourceRule{{APIGroups: all, APIVersions: all, Resources: all}}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "web", nil), namespaces), "* is not understood: a wildcard exclude rule excludes nothing here")

	m = base()
	m.ExcludeResourceRules = []ResourceRule{{APIGroups: core, APIVersions: v1, Resources: pods, ResourceNames: []string{"legacy"}}}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "web", nil), namespaces))
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "legacy", nil), namespaces), "exclude resourceNames are compared exactly")

	m = base()
	m.ResourceRules[0].ResourceNames = []string{"web"}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "web", nil), namespaces))
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "api", nil), namespaces), "the rule's resourceNames are compared exactly")

	m = base()
	m.ObjectSelector = &LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "p", map[string]any{"app": "web"}), namespaces))
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "p", map[string]any{"app": "db"}), namespaces), "the objectSelector is the list's label selector")

	m = base()
	m.NamespaceSelector = &LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "prod", "p", nil), namespaces))
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "dev", "p", nil), namespaces))
	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "gone", "p", nil), namespaces), "a namespace that cannot be read is not a candidate")
	nsTarget := TriggerTarget{Group: "", Version: "v1", Resource: "namespaces"}
	m.ResourceRules[0].Resources = []string{"namespaces"}
	assert.True(t, m.TriggerCandidate(nsTarget, obj("v1", "Namespace", "", "prod2", map[string]any{"env": "prod"}), namespaces), "a Namespace is read by its own labels")
	crTarget := TriggerTarget{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	m.ResourceRules[0] = ResourceRule{APIGroups: []string{"rbac.authorization.k8s.io"}, APIVersions: v1, Resources: []string{"clusterroles"}}
	assert.False(t, m.TriggerCandidate(crTarget, obj("rbac.authorization.k8s.io/v1", "ClusterRole", "", "admin", nil), namespaces),
		"a cluster-scoped object has no namespace to read: not a candidate (the engine's matcher would have matched it)")

	m = base()
	m.NamespaceSelector = &LabelSelector{MatchLabels: map[string]string{"env": "pr*"}}
	assert.True(t, m.TriggerCandidate(target, obj("v1", "Pod", "prod", "p", nil), namespaces), "the namespace check is Kyverno's legacy CheckSelector, with wildcards")

	assert.False(t, m.TriggerCandidate(target, obj("v1", "Pod", "prod", "p", nil), nil), "without a namespace lookup no namespace is known")
	assert.False(t, base().TriggerCandidate(TriggerTarget{Rule: 3}, obj("v1", "Pod", "dev", "p", nil), namespaces), "a target of another policy's rules")
}
