package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// admin is the user of the harness's writes.
var admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters"}}

// harness is the CEL family on a core over a fresh cluster, with what the
// session does around it: policies admitted, written, given their status
// and reported, and Reconcile after every write.
type harness struct {
	t      *testing.T
	store  *cluster.Store
	core   *generate.Controller
	fam    *Family
	events []timeline.Event
	diags  []timeline.Diagnostic
}

func (h *harness) Event(e timeline.Event)                { h.events = append(h.events, e) }
func (h *harness) Changed(before, after resource.Object) {}
func (h *harness) Diagnostic(d timeline.Diagnostic)      { h.diags = append(h.diags, d) }

func newHarness(t *testing.T, cfg generate.FamilyConfig) *harness {
	t.Helper()
	clock := cluster.NewClock()
	h := &harness{t: t, store: cluster.NewStore(clock)}
	h.core = generate.New(h.store, clock, variables.New(variables.Options{Now: clock.Now}), h, generate.Options{})
	h.fam = New(h.core, cfg).(*Family)
	h.core.AddFamily(h.fam)
	for _, ns := range []string{"default", "kyverno", "kube-system"} {
		_, err := h.store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		require.NoError(t, err)
	}
	return h
}

// put writes an object of YAML text as the admin, a policy or exception
// through the family's admission, and lets Kyverno react. It returns the
// admission (zero for other objects).
func (h *harness) put(text string) generate.PolicyAdmission {
	h.t.Helper()
	docs, diags := source.Parse("test.yaml", []byte(text))
	require.False(h.t, diags.HasErrors(), "%v", diags)
	obj, ok := docs[0].Object()
	require.True(h.t, ok)
	live, err := h.store.Get(obj.Ref())
	var old resource.Object
	if err == nil {
		old = live
		obj.Metadata()["resourceVersion"] = live.ResourceVersion()
	}
	var adm generate.PolicyAdmission
	owned := h.fam.Owns(obj)
	if owned {
		adm = h.fam.AdmitPolicy(obj, old, docs[0])
		if adm.Err != nil {
			return adm
		}
	}
	var out resource.Object
	if old != nil {
		out, err = h.core.Update(admin, obj)
	} else {
		out, err = h.core.Create(admin, obj)
	}
	require.NoError(h.t, err)
	if owned {
		if st := h.fam.Status(out); st != nil {
			upd := out.DeepCopy()
			upd["status"] = st
			out, err = h.store.Update(upd)
			require.NoError(h.t, err)
		}
		h.fam.PolicyWritten(old, out)
	}
	h.core.Reconcile()
	return adm
}

func (h *harness) mustPut(text string) {
	h.t.Helper()
	require.NoError(h.t, h.put(text).Err)
}

// remove deletes an object as the admin, reporting a policy to the
// family, and lets Kyverno react.
func (h *harness) remove(ref resource.Ref) {
	h.t.Helper()
	live, err := h.store.Get(ref)
	require.NoError(h.t, err)
	require.NoError(h.t, h.core.Delete(admin, ref))
	if h.fam.Owns(live) {
		h.fam.PolicyDeleted(live)
	}
	h.core.Reconcile()
}

// edit changes a stored object as the admin and lets Kyverno react.
func (h *harness) edit(ref resource.Ref, change func(resource.Object)) {
	h.t.Helper()
	live, err := h.store.Get(ref)
	require.NoError(h.t, err)
	change(live)
	_, err = h.core.Update(admin, live)
	require.NoError(h.t, err)
	h.core.Reconcile()
}

func (h *harness) scan() {
	h.core.BackgroundScan()
	h.core.Reconcile()
}

func (h *harness) restart() {
	h.core.Restart()
	h.core.Reconcile()
}

func (h *harness) get(ref resource.Ref) resource.Object {
	o, err := h.store.Get(ref)
	if err != nil {
		return nil
	}
	return o
}

func (h *harness) mark() int { return len(h.events) }

func (h *harness) since(mark int) []timeline.Event { return h.events[mark:] }

// said reports whether an event since mark has the action ("" any) and a
// reason containing want.
func (h *harness) said(mark int, action, want string) bool {
	for _, e := range h.since(mark) {
		if (action == "" || e.Action == action) && strings.Contains(e.Reason, want) {
			return true
		}
	}
	return false
}

func (h *harness) story(mark int) string {
	var b strings.Builder
	for _, e := range h.since(mark) {
		obj := ""
		if e.Object != nil {
			obj = e.Object.String()
		}
		fmt.Fprintf(&b, "%s %s %s: %s\n", e.Actor, e.Action, obj, e.Reason)
	}
	return b.String()
}

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
