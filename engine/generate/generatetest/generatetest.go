// Package generatetest runs one policy family on the generate core over a
// fresh in-memory cluster, for the families' own table tests
// (engine/policy/controller, engine/gpol/controller). The Harness does what
// the engine's session does around a family, and no more: an owned object
// (a policy, an exception) goes through the family's admission, is written,
// gets the status Kyverno's controllers give it and is reported to the
// family; every write is followed by Reconcile; the timeline's events and
// diagnostics are kept for the test to read.
//
// It is a test helper (it imports testing): no program imports it.
package generatetest

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

// Harness is a family on a core over a fresh cluster holding the
// namespaces default, kyverno and kube-system.
type Harness struct {
	T      testing.TB
	Store  *cluster.Store
	Core   *generate.Controller
	Family generate.Family
	// Admin is the user of the harness's writes.
	Admin admission.UserInfo
	// Events and Diags are what the core and the family reported, in order.
	Events []timeline.Event
	Diags  []timeline.Diagnostic
}

// New returns a harness whose family family makes on the core; admin is
// the user of its writes.
func New(t testing.TB, admin admission.UserInfo, opts generate.Options, family func(*generate.Controller) generate.Family) *Harness {
	t.Helper()
	clock := cluster.NewClock()
	h := &Harness{T: t, Store: cluster.NewStore(clock), Admin: admin}
	h.Core = generate.New(h.Store, clock, variables.New(variables.Options{Now: clock.Now}), h, opts)
	h.Family = family(h.Core)
	h.Core.AddFamily(h.Family)
	for _, ns := range []string{"default", "kyverno", "kube-system"} {
		_, err := h.Store.Create(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
		require.NoError(t, err)
	}
	return h
}

// Event keeps a timeline event (the harness is the core's sink).
func (h *Harness) Event(e timeline.Event) { h.Events = append(h.Events, e) }

// Changed implements the core's sink; the harness keeps no changes.
func (h *Harness) Changed(before, after resource.Object) {}

// Diagnostic keeps a diagnostic.
func (h *Harness) Diagnostic(d timeline.Diagnostic) { h.Diags = append(h.Diags, d) }

// Doc parses one YAML document.
func Doc(t testing.TB, text string) (*source.Document, resource.Object) {
	t.Helper()
	docs, diags := source.Parse("test.yaml", []byte(text))
	require.False(t, diags.HasErrors(), "%v", diags)
	require.Len(t, docs, 1)
	obj, ok := docs[0].Object()
	require.True(t, ok)
	return docs[0], obj
}

// Put writes the object of one YAML document as the admin (an owned one
// through the family's admission) and lets Kyverno react. It returns the
// admission (zero for an object the family does not own).
func (h *Harness) Put(text string) generate.PolicyAdmission {
	h.T.Helper()
	d, obj := Doc(h.T, text)
	live, err := h.Store.Get(obj.Ref())
	var old resource.Object
	if err == nil {
		old = live
		obj.Metadata()["resourceVersion"] = live.ResourceVersion()
	}
	var adm generate.PolicyAdmission
	owned := h.Family.Owns(obj)
	if owned {
		adm = h.Family.AdmitPolicy(obj, old, d)
		if adm.Err != nil {
			return adm
		}
	}
	var out resource.Object
	if old != nil {
		out, err = h.Core.Update(h.Admin, obj)
	} else {
		out, err = h.Core.Create(h.Admin, obj)
	}
	require.NoError(h.T, err)
	if owned {
		if st := h.Family.Status(out); st != nil {
			upd := out.DeepCopy()
			upd["status"] = st
			out, err = h.Store.Update(upd)
			require.NoError(h.T, err)
		}
		h.Family.PolicyWritten(old, out)
	}
	h.Core.Reconcile()
	return adm
}

// MustPut is Put of an object that must be admitted.
func (h *Harness) MustPut(text string) {
	h.T.Helper()
	require.NoError(h.T, h.Put(text).Err)
}

// Remove deletes an object as the admin (reporting an owned one to the
// family) and lets Kyverno react.
func (h *Harness) Remove(ref resource.Ref) {
	h.T.Helper()
	live, err := h.Store.Get(ref)
	require.NoError(h.T, err)
	require.NoError(h.T, h.Core.Delete(h.Admin, ref))
	if h.Family.Owns(live) {
		h.Family.PolicyDeleted(live)
	}
	h.Core.Reconcile()
}

// Edit changes a stored object as the admin and lets Kyverno react.
func (h *Harness) Edit(ref resource.Ref, change func(resource.Object)) {
	h.T.Helper()
	live, err := h.Store.Get(ref)
	require.NoError(h.T, err)
	change(live)
	_, err = h.Core.Update(h.Admin, live)
	require.NoError(h.T, err)
	h.Core.Reconcile()
}

// Scan runs the background scan.
func (h *Harness) Scan() {
	h.Core.BackgroundScan()
	h.Core.Reconcile()
}

// Restart restarts Kyverno's controllers.
func (h *Harness) Restart() {
	h.Core.Restart()
	h.Core.Reconcile()
}

// Get returns the stored object, or nil.
func (h *Harness) Get(ref resource.Ref) resource.Object {
	o, err := h.Store.Get(ref)
	if err != nil {
		return nil
	}
	return o
}

// Mark is where the next event goes; Since returns the events after it.
func (h *Harness) Mark() int { return len(h.Events) }

// Since returns the events after mark.
func (h *Harness) Since(mark int) []timeline.Event { return h.Events[mark:] }

// Said reports whether an event since mark has the action ("" for any)
// and a reason containing want.
func (h *Harness) Said(mark int, action, want string) bool {
	for _, e := range h.Since(mark) {
		if (action == "" || e.Action == action) && strings.Contains(e.Reason, want) {
			return true
		}
	}
	return false
}

// Story renders the events since mark, for failure messages.
func (h *Harness) Story(mark int) string {
	var b strings.Builder
	for _, e := range h.Since(mark) {
		obj := ""
		if e.Object != nil {
			obj = e.Object.String()
		}
		fmt.Fprintf(&b, "%s %s %s: %s\n", e.Actor, e.Action, obj, e.Reason)
	}
	return b.String()
}
