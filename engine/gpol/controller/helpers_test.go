package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/generate/generatetest"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// admin is the user of the harness's writes.
var admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters"}}

// harness is the CEL family on a core over a fresh cluster
// (generatetest.Harness), with the family, the core and the store at hand.
type harness struct {
	*generatetest.Harness
	store *cluster.Store
	core  *generate.Controller
	fam   *Family
}

func newHarness(t *testing.T, cfg generate.FamilyConfig) *harness {
	t.Helper()
	g := generatetest.New(t, admin, generate.Options{}, func(core *generate.Controller) generate.Family { return New(core, cfg) })
	return &harness{Harness: g, store: g.Store, core: g.Core, fam: g.Family.(*Family)}
}

// put, mustPut, remove, edit, scan, restart, get, mark, since,
// said and story are the generatetest.Harness's, by the names the tests use.
func (h *harness) put(text string) generate.PolicyAdmission { return h.Put(text) }
func (h *harness) mustPut(text string)                      { h.MustPut(text) }
func (h *harness) remove(ref resource.Ref)                  { h.Remove(ref) }
func (h *harness) edit(ref resource.Ref, change func(resource.Object)) {
	h.Edit(ref, change)
}
func (h *harness) scan()                                   { h.Scan() }
func (h *harness) restart()                                { h.Restart() }
func (h *harness) get(ref resource.Ref) resource.Object    { return h.Get(ref) }
func (h *harness) mark() int                               { return h.Mark() }
func (h *harness) since(mark int) []timeline.Event         { return h.Since(mark) }
func (h *harness) said(mark int, action, want string) bool { return h.Said(mark, action, want) }
func (h *harness) story(mark int) string                   { return h.Story(mark) }

func cmRef(ns, name string) resource.Ref {
	return resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: name}
}

func namespaceYAML(name string, labels ...string) string {
	s := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n"
	if len(labels) > 0 {
		s += "  labels:\n"
		for i := 0; i+1 < len(labels); i += 2 {
			s += "    " + labels[i] + ": \"" + labels[i+1] + "\"\n"
		}
	}
	return s
}

// cmPolicy is a GeneratingPolicy named p that generates the ConfigMap
// "generated" with data {key: value} in every namespace that is created or
// updated. evaluation is YAML under spec.evaluation (indented 4); extra
// YAML among spec's fields (indented 2).
func cmPolicy(evaluation, value, extra string) string {
	if evaluation == "" {
		evaluation = "    synchronize:\n      enabled: true\n"
	}
	return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: p
spec:
  evaluation:
%s  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE, DELETE]
      resources: [namespaces]
%s  generate:
  - expression: >-
      generator.apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": "generated"}, "data": {"key": "%s"}})])
`, evaluation, extra, value)
}

var policyRef = resource.Ref{APIVersion: "policies.kyverno.io/v1", Kind: "GeneratingPolicy", Name: "p"}

func replaceOnce(s, old, new string) string { return strings.Replace(s, old, new, 1) }
