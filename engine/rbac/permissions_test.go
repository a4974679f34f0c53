package rbac

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

func object(t *testing.T, text string) resource.Object {
	t.Helper()
	var m map[string]any
	require.NoError(t, yaml.Unmarshal([]byte(text), &m))
	return resource.Object(m)
}

// generatePolicy is a ClusterPolicy whose one rule generates the given
// generate block (YAML, indented for the block).
func generatePolicy(t *testing.T, generate string) *policy.Policy {
	t.Helper()
	p, diags := policy.Parse(nil, object(t, `apiVersion: kyverno.io/v1
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
`+indent(generate, 6)))
	require.False(t, diags.HasErrors(), diags.Error())
	return p
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pad + l
	}
	return strings.Join(lines, "\n") + "\n"
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

// admissionReadsSecrets lets the admission controller list and get
// Secrets, which Kyverno checks first for a synchronized rule.
const admissionReadsSecrets = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: kyverno:admission-controller:secrets
  labels:
    rbac.kyverno.io/aggregate-to-admission-controller: "true"
rules:
- apiGroups: [""]
  resources: [secrets]
  verbs: [get, list]
`

func newStore(t *testing.T, setup []string) *cluster.Store {
	t.Helper()
	store := cluster.NewStore(cluster.NewClock())
	for _, ns := range []string{"default", "kube-public"} {
		_, err := store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		require.NoError(t, err)
	}
	for _, text := range setup {
		_, err := store.Create(object(t, text))
		require.NoError(t, err)
	}
	return store
}

// For a synchronized rule, Kyverno first checks that the admission
// controller may list and get the targets: a default install's may not
// read Secrets. Real Kyverno v1.19.0 refused the gallery's
// clone-registry-secret policy so (with the background controller allowed):
// "path: spec.rules[0].generate..: system:serviceaccount:kyverno:kyverno-admission-controller
// requires permissions list,get for resource v1/Secret in namespace {{request.object.metadata.name}}".
func TestTheAdmissionControllerMustReadASynchronizedRulesTargets(t *testing.T) {
	cloneSecret := "synchronize: true\napiVersion: v1\nkind: Secret\nname: regcred\nnamespace: '{{request.object.metadata.name}}'\nclone:\n  namespace: default\n  name: regcred\n"
	backgroundSecrets := sprintf(secretsRole, `rbac.kyverno.io/aggregate-to-background-controller: "true"`)
	cases := []struct {
		name        string
		permissions Profile
		setup       []string
		generate    string
		denied      string
	}{
		{name: "a default install's may not read Secrets", setup: []string{backgroundSecrets}, generate: cloneSecret,
			denied: "spec.rules[0].generate: system:serviceaccount:kyverno:kyverno-admission-controller requires permissions list,get for resource v1/Secret in namespace {{request.object.metadata.name}}"},
		{name: "it is checked before the background controller", generate: cloneSecret, denied: "kyverno-admission-controller requires permissions list,get"},
		{name: "without synchronize it is not checked", setup: []string{backgroundSecrets},
			generate: strings.Replace(cloneSecret, "synchronize: true", "synchronize: false", 1)},
		{name: "a ClusterRole aggregated into its role grants", setup: []string{backgroundSecrets, admissionReadsSecrets}, generate: cloneSecret},
		{name: "Kyverno's e2e install lets it read Secrets", permissions: KyvernoE2E, generate: cloneSecret},
		{name: "it reads ConfigMaps (the chart's core role)", generate: "synchronize: true\napiVersion: v1\nkind: ConfigMap\nname: c\nnamespace: default\ndata:\n  data: {}\n"},
		{name: "it reads NetworkPolicies (Kubernetes' view role)", generate: "synchronize: true\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nname: deny\nnamespace: default\ndata:\n  spec: {}\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			diags := CheckGenerate(newStore(t, c.setup), c.permissions, generatePolicy(t, c.generate))
			if c.denied == "" {
				assert.Empty(t, diags)
				return
			}
			require.Len(t, diags, 1)
			assert.Contains(t, diags[0].Message, c.denied)
		})
	}
}

func TestTheBackgroundControllerNeedsPermissionsForEveryTarget(t *testing.T) {
	cloneSecret := "synchronize: true\napiVersion: v1\nkind: Secret\nname: regcred\nnamespace: '{{request.object.metadata.name}}'\nclone:\n  namespace: default\n  name: regcred\n"
	cases := []struct {
		name        string
		permissions Profile
		setup       []string
		generate    string
		denied      string // "" when the policy is admitted
	}{
		{
			// Kubernetes' view role, which the chart binds, leaves Secrets out.
			name:     "a default install may not read or manage Secrets",
			generate: cloneSecret,
			denied:   "spec.rules[0].generate: system:serviceaccount:kyverno:kyverno-background-controller requires permissions get,create,update,delete for resource v1/Secret in namespace {{request.object.metadata.name}}",
		},
		{
			name:     "without synchronize only get and create are needed",
			generate: "apiVersion: v1\nkind: ServiceAccount\nname: bot\nnamespace: default\n",
			denied:   "requires permissions create for resource v1/ServiceAccount in namespace default",
		},
		{
			// The chart grants create, update and delete on RoleBindings but
			// view leaves RBAC objects out, so get is missing (kyverno#11358).
			name:     "a default install may not read RoleBindings",
			generate: "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nname: team\nnamespace: default\ndata:\n  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}\n",
			denied:   "requires permissions get for resource rbac.authorization.k8s.io/v1/RoleBinding in namespace default",
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
			denied:   "requires permissions get,create,update,delete for resource v1/Secret",
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
			denied:   "requires permissions get,create for resource v1/Secret in namespace default",
		},
		{
			name:        "Kyverno's e2e install manages Secrets",
			permissions: KyvernoE2E,
			generate:    cloneSecret,
		},
		{
			name:        "with the check off anything goes",
			permissions: Unchecked,
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
			// The admission controller may read Secrets here: this is the
			// background controller's check.
			diags := CheckGenerate(newStore(t, append(c.setup, admissionReadsSecrets)), c.permissions, generatePolicy(t, c.generate))
			if c.denied == "" {
				assert.Empty(t, diags)
				return
			}
			require.Len(t, diags, 1)
			assert.Equal(t, source.SeverityError, diags[0].Severity)
			assert.Contains(t, diags[0].Message, c.denied)
		})
	}
}

func TestParseProfile(t *testing.T) {
	for in, want := range map[string]Profile{"": Chart, "chart": Chart, "kyverno-e2e": KyvernoE2E, "none": Unchecked} {
		got, err := ParseProfile(in)
		require.NoError(t, err)
		assert.Equal(t, want, got, in)
	}
	_, err := ParseProfile("all")
	assert.Error(t, err)
}

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
