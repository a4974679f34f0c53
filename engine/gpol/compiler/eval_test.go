package compiler

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
)

func compilePolicy(t testing.TB, kind, spec string, opts Options) *Policy {
	t.Helper()
	p, diags := Compile(parsePolicy(t, policyYAML(kind, spec)), opts)
	require.Empty(t, diags)
	return p
}

var nsInput = Input{
	Object:  map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team-a", "labels": map[string]any{"env": "prod"}}},
	Request: map[string]any{"operation": "CREATE", "name": "team-a", "namespace": ""},
}

func TestGeneratorApplyHandsObjectsToTheHost(t *testing.T) {
	t.Run("the namespace argument and the objects go to Host.Generate", func(t *testing.T) {
		p := compilePolicy(t, gpol.KindGeneratingPolicy, `  generate:
  - expression: >-
      generator.apply(object.metadata.name, [{"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "cm"}, "data": {"replicas": 3, "env": object.metadata.labels.env}}])
`, Options{})
		h := newHost()
		require.NoError(t, p.Generate(nsInput, h))
		require.Len(t, h.generated, 1)
		assert.Equal(t, "team-a", h.generated[0].namespace)
		assert.Equal(t, []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"},
			"data": map[string]any{"replicas": float64(3), "env": "prod"}}}, h.generated[0].objects)
	})
	t.Run("a List object is expanded to its items", func(t *testing.T) {
		p := compilePolicy(t, gpol.KindGeneratingPolicy, `  variables:
  - name: secrets
    expression: resource.List("v1", "secrets", "default")
  generate:
  - expression: generator.Apply("team-a", [variables.secrets])
`, Options{})
		h := newHost()
		h.put("v1", "secrets", "default", "a", map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "a"}})
		h.put("v1", "secrets", "default", "b", map[string]any{"kind": "Secret", "metadata": map[string]any{"name": "b"}})
		require.NoError(t, p.Generate(nsInput, h))
		require.Len(t, h.generated, 1)
		assert.Len(t, h.generated[0].objects, 2)
		assert.Equal(t, "a", h.generated[0].objects[0]["metadata"].(map[string]any)["name"])
	})
	t.Run("a namespaced policy generates into its own namespace", func(t *testing.T) {
		p := compilePolicy(t, gpol.KindNamespacedGeneratingPolicy, `  generate:
  - expression: 'generator.apply([{"kind": "ConfigMap", "metadata": {"name": "cm"}}])'
`, Options{})
		h := newHost()
		require.NoError(t, p.Generate(nsInput, h))
		require.Len(t, h.generated, 1)
		assert.Equal(t, "team", h.generated[0].namespace)
	})
	t.Run("a Host error is a runtime error naming the expression", func(t *testing.T) {
		p := compilePolicy(t, gpol.KindGeneratingPolicy, `  generate:
  - expression: 'generator.apply("a", [{"kind": "ConfigMap"}])'
  - expression: 'generator.apply("b", [{"kind": "ConfigMap"}])'
`, Options{})
		h := newHost()
		h.failWith = errors.New("permission denied: forbidden")
		err := p.Generate(nsInput, h)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "spec.generate[0].expression: ")
		assert.Contains(t, err.Error(), "failed to generate resources: permission denied: forbidden")
		assert.Equal(t, []string{"generate a"}, h.calls, "an error aborts the remaining entries")
	})
}

