package match

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
)

func obj(apiVersion, kind, ns, name string, labels map[string]any, annotations map[string]any) resource.Object {
	md := map[string]any{"name": name}
	if ns != "" {
		md["namespace"] = ns
	}
	if labels != nil {
		md["labels"] = labels
	}
	if annotations != nil {
		md["annotations"] = annotations
	}
	return resource.Object{"apiVersion": apiVersion, "kind": kind, "metadata": md}
}

func any1(d policy.ResourceDescription) policy.MatchBlock {
	return policy.MatchBlock{Any: []policy.Filter{{Resources: d}}}
}

func TestRule(t *testing.T) {
	ns := obj("v1", "Namespace", "", "team-a", map[string]any{"env": "prod"}, nil)
	kubeSystem := obj("v1", "Namespace", "", "kube-system", nil, nil)
	cm := obj("v1", "ConfigMap", "team-a", "settings", map[string]any{"app": "web"}, map[string]any{"owner": "alice"})
	deploy := obj("apps/v1", "Deployment", "team-a", "web", nil, nil)
	admin := &admission.UserInfo{Username: "alice", Groups: []string{"devs"}, ClusterRoles: []string{"cluster-admin"}}

	tests := []struct {
		name    string
		rule    policy.Rule
		req     Request
		matched bool
		reason  string
	}{
		{
			name:    "a kind in match.any matches",
			rule:    policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"Namespace"}})},
			req:     Request{Object: ns},
			matched: true,
		},
		{
			name:   "a kind not listed does not match",
			rule:   policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"Pod"}})},
			req:    Request{Object: ns},
			reason: "Namespace team-a does not match rule r: any[0]: kind Namespace is not one of [Pod]",
		},
		{
			name:   "an empty match block never matches",
			rule:   policy.Rule{Name: "r"},
			req:    Request{Object: ns},
			reason: "Namespace team-a does not match rule r: the match block is empty",
		},
		{
			name: "a Namespace is excluded by its own name",
			rule: policy.Rule{Name: "r",
				Match:   any1(policy.ResourceDescription{Kinds: []string{"Namespace"}}),
				Exclude: any1(policy.ResourceDescription{Namespaces: []string{"kube-*"}})},
			req:    Request{Object: kubeSystem},
			reason: "Namespace kube-system is excluded by the rule's exclude block (exclude.any[0] matches)",
		},
		{
			name: "exclude.all needs every filter to match",
			rule: policy.Rule{Name: "r",
				Match: any1(policy.ResourceDescription{Kinds: []string{"ConfigMap"}}),
				Exclude: policy.MatchBlock{All: []policy.Filter{
					{Resources: policy.ResourceDescription{Names: []string{"settings"}}},
					{Resources: policy.ResourceDescription{Namespaces: []string{"other"}}},
				}}},
			req:     Request{Object: cm},
			matched: true,
		},
		{
			name: "match.all needs every filter to match",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{All: []policy.Filter{
				{Resources: policy.ResourceDescription{Kinds: []string{"ConfigMap"}}},
				{Resources: policy.ResourceDescription{Names: []string{"other"}}},
			}}},
			req:    Request{Object: cm},
			reason: `ConfigMap team-a/settings does not match rule r: all[1]: name "settings" is not one of [other]`,
		},
		{
			name: "match.all is ignored when match.any is set",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{
				Any: []policy.Filter{{Resources: policy.ResourceDescription{Kinds: []string{"ConfigMap"}}}},
				All: []policy.Filter{{Resources: policy.ResourceDescription{Kinds: []string{"Pod"}}}},
			}},
			req:     Request{Object: cm},
			matched: true,
		},
		{
			name:    "operations must list the request's operation",
			rule:    policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"ConfigMap"}, Operations: []string{"CREATE"}})},
			req:     Request{Object: cm, Operation: "CREATE"},
			matched: true,
		},
		{
			name:   "background processing never matches listed operations",
			rule:   policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"ConfigMap"}, Operations: []string{"CREATE"}})},
			req:    Request{Object: cm},
			reason: `ConfigMap team-a/settings does not match rule r: any[0]: operation "" (background) is not one of [CREATE]`,
		},
		{
			name:    "annotations match with wildcards",
			rule:    policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Annotations: map[string]string{"own*": "?*"}})},
			req:     Request{Object: cm},
			matched: true,
		},
		{
			name:    "a namespaceSelector reads the namespace's labels",
			rule:    policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{NamespaceSelector: &policy.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}})},
			req:     Request{Object: cm, NamespaceLabels: map[string]string{"env": "prod"}},
			matched: true,
		},
		{
			name:   "a namespaceSelector never matches a Namespace",
			rule:   policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{NamespaceSelector: &policy.LabelSelector{}})},
			req:    Request{Object: ns, NamespaceLabels: map[string]string{"env": "prod"}},
			reason: "Namespace team-a does not match rule r: any[0]: namespaceSelector never matches a Namespace",
		},
		{
			name:    "a group/version/kind entry matches",
			rule:    policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"apps/v1/Deployment"}})},
			req:     Request{Object: deploy},
			matched: true,
		},
		{
			name:   "a namespaced Policy only matches its own namespace",
			rule:   policy.Rule{Name: "r", Match: any1(policy.ResourceDescription{Kinds: []string{"Namespace"}})},
			req:    Request{Object: ns, PolicyNamespace: "team-a"},
			reason: "Namespace team-a is cluster-scoped, but a Policy in namespace team-a only matches resources in its own namespace",
		},
		{
			name: "userInfo is ignored in background",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{Any: []policy.Filter{{
				Resources: policy.ResourceDescription{Kinds: []string{"ConfigMap"}}, ClusterRoles: []string{"cluster-admin"},
			}}}},
			req:     Request{Object: cm},
			matched: true,
		},
		{
			name: "a filter of only userInfo never matches in background",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{Any: []policy.Filter{{
				Subjects: []policy.Subject{{Kind: "User", Name: "alice"}},
			}}}},
			req:    Request{Object: cm},
			reason: "ConfigMap team-a/settings does not match rule r: any[0]: the filter is empty",
		},
		{
			name: "subjects match the admission user",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{Any: []policy.Filter{{
				Resources: policy.ResourceDescription{Kinds: []string{"ConfigMap"}},
				Subjects:  []policy.Subject{{Kind: "Group", Name: "dev*"}},
			}}}},
			req:     Request{Object: cm, UserInfo: admin},
			matched: true,
		},
		{
			name: "clusterRoles must be held by the user",
			rule: policy.Rule{Name: "r", Match: policy.MatchBlock{Any: []policy.Filter{{
				Resources:    policy.ResourceDescription{Kinds: []string{"ConfigMap"}},
				ClusterRoles: []string{"view"},
			}}}},
			req:    Request{Object: cm, UserInfo: admin},
			reason: "ConfigMap team-a/settings does not match rule r: any[0]: the user has none of the cluster roles [view]",
		},
		{
			name: "exclude by userInfo does not exclude in background",
			rule: policy.Rule{Name: "r",
				Match:   any1(policy.ResourceDescription{Kinds: []string{"ConfigMap"}}),
				Exclude: policy.MatchBlock{Any: []policy.Filter{{ClusterRoles: []string{"cluster-admin"}}}}},
			req:     Request{Object: cm},
			matched: true,
		},
		{
			name: "exclude by userInfo excludes at admission",
			rule: policy.Rule{Name: "r",
				Match:   any1(policy.ResourceDescription{Kinds: []string{"ConfigMap"}}),
				Exclude: policy.MatchBlock{Any: []policy.Filter{{ClusterRoles: []string{"cluster-admin"}}}}},
			req:    Request{Object: cm, UserInfo: admin},
			reason: "ConfigMap team-a/settings is excluded by the rule's exclude block (exclude.any[0] matches)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			matched, reason := Rule(&tt.rule, tt.req)
			assert.Equal(t, tt.matched, matched)
			assert.Equal(t, tt.reason, reason)
		})
	}
}

