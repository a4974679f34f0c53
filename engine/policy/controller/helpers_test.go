package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/generate/generatetest"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// admin is the user of the harness's writes.
var admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters"}, ClusterRoles: []string{"cluster-admin"}}

// harness is the family on a core over a fresh cluster
// (generatetest.Harness), with the family, the core and the store at hand.
type harness struct {
	*generatetest.Harness
	store *cluster.Store
	core  *generate.Controller
	fam   *Family
}

func newHarness(t *testing.T, cfg generate.FamilyConfig, opts ...generate.Options) *harness {
	t.Helper()
	var o generate.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if cfg.Permissions == "" {
		cfg.Permissions = "none"
	}
	g := generatetest.New(t, admin, o, func(core *generate.Controller) generate.Family { return New(core, cfg) })
	return &harness{Harness: g, store: g.Store, core: g.Core, fam: g.Family.(*Family)}
}

// doc parses one YAML document.
func doc(t *testing.T, text string) (*source.Document, resource.Object) {
	return generatetest.Doc(t, text)
}

// put, mustPut, remove, edit, scan, get, mark, since, said and
// story are the generatetest.Harness's, by the names the tests use.
func (h *harness) put(text string) generate.PolicyAdmission { return h.Put(text) }
func (h *harness) mustPut(text string)                      { h.MustPut(text) }
func (h *harness) remove(ref resource.Ref)                  { h.Remove(ref) }
func (h *harness) edit(ref resource.Ref, change func(resource.Object)) {
	h.Edit(ref, change)
}
func (h *harness) scan()                                   { h.Scan() }
func (h *harness) get(ref resource.Ref) resource.Object    { return h.Get(ref) }
func (h *harness) mark() int                               { return h.Mark() }
func (h *harness) since(mark int) []timeline.Event         { return h.Since(mark) }
func (h *harness) said(mark int, action, want string) bool { return h.Said(mark, action, want) }
func (h *harness) story(mark int) string                   { return h.Story(mark) }

// policyKeyed returns the family's admitted policy with key.
func (h *harness) policyKeyed(key string) *policy.Policy { return h.fam.policies.Get(key) }

func nsRef(name string) resource.Ref {
	return resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: name}
}

func cmRef(ns, name string) resource.Ref {
	return resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: name}
}

func secretRef(ns, name string) resource.Ref {
	return resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: ns, Name: name}
}

func namespaceYAML(name string, labels ...string) string {
	s := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + name + "\n"
	if len(labels) > 0 {
		s += "  labels:\n"
		for i := 0; i+1 < len(labels); i += 2 {
			s += "    " + labels[i] + ": " + labels[i+1] + "\n"
		}
	}
	return s
}

// dataPolicy is a ClusterPolicy named p with one rule r that generates the
// ConfigMap "generated" in every new Namespace, with data {key: value}.
// extra is YAML among the generate block's fields (indented 6), extraRule
// among the rule's (indented 4), extraSpec among spec's (indented 2).
func dataPolicy(sync bool, extra, extraRule, extraSpec string) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: p
spec:
%s  rules:
  - name: r
    match:
      any:
      - resources:
          kinds: [Namespace]
%s    generate:
      apiVersion: v1
      kind: ConfigMap
      name: generated
      namespace: '{{request.object.metadata.name}}'
      synchronize: %v
%s      data:
        data:
          key: value
`, extraSpec, extraRule, sync, extra)
}

// replaceOnce replaces the first old in s with new.
func replaceOnce(s, old, new string) string { return strings.Replace(s, old, new, 1) }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }
