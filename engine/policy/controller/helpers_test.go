package controller

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/engine/variables"
)

// admin is the user of the harness's writes.
var admin = admission.UserInfo{Username: "kubernetes-admin", Groups: []string{"system:masters"}, ClusterRoles: []string{"cluster-admin"}}

// harness is the family on a core over a fresh cluster, with what the
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

func newHarness(t *testing.T, cfg generate.FamilyConfig, opts ...generate.Options) *harness {
	t.Helper()
	clock := cluster.NewClock()
	h := &harness{t: t, store: cluster.NewStore(clock)}
	var o generate.Options
	if len(opts) > 0 {
		o = opts[0]
	}
	if cfg.Permissions == "" {
		cfg.Permissions = "none"
	}
	h.core = generate.New(h.store, clock, variables.New(variables.Options{Now: clock.Now}), h, o)
	h.fam = New(h.core, cfg).(*Family)
	h.core.AddFamily(h.fam)
	for _, ns := range []string{"default", "kyverno", "kube-system"} {
		_, err := h.store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		require.NoError(t, err)
	}
	return h
}

// doc parses one YAML document.
func doc(t *testing.T, text string) (*source.Document, resource.Object) {
	t.Helper()
	docs, diags := source.Parse("test.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	require.Len(t, docs, 1)
	obj, ok := docs[0].Object()
	require.True(t, ok)
	return docs[0], obj
}

// put writes an object of YAML text as the admin, a policy through the
// family's admission, and lets Kyverno react. It returns the policy
// admission (zero for other objects).
func (h *harness) put(text string) generate.PolicyAdmission {
	h.t.Helper()
	d, obj := doc(h.t, text)
	return h.putObject(obj, d)
}

func (h *harness) putObject(obj resource.Object, d *source.Document) generate.PolicyAdmission {
	h.t.Helper()
	live, err := h.store.Get(obj.Ref())
	var old resource.Object
	if err == nil {
		old = live
		obj.Metadata()["resourceVersion"] = live.ResourceVersion()
	}
	var adm generate.PolicyAdmission
	owned := h.fam.Owns(obj)
	if owned {
		adm = h.fam.AdmitPolicy(obj, old, d)
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
		upd := out.DeepCopy()
		upd["status"] = h.fam.Status(out)
		out, err = h.store.Update(upd)
		require.NoError(h.t, err)
		h.fam.PolicyWritten(old, out)
	}
	h.core.Reconcile()
	return adm
}

// mustPut is put of an object that must be admitted.
func (h *harness) mustPut(text string) {
	h.t.Helper()
	adm := h.put(text)
	require.NoError(h.t, adm.Err)
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

// scan runs the background scan.
func (h *harness) scan() {
	h.core.BackgroundScan()
	h.core.Reconcile()
}

// get returns the stored object, or nil.
func (h *harness) get(ref resource.Ref) resource.Object {
	o, err := h.store.Get(ref)
	if err != nil {
		return nil
	}
	return o
}

// mark is where the next event goes; since returns the events after it.
func (h *harness) mark() int { return len(h.events) }

func (h *harness) since(mark int) []timeline.Event { return h.events[mark:] }

// said reports whether an event since mark has the action and a reason
// containing want.
func (h *harness) said(mark int, action, want string) bool {
	for _, e := range h.since(mark) {
		if e.Action == action && strings.Contains(e.Reason, want) {
			return true
		}
	}
	return false
}

// story renders the events since mark, for failure messages.
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
