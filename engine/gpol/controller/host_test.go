package controller

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// exprPolicy is a GeneratingPolicy p on namespace creation whose generated
// ConfigMap "out" in the new namespace has data {v: string(EXPR)}.
func exprPolicy(expr string) string {
	return sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [namespaces]
  variables:
  - name: v
    expression: %q
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "out"}, "data": {"v": string(dyn(variables.v))}})])
`, expr)
}

// out runs expr in a fresh harness with the objects given and returns the
// generated value, or "" and the failure's reason.
func out(t *testing.T, expr string, objects ...string) (string, string) {
	t.Helper()
	h := newHarness(t, generate.FamilyConfig{})
	for _, o := range objects {
		h.mustPut(o)
	}
	h.mustPut(exprPolicy(expr))
	m := h.mark()
	h.mustPut(namespaceYAML("team"))
	if got := h.get(cmRef("team", "out")); got != nil {
		return got["data"].(map[string]any)["v"].(string), ""
	}
	for _, e := range h.since(m) {
		if e.Action == timeline.ActionFailed {
			require.NotEmpty(t, h.Diags, "a failure is diagnosed at its expression")
			return "", e.Reason
		}
	}
	t.Fatalf("neither generated nor failed:\n%s", h.story(m))
	return "", ""
}

const settings = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: default\ndata:\n  tier: gold\n"

func TestTheHostAnswersTheCELLibrariesFromTheCluster(t *testing.T) {
	gce := `apiVersion: kyverno.io/v2alpha1
kind: GlobalContextEntry
metadata:
  name: cms
spec:
  kubernetesResource:
    version: v1
    resource: configmaps
    namespace: default
  projections:
  - name: names
    jmesPath: "[].metadata.name"
`
	gceAPI := `apiVersion: kyverno.io/v2alpha1
kind: GlobalContextEntry
metadata:
  name: api
spec:
  apiCall:
    urlPath: /api/v1/namespaces/default/configmaps/settings
`
	for _, tt := range []struct {
		name, expr string
		objects    []string
		want, fail string
	}{
		{"resource.Get reads an object", `resource.Get("v1", "configmaps", "default", "settings").data.tier`, []string{settings}, "gold", ""},
		{"resource.Get of a missing object is null", `dyn(resource.Get("v1", "configmaps", "default", "none")) == null`, nil, "true", ""},
		{"resource.Get of an unknown resource fails", `resource.Get("v1", "nopes", "default", "x")`, nil, "", "could not find the requested resource"},
		{"resource.List lists", `resource.List("v1", "configmaps", "default").items.size()`, []string{settings}, "1", ""},
		{"resource.Post creates", `resource.Post("v1", "configmaps", "default", {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "posted"}}).metadata.name`, nil, "posted", ""},
		{"globalContext.Get reads a kubernetesResource entry's projection", `globalContext.Get("cms", "names")[0]`, []string{settings, gce}, "settings", ""},
		{"globalContext.Get reads an apiCall entry", `globalContext.Get("api", "").data.tier`, []string{settings, gceAPI}, "gold", ""},
		{"globalContext.Get of a missing entry is null", `dyn(globalContext.Get("none", "")) == null`, nil, "true", ""},
		{"a missing projection fails", `globalContext.Get("cms", "nope")`, []string{gce}, "", `has no projection "nope"`},
		{"http fails: no network", `http.Get("http://example.com")`, nil, "", "no network"},
		{"image data fails: no network", `image.GetMetadata("nginx")`, nil, "", "no network"},
		{"time.now() is the logical clock", `time.now().getFullYear()`, nil, "2024", ""},
		{"random() is seeded: the same run draws the same", `random("[a-z]{4}") == random("[a-z]{4}")`, nil, "false", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, failed := out(t, tt.expr, tt.objects...)
			if tt.fail != "" {
				assert.Contains(t, failed, tt.fail)
				return
			}
			assert.Empty(t, failed)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestGenerateResourcesRefusesWhatKyvernoRefuses(t *testing.T) {
	for _, tt := range []struct{ name, generated, fail string }{
		{"a cluster-scoped object from a namespaced policy", "", "cross-scope generation denied"},
		{"a kind the cluster does not serve", `{"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}`, `no matches for kind "Widget"`},
		{"an apiVersion with too many parts", `{"apiVersion": "a/b/c", "kind": "X", "metadata": {"name": "w"}}`, "unknown apiVersion"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, generate.FamilyConfig{})
			policy := sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [namespaces]
  generate:
  - expression: >-
      generator.Apply(object.metadata.name, [dyn(%s)])
`, tt.generated)
			if tt.generated == "" {
				policy = `apiVersion: policies.kyverno.io/v1
kind: NamespacedGeneratingPolicy
metadata:
  name: p
  namespace: default
spec:
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [configmaps]
  generate:
  - expression: >-
      generator.Apply([dyn({"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole", "metadata": {"name": "r"}})])
`
			}
			h.mustPut(policy)
			m := h.mark()
			if tt.generated == "" {
				h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: default\n")
			} else {
				h.mustPut(namespaceYAML("team"))
			}
			assert.True(t, h.said(m, timeline.ActionFailed, tt.fail), h.story(m))
		})
	}
}

func TestApplyOneNeverAdoptsAnObjectItDidNotGenerate(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(namespaceYAML("team"))
	h.mustPut("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: generated\n  namespace: team\ndata:\n  key: mine\n")
	h.mustPut(cmPolicy("    synchronize:\n      enabled: true\n    generateExisting:\n      enabled: true\n", "value", ""))
	assert.Equal(t, "mine", h.get(cmRef("team", "generated"))["data"].(map[string]any)["key"])
	m := 0
	assert.True(t, h.said(m, timeline.ActionSkipped, "Kyverno never adopts or overwrites it"), h.story(m))
}

func TestServerSideApplyKeepsAnotherWritersField(t *testing.T) {
	h := newHarness(t, generate.FamilyConfig{})
	h.mustPut(cmPolicy("", "value", "  useServerSideApply: true\n"))
	h.mustPut(namespaceYAML("team"))
	h.fam.watch = newWatchManager(h.fam) // no watch: only the next apply writes
	h.edit(cmRef("team", "generated"), func(o resource.Object) {
		o["metadata"].(map[string]any)["annotations"] = map[string]any{"theirs": "x"}
		o["data"].(map[string]any)["key"] = "drifted"
	})
	m := h.mark()
	h.mustPut(namespaceYAML("team", "touch", "1"))
	got := h.get(cmRef("team", "generated"))
	assert.Equal(t, "value", got["data"].(map[string]any)["key"], h.story(m))
	assert.Equal(t, map[string]any{"theirs": "x"}, got.Metadata()["annotations"])
	assert.True(t, h.said(m, timeline.ActionUpdated, "a server-side apply by field manager kyverno-generate"), h.story(m))
}
