package compiler

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

// parsePolicy reads one policy from YAML with gpol's parser, so that
// positions are the real ones.
func parsePolicy(t testing.TB, text string) *gpol.Policy {
	t.Helper()
	docs, diags := source.Parse("policy.yaml", []byte(text))
	require.Empty(t, diags)
	require.Len(t, docs, 1)
	p, diags := gpol.Parse(docs[0], nil)
	require.Empty(t, diags, "%v", diags)
	return p
}

// policyYAML is a GeneratingPolicy around a spec fragment (indented by 2).
func policyYAML(kind, spec string) string {
	ns := ""
	if kind == gpol.KindNamespacedGeneratingPolicy {
		ns = "\n  namespace: team"
	}
	return "apiVersion: policies.kyverno.io/v1\nkind: " + kind + "\nmetadata:\n  name: p" + ns +
		"\nspec:\n  matchConstraints:\n    resourceRules:\n    - apiGroups: ['']\n      apiVersions: [v1]\n      operations: [CREATE]\n      resources: [namespaces]\n" + spec
}

// generatePolicy is a GeneratingPolicy with one generate expression.
func generatePolicy(t testing.TB, kind, expr string) *gpol.Policy {
	return parsePolicy(t, policyYAML(kind, "  generate:\n  - expression: "+quote(expr)+"\n"))
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// fakeHost is a Host over an in-memory set of objects that records calls.
type fakeHost struct {
	objects   map[string]map[string]any // "apiVersion/resource/ns/name"
	generated []generated
	calls     []string
	failWith  error
	now       time.Time
	seed      uint64
}

type generated struct {
	namespace string
	objects   []map[string]any
}

func newHost() *fakeHost { return &fakeHost{objects: map[string]map[string]any{}} }

func (h *fakeHost) put(apiVersion, resource, ns, name string, obj map[string]any) {
	h.objects[apiVersion+"/"+resource+"/"+ns+"/"+name] = obj
}

func (h *fakeHost) Get(apiVersion, resource, namespace, name string) (map[string]any, error) {
	h.calls = append(h.calls, fmt.Sprintf("get %s %s %s %s", apiVersion, resource, namespace, name))
	if h.failWith != nil {
		return nil, h.failWith
	}
	return h.objects[apiVersion+"/"+resource+"/"+namespace+"/"+name], nil
}

func (h *fakeHost) List(apiVersion, resource, namespace string, labels map[string]string) (map[string]any, error) {
	h.calls = append(h.calls, fmt.Sprintf("list %s %s %s %v", apiVersion, resource, namespace, labels))
	prefix := apiVersion + "/" + resource + "/"
	var keys []string
	for k := range h.objects {
		if strings.HasPrefix(k, prefix) && (namespace == "" || strings.HasPrefix(k, prefix+namespace+"/")) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	items := []any{}
	for _, k := range keys {
		items = append(items, h.objects[k])
	}
	return map[string]any{"apiVersion": apiVersion, "kind": "List", "metadata": map[string]any{}, "items": items}, nil
}

func (h *fakeHost) Post(apiVersion, resource, namespace string, obj map[string]any) (map[string]any, error) {
	h.calls = append(h.calls, fmt.Sprintf("post %s %s %s", apiVersion, resource, namespace))
	return obj, nil
}

func (h *fakeHost) ToGVR(apiVersion, kind string) (string, string, string, error) {
	if kind == "ConfigMap" {
		return "", "v1", "configmaps", nil
	}
	return "", "", "", errors.New("no matches for kind " + kind)
}

func (h *fakeHost) Generate(namespace string, objects []map[string]any) error {
	h.calls = append(h.calls, "generate "+namespace)
	if h.failWith != nil {
		return h.failWith
	}
	h.generated = append(h.generated, generated{namespace, objects})
	return nil
}

func (h *fakeHost) GlobalContext(name, projection string) (any, error) {
	h.calls = append(h.calls, "globalContext "+name+" "+projection)
	if name == "missing" {
		return nil, nil
	}
	return map[string]any{"name": name, "projection": projection}, nil
}

func (h *fakeHost) HTTP(method, url string, body any, headers map[string]string) (any, error) {
	h.calls = append(h.calls, "http "+method+" "+url)
	return nil, errors.New("genplay has no network")
}

func (h *fakeHost) ImageData(ref string) (any, error) {
	return map[string]any{"image": ref}, nil
}

// clockHost adds Clock and Seeder.
type clockHost struct{ *fakeHost }

func (h clockHost) Now() time.Time { return h.now }
func (h clockHost) Seed() uint64   { return h.seed }

// eval compiles text (in a GeneratingPolicy, or a namespaced one when ns is
// set) and evaluates it against in, returning the JSON-shaped result.
func evalIn(t testing.TB, ns, text string, in Input, h Host) (any, error) {
	t.Helper()
	c, err := newCompiler(ns, Options{Now: time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC), Seed: 7})
	require.NoError(t, err)
	prg, ok := c.compile(gpol.Expression{Text: text, Path: "expr"}, nil)
	c.release()
	require.True(t, ok, "%v", c.diags)
	p := &Policy{namespace: ns, opts: Options{Now: time.Date(2026, 12, 1, 10, 30, 0, 0, time.UTC), Seed: 7}, costLimit: c.costLimit, varIndex: map[string]int{}}
	e := p.newEvaluation(in, h)
	v, err := e.eval(&prg.program)
	if err != nil {
		return nil, err
	}
	return fromCEL(v)
}

func eval(t testing.TB, text string) (any, error) {
	t.Helper()
	return evalIn(t, "", text, Input{Object: map[string]any{}}, newHost())
}
