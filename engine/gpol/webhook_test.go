package gpol

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/internal/testenv"
)

// conformanceDir is Kyverno's generating-policies suite, read at test time
// (never copied into the repository).
func conformanceDir(t *testing.T) string {
	t.Helper()
	return filepath.Join(testenv.Conformance(t), "generating-policies")
}

func readDoc(t *testing.T, file string) *source.Document {
	t.Helper()
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	docs, diags := source.Parse(file, data)
	require.Empty(t, diags)
	require.Len(t, docs, 1)
	return docs[0]
}

func TestTheWebhookOfConformanceTestSingle(t *testing.T) {
	dir := filepath.Join(conformanceDir(t), "webhook", "single")
	p, diags := Parse(readDoc(t, filepath.Join(dir, "policy.yaml")), nil)
	require.Empty(t, diags)
	want := readDoc(t, filepath.Join(dir, "webhooks.yaml")).Value
	got := ValidatingWebhookConfiguration([]*Policy{p}, DefaultWebhookConfig())
	assert.Equal(t, want, map[string]any(got))
}

func webhooksOf(obj resource.Object) []map[string]any {
	var out []map[string]any
	for _, w := range obj["webhooks"].([]any) {
		out = append(out, w.(map[string]any))
	}
	return out
}

func TestWebhookConfigurationShapes(t *testing.T) {
	withName := func(text, name string) *Policy {
		return parse(t, strings.Replace(text, "  name: netpol\n", "  name: "+name+"\n", 1))
	}
	a := withName(minimal, "b-policy")
	b := withName(minimal, "a-policy")
	noAdmission := withName(strings.Replace(minimal, "spec:\n", "spec:\n  evaluation:\n    admission:\n      enabled: false\n", 1), "disabled")
	exact := withName(strings.Replace(minimal, "    resourceRules:\n", "    matchPolicy: Exact\n    resourceRules:\n", 1), "exact")
	timeout := withName(minimal+"  webhookConfiguration:\n    timeoutSeconds: 3\n", "slow")
	selected := withName(strings.Replace(minimal, "    resourceRules:\n", "    objectSelector:\n      matchLabels:\n        team: a\n    resourceRules:\n", 1), "selected")
	withConds := withName(strings.Replace(minimal, "spec:\n", "spec:\n  evaluation:\n    synchronize:\n      enabled: true\n  matchConditions:\n  - name: prod\n    expression: object.metadata.name != 'x'\n", 1), "conds")

	t.Run("basic policies with the same selectors share one webhook; its path lists them sorted", func(t *testing.T) {
		whs := webhooksOf(ValidatingWebhookConfiguration([]*Policy{a, b, noAdmission}, DefaultWebhookConfig()))
		require.Len(t, whs, 1, "a policy with admission disabled is left out")
		assert.Equal(t, "gpol.validate.kyverno.svc-ignore", whs[0]["name"])
		assert.Equal(t, "/gpol/a-policy/b-policy", whs[0]["clientConfig"].(map[string]any)["service"].(map[string]any)["path"])
		assert.Len(t, whs[0]["rules"], 1, "identical rules are de-duplicated")
	})
	t.Run("several selector groups get a suffix each", func(t *testing.T) {
		whs := webhooksOf(ValidatingWebhookConfiguration([]*Policy{a, selected}, DefaultWebhookConfig()))
		require.Len(t, whs, 2)
		for _, w := range whs {
			assert.Regexp(t, `^gpol\.validate\.kyverno\.svc-ignore-[0-9a-f]{8}$`, w["name"])
		}
		assert.NotEqual(t, whs[0]["name"], whs[1]["name"])
	})
	t.Run("matchPolicy Exact and a timeout make fine-grained webhooks", func(t *testing.T) {
		whs := webhooksOf(ValidatingWebhookConfiguration([]*Policy{exact, timeout}, DefaultWebhookConfig()))
		require.Len(t, whs, 2)
		assert.Equal(t, "gpol.validate.kyverno.svc-ignore-finegrained-exact", whs[0]["name"])
		assert.Equal(t, "Exact", whs[0]["matchPolicy"])
		assert.Equal(t, "/gpol/exact", whs[0]["clientConfig"].(map[string]any)["service"].(map[string]any)["path"])
		assert.Equal(t, "gpol.validate.kyverno.svc-ignore-finegrained-slow", whs[1]["name"])
		assert.Equal(t, 3.0, whs[1]["timeoutSeconds"])
	})
	t.Run("portable match conditions go on a fine-grained webhook, restricted to CREATE with synchronize", func(t *testing.T) {
		cfg := DefaultWebhookConfig()
		cfg.PortableMatchConditions = func(*Policy) bool { return true }
		whs := webhooksOf(ValidatingWebhookConfiguration([]*Policy{withConds}, cfg))
		require.Len(t, whs, 1)
		assert.Equal(t, "gpol.validate.kyverno.svc-ignore-finegrained-conds", whs[0]["name"])
		assert.Equal(t, []any{map[string]any{"name": "prod", "expression": "request.operation != 'CREATE' || (object.metadata.name != 'x')"}}, whs[0]["matchConditions"])
		whs = webhooksOf(ValidatingWebhookConfiguration([]*Policy{withConds}, DefaultWebhookConfig()))
		assert.Equal(t, "gpol.validate.kyverno.svc-ignore", whs[0]["name"], "conditions that do not compile for the API server stay with Kyverno")
		assert.Nil(t, whs[0]["matchConditions"])
	})
	t.Run("a namespaced policy's namespaceSelector is its own namespace", func(t *testing.T) {
		n := parse(t, strings.Replace(strings.Replace(minimal, "kind: GeneratingPolicy", "kind: NamespacedGeneratingPolicy", 1), "  name: netpol\n", "  name: netpol\n  namespace: team-a\n", 1))
		n.Spec.MatchConstraints.NamespaceSelector = &LabelSelector{MatchLabels: map[string]string{"ignored": "yes"}}
		whs := webhooksOf(ValidatingWebhookConfiguration([]*Policy{n}, DefaultWebhookConfig()))
		require.Len(t, whs, 1)
		assert.Equal(t, "ngpol.validate.kyverno.svc-ignore", whs[0]["name"])
		assert.Equal(t, map[string]any{"matchExpressions": []any{
			map[string]any{"key": "kubernetes.io/metadata.name", "operator": "In", "values": []any{"team-a"}},
			map[string]any{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": []any{"kube-system"}},
			map[string]any{"key": "kubernetes.io/metadata.name", "operator": "NotIn", "values": []any{"kyverno"}},
		}}, whs[0]["namespaceSelector"])
	})
	t.Run("without policies there is no webhook", func(t *testing.T) {
		assert.Empty(t, webhooksOf(ValidatingWebhookConfiguration(nil, DefaultWebhookConfig())))
	})
}

func TestEveryConformancePolicyParses(t *testing.T) {
	dir := conformanceDir(t)
	var seen int
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		docs, _ := source.Parse(path, data)
		for _, doc := range docs {
			obj, ok := doc.Object()
			if !ok || !IsPolicyKind(obj) && !IsException(obj) {
				continue
			}
			seen++
			rel, _ := filepath.Rel(dir, path)
			if IsException(obj) {
				_, diags := ParseException(doc, obj)
				assert.Empty(t, diags, rel)
				continue
			}
			p, diags := Parse(doc, obj)
			if rel == filepath.Join("validate", "missing-generate", "policy.yaml") {
				assert.Equal(t, []string{"spec.generate: Required value"}, messagesOnly(diags))
				continue
			}
			if assert.Empty(t, diags, rel) {
				assert.Empty(t, Validate(p), rel)
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Greater(t, seen, 60, "the suite's policies were read")
}