func TestResourceLibraryReadsThroughTheHost(t *testing.T) {
	h := newHost()
	h.put("v1", "secrets", "default", "regcred", map[string]any{"kind": "Secret", "data": map[string]any{"k": "dg=="}, "metadata": map[string]any{"name": "regcred"}})
	tests := []struct {
		name, ns, expr string
		want           any
		call           string
	}{
		{"resource.get returns the object", "", `resource.get("v1", "secrets", "default", "regcred").data.k`, "dg==", "get v1 secrets default regcred"},
		{"resource.get of a missing object is null", "", `dyn(resource.get("v1", "secrets", "default", "nope")) == null`, true, "get v1 secrets default nope"},
		{"a namespaced resource.get reads the policy namespace", "team", `dyn(resource.get("v1", "secrets", "regcred")) == null`, true, "get v1 secrets team regcred"},
		{"resource.list returns a List object", "", `resource.list("v1", "secrets", "default").items.size()`, float64(1), "list v1 secrets default map[]"},
		{"resource.List passes the label selector", "", `resource.List("v1", "secrets", "", {"a": "b"}).items.size()`, float64(1), "list v1 secrets  map[a:b]"},
		{"resource.Post creates", "", `resource.Post("v1", "configmaps", "ns", {"kind": "ConfigMap"}).kind`, "ConfigMap", "post v1 configmaps ns"},
		{"a namespaced resource.List lists the policy namespace", "team", `resource.List("v1", "secrets").items.size()`, float64(0), "list v1 secrets team map[]"},
		{"a namespaced resource.list passes labels", "team", `resource.list("v1", "secrets", {"x": "y"}).items.size()`, float64(0), "list v1 secrets team map[x:y]"},
		{"a namespaced resource.post creates in the policy namespace", "team", `resource.post("v1", "configmaps", {"kind": "ConfigMap"}).kind`, "ConfigMap", "post v1 configmaps team"},
		{"a cluster resource.Post without a namespace creates cluster-wide", "", `resource.Post("authorization.k8s.io/v1", "subjectaccessreviews", {"kind": "SubjectAccessReview"}).kind`, "SubjectAccessReview", "post authorization.k8s.io/v1 subjectaccessreviews "},
		{"resource.get through toGVR", "", `dyn(resource.get(resource.toGVR("v1", "ConfigMap"), "ns", "n")) == null`, true, "get v1 configmaps ns n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h.calls = nil
			got, err := evalIn(t, tt.ns, tt.expr, nsInput, h)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, []string{tt.call}, h.calls)
		})
	}
}

func TestVariablesAreLazyAndMemoisedPerEvaluation(t *testing.T) {
	p := compilePolicy(t, gpol.KindGeneratingPolicy, `  variables:
  - name: cm
    expression: resource.get("v1", "configmaps", "default", "src")
  - name: unused
    expression: resource.get("v1", "configmaps", "default", "unused")
  generate:
  - expression: generator.apply("a", [variables.cm, variables.cm])
  - expression: generator.apply("b", [variables.cm])
`, Options{})
	h := newHost()
	h.put("v1", "configmaps", "default", "src", map[string]any{"kind": "ConfigMap"})
	require.NoError(t, p.Generate(nsInput, h))
	assert.Equal(t, []string{"get v1 configmaps default src", "generate a", "generate b"}, h.calls,
		"a variable is evaluated once, when first used; an unused one never")
	h.calls = nil
	require.NoError(t, p.Generate(nsInput, h))
	assert.Equal(t, []string{"get v1 configmaps default src", "generate a", "generate b"}, h.calls,
		"the memo does not outlive the evaluation")
}

func TestVariableErrorsSurfaceWhereTheVariableIsUsed(t *testing.T) {
	p := compilePolicy(t, gpol.KindGeneratingPolicy, `  variables:
  - name: bad
    expression: object.missing.field
  generate:
  - expression: variables.bad == 1
`, Options{})
	err := p.Generate(nsInput, newHost())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "spec.generate[0].expression")
	assert.Contains(t, err.Error(), "spec.variables[0].expression")
	assert.Contains(t, err.Error(), "no such key: missing")
}