func TestKind(t *testing.T) {
	pod := resource.GVK{Version: "v1", Kind: "Pod"}
	deploy := resource.GVK{Group: "apps", Version: "v1", Kind: "Deployment"}
	tests := []struct {
		name, pattern string
		gvk           resource.GVK
		sub           string
		want          bool
	}{
		{"a bare kind matches any group and version", "Deployment", deploy, "", true},
		{"a version/kind entry checks the version", "v1/Pod", pod, "", true},
		{"a version/kind entry rejects another version", "v2/Pod", pod, "", false},
		{"a group/version/kind entry checks the group", "batch/v1/Deployment", deploy, "", false},
		{"a star group matches", "*/Deployment", deploy, "", true},
		{"a bare kind does not match a subresource", "Pod", pod, "exec", false},
		{"a kind/subresource entry matches it", "Pod/exec", pod, "exec", true},
		{"Pod also matches ephemeral containers", "Pod", pod, "ephemeralcontainers", true},
		{"star/star matches everything", "*/*", pod, "status", true},
		{"kinds are case-sensitive", "pod", pod, "", false},
		{"wildcards apply to kinds", "Config*", resource.GVK{Version: "v1", Kind: "ConfigMap"}, "", true},
		{"a kind.subresource entry matches it", "Pod.exec", pod, "exec", true},
		{"a kind.subresource entry needs the subresource", "Pod.exec", pod, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Kind(tt.pattern, tt.gvk, tt.sub))
		})
	}
}

func TestSelector(t *testing.T) {
	labels := map[string]string{"app": "web", "env": "prod"}
	tests := []struct {
		name string
		sel  *policy.LabelSelector
		want bool
	}{
		{"a nil selector selects nothing", nil, false},
		{"an empty selector selects everything", &policy.LabelSelector{}, true},
		{"matchLabels must all hold", &policy.LabelSelector{MatchLabels: map[string]string{"app": "web", "env": "dev"}}, false},
		{"wildcards in matchLabels expand against the labels", &policy.LabelSelector{MatchLabels: map[string]string{"ap*": "w?b"}}, true},
		{"unmatched wildcards become zeros and fail", &policy.LabelSelector{MatchLabels: map[string]string{"x*": "*"}}, false},
		{"In needs the value listed", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "env", Operator: "In", Values: []string{"prod", "stage"}}}}, true},
		{"NotIn holds for an absent label", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "tier", Operator: "NotIn", Values: []string{"db"}}}}, true},
		{"Exists needs the key", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "tier", Operator: "Exists"}}}, false},
		{"DoesNotExist rejects a present key", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "app", Operator: "DoesNotExist"}}}, false},
		{"In without values is invalid", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "app", Operator: "In"}}}, false},
		{"an unknown operator is invalid", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "app", Operator: "Has", Values: []string{"web"}}}}, false},
		{"a wildcard in an expression value is invalid", &policy.LabelSelector{MatchExpressions: []policy.Requirement{{Key: "app", Operator: "In", Values: []string{"w*"}}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Selector(tt.sel, labels))
		})
	}
}

func TestWildcard(t *testing.T) {
	assert.True(t, Wildcard("team-*", "team-a"))
	assert.False(t, Wildcard("team-?", "team-ab"))
	assert.False(t, Wildcard("Team-*", "team-a"))
}
