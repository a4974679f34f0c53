package engine

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// probeFamily owns kind Probe (group example.com) and records what the
// session asks of it, in order.
type probeFamily struct {
	calls []string
	deny  error
	core  *generate.Controller
}

func (f *probeFamily) Name() string { return "Probe" }
func (f *probeFamily) Owns(obj resource.Object) bool {
	return obj.Kind() == "Probe" && obj.APIVersion() == "example.com/v1"
}
func (f *probeFamily) Override(obj resource.Object, o generate.Override) {
	f.calls = append(f.calls, "override")
	obj.Metadata()["labels"] = map[string]any{"overridden": "yes"}
}
func (f *probeFamily) AdmitPolicy(obj, old resource.Object, doc *source.Document) generate.PolicyAdmission {
	f.calls = append(f.calls, "admit-policy old="+boolWord(old != nil))
	return generate.PolicyAdmission{Err: f.deny, Warnings: []string{"careful"},
		Diagnostics: source.Diagnostics{{Pos: source.Pos{File: "p.yaml", Line: 3, Col: 5}, Severity: source.SeverityWarning, Message: "careful"}}}
}
func (f *probeFamily) Status(obj resource.Object) map[string]any {
	f.calls = append(f.calls, "status")
	return map[string]any{"ready": true}
}
func (f *probeFamily) PolicyWritten(old, obj resource.Object) {
	_, hasStatus := obj["status"]
	f.calls = append(f.calls, "written old="+boolWord(old != nil)+" status="+boolWord(hasStatus))
}
func (f *probeFamily) PolicyDeleted(obj resource.Object) { f.calls = append(f.calls, "deleted") }
func (f *probeFamily) RulePos(policyKey, rule string) (source.Pos, bool) {
	return source.Pos{File: "p.yaml", Line: 9, Col: 7}, policyKey == "Probe/p"
}
func (f *probeFamily) Admit(req admission.Request) {
	if req.Object != nil && f.Owns(req.Object) {
		f.calls = append(f.calls, "webhook "+req.Operation)
	}
}
func (f *probeFamily) Observe(ev generate.WatchEvent)               {}
func (f *probeFamily) ProcessUpdateRequest(ur resource.Object) bool { return false }
func (f *probeFamily) BackgroundScan()                              {}
func (f *probeFamily) Restart()                                     {}

func boolWord(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func newProbeSession(t *testing.T, opts Options) (*Session, *probeFamily) {
	t.Helper()
	probe := &probeFamily{}
	opts.Families = []Family{func(core *generate.Controller, cfg generate.FamilyConfig) generate.Family {
		probe.core = core
		core.Store().RegisterKind(cluster.KindInfo{Group: "example.com", Version: "v1", Kind: "Probe", Resource: "probes"})
		return probe
	}}
	s := NewSession(opts)
	s.begin("probe", "apply", "")
	return s, probe
}

var probe = resource.Object{"apiVersion": "example.com/v1", "kind": "Probe", "metadata": map[string]any{"name": "p"}}

func TestEveryFamilysPolicyGoesThroughOneAdmissionPath(t *testing.T) {
	t.Run("a create is overridden, admitted, written, given its status, then reported", func(t *testing.T) {
		s, f := newProbeSession(t, Options{Override: &Override{}})
		out, warnings, err := s.Put(ModeApply, probe, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"override", "admit-policy old=no", "webhook CREATE", "status", "written old=no status=yes"}, f.calls)
		assert.Equal(t, []string{"careful"}, warnings)
		assert.Equal(t, map[string]any{"ready": true}, out["status"])
		assert.Equal(t, "yes", out.Labels()["overridden"])
		assert.Equal(t, []timeline.Diagnostic{{File: "p.yaml", Line: 3, Column: 5, Severity: "warning", Message: "careful"}}, s.diags)
	})
	t.Run("without an override the family's Override is not called; an update passes the live object", func(t *testing.T) {
		s, f := newProbeSession(t, Options{})
		_, _, err := s.Put(ModeApply, probe, nil)
		require.NoError(t, err)
		f.calls = nil
		_, _, err = s.Put(ModeApply, probe, nil)
		require.NoError(t, err)
		assert.Equal(t, []string{"admit-policy old=yes", "webhook UPDATE", "status", "written old=yes status=yes"}, f.calls)
	})
	t.Run("a denied write reaches neither the cluster nor the family's policy controller", func(t *testing.T) {
		s, f := newProbeSession(t, Options{})
		f.deny = errors.New("denied")
		_, warnings, err := s.Put(ModeApply, probe, nil)
		require.EqualError(t, err, "denied")
		assert.Equal(t, []string{"careful"}, warnings, "warnings come with a denial")
		assert.Equal(t, []string{"admit-policy old=no"}, f.calls)
		_, err = s.store.View(probe.Ref())
		assert.Error(t, err)
	})
	t.Run("a delete reports the deleted object to its family", func(t *testing.T) {
		s, f := newProbeSession(t, Options{})
		_, _, err := s.Put(ModeApply, probe, nil)
		require.NoError(t, err)
		f.calls = nil
		require.NoError(t, s.Remove(probe.Ref()))
		assert.Equal(t, []string{"deleted"}, f.calls)
		assert.True(t, s.IsPolicy(probe))
	})
}

func TestAFailedRuleIsDiagnosedWhereItsFamilySays(t *testing.T) {
	s, _ := newProbeSession(t, Options{})
	s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionFailed, Policy: "Probe/p", Rule: "r", Reason: "boom"})
	s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionFailed, Policy: "Probe/p", Rule: "r", Reason: "boom"})
	s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionFailed, Policy: "Probe/other", Rule: "r", Reason: "boom"})
	assert.Equal(t, []timeline.Diagnostic{{File: "p.yaml", Line: 9, Column: 7, Severity: "warning", Message: "rule r failed: boom"}}, s.diags,
		"once per rule and message, and only for a policy a family places")
}

func TestDiagnosticsBecomeTheTimelinesContract(t *testing.T) {
	assert.Equal(t, []timeline.Diagnostic{}, diagnostics(nil), "none is an empty list, not null")
	ds := source.Diagnostics{source.Errorf(source.Pos{File: "a.yaml", Line: 3, Col: 4}, "bad thing")}
	assert.Equal(t, []timeline.Diagnostic{{File: "a.yaml", Line: 3, Column: 4, Severity: "error", Message: "bad thing"}}, diagnostics(ds))
}
