package scaffold

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/source"
)

const netpolPolicy = `# every team namespace gets a default-deny NetworkPolicy
apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: default-deny
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds: [Namespace]
          names: ["team-*"]
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      data:
        spec:
          podSelector: {}
`

const quotaGPol = `apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: add-quota
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
    objectSelector:
      matchLabels:
        quota: "on"
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [{"apiVersion": "v1", "kind": "ResourceQuota",
        "metadata": {"name": "default"}, "spec": {"hard": {"pods": "10"}}}])
`

// requireGenerates runs a wrapped scenario and checks that it passes and
// that Kyverno generated want.
func requireGenerates(t *testing.T, res *Result, want ...string) {
	t.Helper()
	run := runScenario(res.Scenario)
	require.True(t, run.Passed, "the wrapped scenario fails: %+v\n%s", run.Diagnostics, res.Scenario)
	assert.Subset(t, generated(run), want)
}

func TestWrap(t *testing.T) {
	t.Run("a bare ClusterPolicy becomes a scenario that generates its downstream", func(t *testing.T) {
		res := wrap(t, netpolPolicy)
		assert.Equal(t, 1, res.Policies)
		assert.Equal(t, 1, res.Triggers)
		assert.Contains(t, res.Scenario, "            name: default-deny\n", "the policy as written, indented")
		assert.Contains(t, res.Scenario, `                    names: ["team-*"]`, "the user's own formatting")
		assert.Contains(t, res.Scenario, "# every team namespace gets a default-deny NetworkPolicy", "the user's comments")
		assert.Contains(t, res.Scenario, "            name: team-demo\n")
		requireGenerates(t, res, "NetworkPolicy team-demo/default-deny")
	})
	t.Run("a bare GeneratingPolicy becomes a scenario that generates its downstream", func(t *testing.T) {
		res := wrap(t, quotaGPol)
		assert.Contains(t, res.Scenario, "template: false", "CEL is not chainsaw templating")
		assert.Contains(t, res.Scenario, "quota: \"on\"")
		requireGenerates(t, res, "ResourceQuota demo/default")
	})
	t.Run("several policies in a multi-document manifest are wrapped in order, other objects first", func(t *testing.T) {
		text := netpolPolicy + "---\n" + quotaGPol + "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shared\ndata:\n  a: b\n"
		res := wrap(t, text)
		assert.Equal(t, 2, res.Policies)
		assert.Equal(t, 2, res.Triggers)
		cm := strings.Index(res.Scenario, "name: settings")
		ns := strings.Index(res.Scenario, "name: shared")
		pol := strings.Index(res.Scenario, "kind: ClusterPolicy")
		assert.True(t, ns < cm && cm < pol, "the namespace, then the ConfigMap, then the policies")
		requireGenerates(t, res, "NetworkPolicy team-demo/default-deny", "ResourceQuota demo/default")
	})
	t.Run("a clone source the input lacks gets a placeholder", func(t *testing.T) {
		text := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: sync-secret
spec:
  rules:
  - name: sync
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: "{{request.object.metadata.name}}"
      synchronize: true
      clone:
        namespace: platform
        name: regcred
`
		res := wrap(t, text)
		assert.Contains(t, res.Scenario, "a placeholder clone source")
		requireGenerates(t, res, "Secret demo/regcred")
	})
	t.Run("a chainsaw Test passes through unchanged", func(t *testing.T) {
		text, err := os.ReadFile("../../site/examples/default-deny-netpol.yaml")
		require.NoError(t, err)
		res := wrap(t, string(text))
		assert.True(t, res.Unchanged)
		assert.Equal(t, string(text), res.Scenario)
	})
	t.Run("notes point at the policy's line in the input and in the scenario", func(t *testing.T) {
		text := strings.Replace(netpolPolicy, `names: ["team-*"]`, "operations: [DELETE]", 1)
		res := wrap(t, text)
		require.Len(t, res.Notes, 1)
		n := res.Notes[0]
		assert.Equal(t, source.Pos{File: "policy.yaml", Line: 9, Col: 5}, n.Pos)
		lines := strings.Split(res.Scenario, "\n")
		require.Greater(t, n.Line, 0)
		assert.Equal(t, "              match:", lines[n.Line-1])
	})
	t.Run("a policy as JSON, and kubectl's List of several, are wrapped as YAML is", func(t *testing.T) {
		var pol, gp map[string]any
		require.NoError(t, yaml.Unmarshal([]byte(netpolPolicy), &pol))
		require.NoError(t, yaml.Unmarshal([]byte(quotaGPol), &gp))
		// As kubectl get prints it: with what the API server set.
		md := pol["metadata"].(map[string]any)
		md["resourceVersion"], md["uid"], md["creationTimestamp"] = "1234", "5c2a", "2026-01-01T00:00:00Z"
		md["annotations"] = map[string]any{"kubectl.kubernetes.io/last-applied-configuration": "{}"}
		pol["status"] = map[string]any{"ready": true}
		one, err := json.MarshalIndent(pol, "", "    ")
		require.NoError(t, err)
		res := wrap(t, string(one))
		for _, server := range []string{"resourceVersion", "uid:", "creationTimestamp", "last-applied", "status:\n            ready"} {
			assert.NotContains(t, res.Scenario, server)
		}
		assert.True(t, slices.ContainsFunc(res.Notes, func(n Note) bool { return strings.Contains(n.Message, "left out what the API server set") }), "%v", res.Notes)
		requireGenerates(t, res, "NetworkPolicy team-demo/default-deny")
		list, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": []any{pol, gp}}, "", "    ")
		require.NoError(t, err)
		res = wrap(t, string(list))
		assert.Equal(t, 2, res.Policies)
		requireGenerates(t, res, "NetworkPolicy team-demo/default-deny", "ResourceQuota demo/default")
	})
	t.Run("two rules with one match share one trigger, created once", func(t *testing.T) {
		text := netpolPolicy
		text = strings.Replace(text, "  rules:\n", "  rules:\n  - name: settings\n    match:\n      any:\n      - resources:\n          kinds: [Namespace]\n          names: [\"team-*\"]\n"+
			"    generate:\n      apiVersion: v1\n      kind: ConfigMap\n      name: settings\n      namespace: \"{{request.object.metadata.name}}\"\n      data:\n        data:\n          a: b\n", 1)
		res := wrap(t, text)
		require.Equal(t, 2, res.Triggers, res.Scenario)
		assert.Equal(t, 1, strings.Count(res.Scenario, "- apply:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n"), "one apply of the Namespace:\n%s", res.Scenario)
		requireGenerates(t, res, "NetworkPolicy team-demo/default-deny", "ConfigMap team-demo/settings")
	})
	t.Run("the same text gives the same bytes", func(t *testing.T) {
		a, b := wrap(t, netpolPolicy+"---\n"+quotaGPol), wrap(t, netpolPolicy+"---\n"+quotaGPol)
		assert.Equal(t, a, b)
	})
}

func TestWrapErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"a syntax error is at its line", "apiVersion: v1\nkind: [\n", "policy.yaml:2"},
		{"no policy says what is expected", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n", "no policy to wrap"},
		{"empty text says so", "# nothing\n", "the text is empty"},
		{"an invalid policy is refused at its field", strings.Replace(netpolPolicy, "synchronize: true", "synchronize: maybe", 1), "policy.yaml:19"},
		{"a document that is not an object is refused", "- a\n- b\n", "expected a Kubernetes object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Wrap("policy.yaml", []byte(c.text), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestWrapKyvernoTest(t *testing.T) {
	dir := "../suite/testdata/kyverno-test/add-quota"
	test, err := os.ReadFile(filepath.Join(dir, "kyverno-test.yaml"))
	require.NoError(t, err)
	t.Run("with its files read, the policies and resources become the scenario", func(t *testing.T) {
		res, err := Wrap(filepath.Join(dir, "kyverno-test.yaml"), test, Options{ReadFile: func(name string) ([]byte, error) {
			return os.ReadFile(filepath.Join(dir, name))
		}})
		require.NoError(t, err)
		assert.Equal(t, 1, res.Policies)
		assert.Empty(t, res.Needs)
		assert.Contains(t, res.Scenario, "create the test's resources")
		run := runScenario(res.Scenario)
		require.True(t, run.Passed, "%+v\n%s", run.Diagnostics, res.Scenario)
		assert.NotEmpty(t, generated(run))
	})
	t.Run("without files (the browser) the needed files are named", func(t *testing.T) {
		_, err := Wrap("kyverno-test.yaml", test, Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "policy.yaml, resources.yaml")
	})
	t.Run("without files, documents pasted after the test are used", func(t *testing.T) {
		pol, _ := os.ReadFile(filepath.Join(dir, "policy.yaml"))
		resources, _ := os.ReadFile(filepath.Join(dir, "resources.yaml"))
		text := string(test) + "---\n" + string(pol) + "---\n" + string(resources)
		res, err := Wrap("kyverno-test.yaml", []byte(text), Options{})
		require.NoError(t, err)
		assert.Equal(t, []string{"policy.yaml", "resources.yaml"}, res.Needs)
		run := runScenario(res.Scenario)
		require.True(t, run.Passed, "%+v", run.Diagnostics)
		assert.NotEmpty(t, generated(run))
	})
	t.Run("an unreadable file is an error at its line", func(t *testing.T) {
		_, err := Wrap("kyverno-test.yaml", test, Options{ReadFile: func(string) ([]byte, error) { return nil, errors.New("no such file") }})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "kyverno-test.yaml:6:3: read policy.yaml: no such file")
	})
}

func TestTheTemplateRunsAndGenerates(t *testing.T) {
	run := runScenario(Template)
	require.True(t, run.Passed, "%+v", run.Diagnostics)
	assert.Equal(t, []string{"ConfigMap team-a/settings"}, generated(run))
	res := wrap(t, Template)
	assert.True(t, res.Unchanged, "the template is a scenario")
}
