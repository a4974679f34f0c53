package engine

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/resource"
)

func object(t *testing.T, text string) resource.Object {
	t.Helper()
	var m map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(text), &m))
	return resource.Object(m)
}

// generatePolicy is a ClusterPolicy whose one rule generates the given
// generate block (YAML, indented for the block).
func generatePolicy(t *testing.T, generate string) resource.Object {
	return object(t, `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
`+indent(generate, 6))
}

const secretsRole = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: kyverno:background-controller:secrets
  labels:
    %s
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, create, update, delete]
`

func TestTheBackgroundControllerNeedsPermissionsForEveryTarget(t *testing.T) {
	cloneSecret := "synchronize: true\napiVersion: v1\nkind: Secret\nname: regcred\nnamespace: '{{request.object.metadata.name}}'\nclone:\n  namespace: default\n  name: regcred\n"
	cases := []struct {
		name        string
		permissions Permissions
		setup       []string
		generate    string
		denied      string // "" when the policy is admitted
	}{
		{
			name:     "a default install may not manage Secrets",
			generate: cloneSecret,
			denied:   "spec.rules[0].generate: system:serviceaccount:kyverno:kyverno-background-controller requires permissions create,update,delete for resource v1/Secret in namespace {{request.object.metadata.name}}",
		},
		{
			name:     "without synchronize only get and create are needed",
			generate: "apiVersion: v1\nkind: ServiceAccount\nname: bot\nnamespace: default\n",
			denied:   "requires permissions create for resource v1/ServiceAccount in namespace default",
		},
		{
			name:     "a default install manages ConfigMaps",
			generate: "synchronize: true\napiVersion: v1\nkind: ConfigMap\nname: settings\nnamespace: default\ndata:\n  data:\n    a: b\n",
		},
		{
			name:     "a default install manages NetworkPolicies",
			generate: "synchronize: true\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nname: deny\nnamespace: default\ndata:\n  spec:\n    podSelector: {}\n",
		},
		{
			name:     "a ClusterRole with Kyverno's aggregation label grants",
			setup:    []string{sprintf(secretsRole, `rbac.kyverno.io/aggregate-to-background-controller: "true"`)},
			generate: cloneSecret,
		},
		{
			name: "a ClusterRole with the chart's component labels grants",
			setup: []string{sprintf(secretsRole, `app.kubernetes.io/component: background-controller
    app.kubernetes.io/instance: kyverno
    app.kubernetes.io/part-of: kyverno`)},
			generate: cloneSecret,
		},
		{
			name:     "a ClusterRole without those labels does not",
			setup:    []string{sprintf(secretsRole, `team: platform`)},
			generate: cloneSecret,
			denied:   "requires permissions create,update,delete for resource v1/Secret",
		},
		{
			name: "a ClusterRoleBinding to the service account grants",
			setup: []string{sprintf(secretsRole, `team: platform`), `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: kyverno-secrets
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kyverno:background-controller:secrets
subjects:
- kind: ServiceAccount
  name: kyverno-background-controller
  namespace: kyverno
`},
			generate: cloneSecret,
		},
		{
			name: "a RoleBinding grants only in its namespace",
			setup: []string{sprintf(secretsRole, `team: platform`), `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: kyverno-secrets
  namespace: default
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kyverno:background-controller:secrets
subjects:
- kind: ServiceAccount
  name: kyverno-background-controller
  namespace: kyverno
`},
			generate: "apiVersion: v1\nkind: Secret\nname: s\nnamespace: default\ndata:\n  data: {}\n",
		},
		{
			name: "a RoleBinding in another namespace does not grant",
			setup: []string{sprintf(secretsRole, `team: platform`), `apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: kyverno-secrets
  namespace: kube-public
roleRef:
  apiGroup: rbac.authorization.k8s.io
  kind: ClusterRole
  name: kyverno:background-controller:secrets
subjects:
- kind: ServiceAccount
  name: kyverno-background-controller
  namespace: kyverno
`},
			generate: "apiVersion: v1\nkind: Secret\nname: s\nnamespace: default\ndata:\n  data: {}\n",
			denied:   "requires permissions create for resource v1/Secret in namespace default",
		},
		{
			name:        "Kyverno's e2e install manages Secrets",
			permissions: PermissionsKyvernoE2E,
			generate:    cloneSecret,
		},
		{
			name:        "with the check off anything goes",
			permissions: PermissionsUnchecked,
			generate:    "apiVersion: v1\nkind: ServiceAccount\nname: bot\nnamespace: default\n",
		},
		{
			name:     "a kind with variables is not checked",
			generate: "apiVersion: v1\nkind: '{{request.object.metadata.labels.kind}}'\nname: x\nnamespace: default\n",
		},
		{
			name:     "a cloneList is checked on its first kind",
			generate: "synchronize: true\nnamespace: '{{request.object.metadata.name}}'\ncloneList:\n  namespace: default\n  kinds: [v1/Secret, v1/ConfigMap]\n",
			denied:   "for resource v1/Secret in namespace",
		},
		{
			name:     "every foreach target is checked",
			generate: "foreach:\n- list: \"['a']\"\n  apiVersion: v1\n  kind: ConfigMap\n  name: cm\n  namespace: default\n  data: {}\n- list: \"['a']\"\n  apiVersion: v1\n  kind: ServiceAccount\n  name: sa\n  namespace: default\n",
			denied:   "for resource v1/ServiceAccount",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := NewSession(Options{Permissions: c.permissions})
			for _, text := range c.setup {
				_, _, err := s.Put(ModeCreate, object(t, text), nil)
				require.NoError(t, err)
			}
			_, _, err := s.Put(ModeCreate, generatePolicy(t, c.generate), nil)
			if c.denied == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), `admission webhook "validate-policy.kyverno.svc" denied the request`)
			assert.Contains(t, err.Error(), c.denied)
		})
	}
}

func TestParsePermissions(t *testing.T) {
	for in, want := range map[string]Permissions{"": PermissionsChart, "chart": PermissionsChart, "kyverno-e2e": PermissionsKyvernoE2E, "none": PermissionsUnchecked} {
		got, err := ParsePermissions(in)
		require.NoError(t, err)
		assert.Equal(t, want, got, in)
	}
	_, err := ParsePermissions("all")
	assert.Error(t, err)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