func TestMatchConditionsFollowKyvernosRules(t *testing.T) {
	tests := []struct {
		name    string
		conds   []string
		want    bool
		wantErr string
	}{
		{"all true matches", []string{`true`, `object.metadata.name == "team-a"`}, true, ""},
		{"one false does not match", []string{`true`, `false`}, false, ""},
		{"a false wins over an error", []string{`object.nope == 1`, `false`}, false, ""},
		{"an error without a false is an evaluation error", []string{`object.nope == 1`, `true`}, false, "spec.matchConditions[0].expression: no such key: nope"},
		{"the exceptions variable is visible", []string{`exceptions.allowedImages == ["nginx"]`}, true, ""},
		{"image() can be used in a match condition", []string{`image("corp.reg.com/a:1").registry() == "corp.reg.com"`}, true, ""},
		{"oldObject is null on CREATE", []string{`oldObject == null`}, true, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var spec strings.Builder
			spec.WriteString("  matchConditions:\n")
			for i, c := range tt.conds {
				spec.WriteString("  - name: c" + string(rune('0'+i)) + "\n    expression: " + quote(c) + "\n")
			}
			spec.WriteString("  generate:\n  - expression: 'true'\n")
			p := compilePolicy(t, gpol.KindGeneratingPolicy, spec.String(), Options{})
			in := nsInput
			in.AllowedImages = []string{"nginx"}
			got, err := p.Match(in, newHost())
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestObjectIsAnEmptyMapOnDelete(t *testing.T) {
	p := compilePolicy(t, gpol.KindGeneratingPolicy, `  matchConditions:
  - name: delete
    expression: object != null && !has(object.metadata) && oldObject.metadata.name == "team-a"
  generate:
  - expression: 'true'
`, Options{})
	ok, err := p.Match(Input{Object: map[string]any{}, OldObject: nsInput.Object, Request: map[string]any{"operation": "DELETE"}}, newHost())
	require.NoError(t, err)
	assert.True(t, ok)
}

func TestAuditAnnotationsKeepNonEmptyStrings(t *testing.T) {
	p := compilePolicy(t, gpol.KindGeneratingPolicy, `  generate:
  - expression: 'true'
  auditAnnotations:
  - key: owner
    valueExpression: object.metadata.name
  - key: empty
    valueExpression: '""'
  - key: none
    valueExpression: 'null'
`, Options{})
	got, err := p.AuditAnnotations(nsInput, newHost())
	require.NoError(t, err)
	assert.Equal(t, map[string]string{"owner": "team-a"}, got)
}

func TestRuntimeHTTPIsRefusedInNamespacedPolicies(t *testing.T) {
	_, err := evalIn(t, "team", `http.get("http://example.com")`, nsInput, newHost())
	assert.ErrorContains(t, err, "http calls are not allowed in namespaced policies: http://example.com")
}

func TestEvaluationIsBounded(t *testing.T) {
	tests := []struct{ name, expr string }{
		{"a nested map over a long range", `lists.range(100000).map(i, lists.range(100000).map(j, i + j)).size() > 0`},
		{"a string doubled again and again", `cel.bind(a, "xxxxxxxxxxxxxxxx", cel.bind(b, a + a + a + a + a + a + a + a, cel.bind(c, b + b + b + b + b + b + b + b, cel.bind(d, c + c + c + c + c + c + c + c, cel.bind(e, d + d + d + d + d + d + d + d, cel.bind(f, e + e + e + e + e + e + e + e, f + f + f + f + f + f + f + f).size() > 0)))))`},
		{"an exists over a huge comprehension", `lists.range(100000).exists(i, lists.range(100000).exists(j, j < 0)) || true`},
	}
	for _, tt := range tests {
		t.Run(tt.name+" ends with the cost limit error", func(t *testing.T) {
			p := compilePolicy(t, gpol.KindGeneratingPolicy, "  generate:\n  - expression: "+quote(tt.expr)+"\n", Options{})
			start := time.Now()
			err := p.Generate(nsInput, newHost())
			require.Error(t, err)
			assert.ErrorIs(t, err, errCostLimit)
			assert.Contains(t, err.Error(), "spec.generate[0].expression: cost limit exceeded")
			again := p.Generate(nsInput, newHost())
			assert.Equal(t, err.Error(), again.Error(), "the same input gives the same error")
			assert.Less(t, time.Since(start), time.Minute)
		})
	}
	t.Run("lists.range refuses more than the range limit", func(t *testing.T) {
		_, err := eval(t, `lists.range(1000000).size()`)
		assert.Error(t, err)
	})
	t.Run("a custom cost limit applies", func(t *testing.T) {
		p := compilePolicy(t, gpol.KindGeneratingPolicy, "  generate:\n  - expression: 'lists.range(1000).map(i, i).size() > 0'\n", Options{CostLimit: 100})
		assert.ErrorIs(t, p.Generate(nsInput, newHost()), errCostLimit)
	})
}

func TestRandomAndTimeAreDeterministic(t *testing.T) {
	p := compilePolicy(t, gpol.KindGeneratingPolicy, `  generate:
  - expression: 'generator.apply("ns", [{"kind": "ConfigMap", "data": {"r": random(), "p": random("[A-Z]{3}-[0-9]{2}"), "t": string(time.now())}}])'
`, Options{Seed: 42, Now: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)})
	run := func(h Host) map[string]any {
		fh := h.(interface{ host() *fakeHost }).host()
		require.NoError(t, p.Generate(nsInput, h))
		return fh.generated[len(fh.generated)-1].objects[0]["data"].(map[string]any)
	}
	a, b := run(hostOf(newHost())), run(hostOf(newHost()))
	assert.Equal(t, a, b, "the same seed gives the same values")
	assert.Regexp(t, `^[0-9a-z]{8}$`, a["r"])
	assert.Regexp(t, `^[A-Z]{3}-[0-9]{2}$`, a["p"])
	assert.Equal(t, "2026-01-02T03:04:05Z", a["t"])

	h := newHost()
	h.now, h.seed = time.Date(2030, 5, 6, 7, 8, 9, 0, time.UTC), 1
	c := run(clockHost{h})
	assert.Equal(t, "2030-05-06T07:08:09Z", c["t"], "a Host Clock wins over Options.Now")
	assert.NotEqual(t, a["r"], c["r"], "a Host Seeder wins over Options.Seed")
}

type plainHost struct{ *fakeHost }

func (h plainHost) host() *fakeHost { return h.fakeHost }
func (h clockHost) host() *fakeHost { return h.fakeHost }
func hostOf(h *fakeHost) Host       { return plainHost{h} }

func TestPoliciesCompileAndEvaluateConcurrently(t *testing.T) {
	specs := []string{
		"  variables:\n  - name: v\n    expression: '[1, 2]'\n  generate:\n  - expression: 'generator.apply(\"a\", [{\"n\": variables.v.size()}])'\n",
		"  variables:\n  - name: v\n    expression: '\"text\"'\n  generate:\n  - expression: 'generator.apply(\"b\", [{\"n\": variables.v.size()}])'\n",
	}
	compiled := make([]*Policy, len(specs))
	for i, s := range specs {
		compiled[i] = compilePolicy(t, gpol.KindGeneratingPolicy, s, Options{})
	}
	done := make(chan error, 8)
	for g := 0; g < 8; g++ {
		go func() {
			var err error
			for i := 0; i < 20 && err == nil; i++ {
				if g%2 == 0 {
					_, diags := Compile(parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, specs[i%2])), Options{})
					if len(diags) > 0 {
						err = diags
					}
					continue
				}
				h := newHost()
				err = compiled[i%2].Generate(nsInput, h)
				if err == nil && h.generated[0].objects[0]["n"] != float64(2+2*(i%2)) {
					err = errors.New("wrong result")
				}
			}
			done <- err
		}()
	}
	for g := 0; g < 8; g++ {
		assert.NoError(t, <-done)
	}
}

func TestRequestIsTheAdmissionRequestType(t *testing.T) {
	in := Input{Object: map[string]any{}, Request: map[string]any{
		"operation": "UPDATE", "name": "team-a",
		"kind":     map[string]any{"group": "", "version": "v1", "kind": "Namespace"},
		"userInfo": map[string]any{"username": "alice", "groups": []any{"devs"}},
	}}
	tests := []struct {
		name, expr string
		want       any
	}{
		{"a field of the request", `request.operation`, "UPDATE"},
		{"a nested field of the request", `request.kind.kind + "/" + request.userInfo.username`, "Namespace/alice"},
		{"a field the request does not carry is its zero value", `[request.subResource, string(request.dryRun), string(request.requestKind.kind.size())]`, []any{"", "false", "0"}},
		{"a list field the request does not carry is empty", `request.resource.resource == "" && request.userInfo.extra.size() == 0`, true},
		{"has() tests whether the request carries the field", `[has(request.name), has(request.namespace)]`, []any{true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := evalIn(t, "", tt.expr, in, newHost())
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("a misspelt field of the request is a compile error", func(t *testing.T) {
		_, diags := Compile(generatePolicy(t, gpol.KindGeneratingPolicy, `request.operaton == "CREATE"`), Options{})
		assert.ErrorContains(t, diags, "undefined field 'operaton'")
	})
}
