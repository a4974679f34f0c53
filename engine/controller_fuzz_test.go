package engine

import (
	"fmt"
	"math/rand"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// The controller fuzz target drives one Session with a program: a byte
// string read as actions over a small universe (three trigger ConfigMaps, a
// clone source Secret, their downstreams, and two policies that come and go
// with synchronize on or off). After every action it checks the cluster's
// invariants; each program runs twice and must give the same bytes.

// universe names.
const (
	fuzzTriggerNS = "triggers"
	fuzzPolicyGen = "gen-data"
	fuzzPolicyCpy = "gen-clone"
)

func fuzzPolicy(name string, sync, orphan bool) string {
	target := `
                apiVersion: v1
                kind: ConfigMap
                name: "data-{{request.object.metadata.name}}"
                namespace: default
                data:
                  data:
                    from: "{{request.object.metadata.name}}"
                    value: "{{request.object.data.value || 'none'}}"`
	match := `kinds: [ConfigMap]
                    namespaces: [triggers]`
	if name == fuzzPolicyCpy {
		target = `
                apiVersion: v1
                kind: Secret
                name: "copy-{{request.object.metadata.name}}"
                namespace: default
                clone:
                  namespace: default
                  name: source`
		match += `
                    selector: {matchLabels: {clone: "yes"}}`
	}
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: %s
spec:
  rules:
  - name: rule
    match:
      any:
      - resources:
          %s
    generate:
      synchronize: %t
      orphanDownstreamOnPolicyDelete: %t
      %s
`, name, strings.ReplaceAll(match, "\n                    ", "\n          "), sync, orphan,
		strings.TrimSpace(strings.ReplaceAll(target, "\n                ", "\n      ")))
}

// fuzzRun is one program's run.
type fuzzRun struct {
	t     testing.TB
	s     *Session
	taint map[string]bool // downstream UIDs whose rule was absent or not synchronized at some point
}

func newFuzzRun(t testing.TB) *fuzzRun {
	// Invariants of the controller, not of the permission check
	// (permissions_test.go): every generated kind is allowed.
	s := NewSession(Options{Permissions: PermissionsUnchecked})
	r := &fuzzRun{t: t, s: s, taint: map[string]bool{}}
	r.step("setup", func() {
		r.put(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": fuzzTriggerNS}})
	})
	return r
}

func (r *fuzzRun) step(summary string, do func()) {
	r.s.begin("fuzz", "fuzz", summary)
	do()
	r.s.end()
}

func (r *fuzzRun) put(obj resource.Object) {
	_, _, _ = r.s.Put(ModeApply, obj, nil)
}

func (r *fuzzRun) putPolicy(name string, sync, orphan bool) {
	docs, diags := source.Parse(name+".yaml", []byte(fuzzPolicy(name, sync, orphan)))
	require.False(r.t, diags.HasErrors(), "%v", diags)
	obj, _ := docs[0].Object()
	_, _, err := r.s.Put(ModeApply, obj, docs[0])
	require.NoError(r.t, err, "the universe's policies are valid")
}

func trigger(i int) resource.Ref {
	return resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: fuzzTriggerNS, Name: fmt.Sprintf("t%d", i)}
}

// act runs one action, decoded from two bytes.
func (r *fuzzRun) act(op, arg byte) {
	i := int(arg % 3)
	switch op % 12 {
	case 0, 1: // create or update a trigger, with or without the clone label
		labels := map[string]any{}
		if arg&4 != 0 {
			labels["clone"] = "yes"
		}
		ref := trigger(i)
		r.step("apply trigger "+ref.Name, func() {
			r.put(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": ref.Name, "namespace": ref.Namespace, "labels": labels},
				"data":     map[string]any{"value": fmt.Sprint(arg >> 3)}})
		})
	case 2:
		r.step("delete trigger", func() { _ = r.s.Remove(trigger(i)) })
	case 3:
		r.step("delete a data downstream", func() {
			_ = r.s.Remove(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "default", Name: "data-" + trigger(i).Name})
		})
	case 4:
		r.step("edit a data downstream", func() {
			r.put(resource.Object{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "data-" + trigger(i).Name, "namespace": "default"},
				"data":     map[string]any{"value": "edited"}})
		})
	case 5:
		r.step("apply the clone source", func() {
			r.put(resource.Object{"apiVersion": "v1", "kind": "Secret",
				"metadata": map[string]any{"name": "source", "namespace": "default"},
				"data":     map[string]any{"key": fmt.Sprintf("dmFsdWU%d", arg%10)}})
		})
	case 6:
		r.step("delete the clone source", func() {
			_ = r.s.Remove(resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "default", Name: "source"})
		})
	case 7, 8: // apply a policy with synchronize and orphan from arg
		name := fuzzPolicyGen
		if op%12 == 8 {
			name = fuzzPolicyCpy
		}
		r.step("apply policy "+name, func() { r.putPolicy(name, arg&1 != 0, arg&2 != 0) })
	case 9:
		name := fuzzPolicyGen
		if arg&1 != 0 {
			name = fuzzPolicyCpy
		}
		r.step("delete policy "+name, func() {
			_ = r.s.Remove(resource.Ref{APIVersion: "kyverno.io/v1", Kind: "ClusterPolicy", Name: name})
		})
	case 10:
		r.step("delete a clone downstream", func() {
			_ = r.s.Remove(resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "default", Name: "copy-" + trigger(i).Name})
		})
	case 11:
		r.step("sleep", func() { r.s.Sleep(time.Duration(arg%3) * 40 * time.Minute) })
	}
}

// syncRule reports whether the policy and rule a downstream's labels name
// exist now with synchronize: true.
func (r *fuzzRun) syncRule(l map[string]string) bool {
	live, err := r.s.store.View(resource.Ref{APIVersion: "kyverno.io/v1", Kind: policy.KindClusterPolicy, Name: l[generate.LabelPolicyName]})
	if err != nil {
		return false
	}
	p, diags := policy.Parse(nil, live)
	if diags.HasErrors() {
		return false
	}
	for _, rule := range p.Spec.Rules {
		if rule.Name == l[generate.LabelRuleName] && rule.Generate != nil {
			return rule.Generate.Synchronize
		}
	}
	return false
}

// explained reports whether the timeline has an event that says why ref
// stayed: Kyverno kept it, failed or skipped it, or a note about it.
func (r *fuzzRun) explained(ref resource.Ref) bool {
	for _, st := range r.s.steps {
		for _, e := range st.Events {
			switch e.Action {
			case timeline.ActionKept, timeline.ActionIgnored, timeline.ActionFailed, timeline.ActionSkipped, timeline.ActionNote, timeline.ActionUnlabelled:
				if e.Object != nil && *e.Object == ref {
					return true
				}
			}
		}
	}
	return false
}

// check asserts the invariants after an action.
func (r *fuzzRun) check(program []byte, n int) {
	live := map[string]bool{}
	all := r.s.store.List(cluster.Query{})
	for _, obj := range all {
		live[obj.UID()] = true
	}
	for _, obj := range all {
		l := obj.Labels()
		if l[generate.LabelManagedBy] != generate.ValueKyverno || l[generate.LabelPolicyName] == "" {
			continue
		}
		if !r.syncRule(l) {
			r.taint[obj.UID()] = true // its rule went away or stopped synchronizing: the timeline shows when
		}
		if r.taint[obj.UID()] || live[l[generate.LabelTriggerUID]] || r.explained(obj.Ref()) {
			continue
		}
		r.t.Fatalf("after action %d of program %x: downstream %s of a synchronized rule has no live trigger (uid %s) and the timeline does not say why",
			n, program, obj.Ref(), l[generate.LabelTriggerUID])
	}
}

// runProgram runs a program, checking invariants after every action, and
// returns the timeline's bytes.
func runProgram(t testing.TB, program []byte) []byte {
	r := newFuzzRun(t)
	for n := 0; n+1 < len(program); n += 2 {
		r.act(program[n], program[n+1])
		r.check(program, n/2)
	}
	out, err := timeline.Marshal(&timeline.Result{Format: timeline.FormatVersion, Steps: r.s.steps, Diagnostics: r.s.diags})
	require.NoError(t, err)
	return out
}

// maxProgram bounds a program to 64 actions.
const maxProgram = 128

func FuzzController(f *testing.F) {
	for _, seed := range controllerSeeds() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, program []byte) {
		if len(program) > maxProgram {
			program = program[:maxProgram]
		}
		first := runProgram(t, program)
		again := runProgram(t, program)
		require.Equal(t, string(first), string(again), "the same program gives the same bytes")
	})
}

func controllerSeeds() [][]byte {
	return [][]byte{
		// policy (sync), trigger, delete trigger: the downstream goes.
		{7, 1, 0, 0, 2, 0},
		// policy (no sync), trigger, delete trigger: the downstream stays (not a sync rule).
		{7, 0, 0, 1, 2, 1},
		// clone: source, policy (sync), labelled trigger, edit source, delete downstream, sleep 80m.
		{5, 1, 8, 1, 0, 4, 5, 2, 10, 0, 11, 2},
		// policy deleted with orphan, trigger deleted, policy back with sync.
		{7, 3, 0, 2, 9, 0, 2, 2, 7, 1},
		// edit and delete downstreams of a synchronized rule.
		{7, 1, 1, 5, 4, 2, 3, 2, 4, 2, 11, 1},
	}
}

// TestControllerInvariantsHoldForRandomPrograms is the fuzz target's
// always-on share: the seeds and 15 pseudo-random programs of 40 actions
// (5 with -short and under js/wasm), each run twice.
func TestControllerInvariantsHoldForRandomPrograms(t *testing.T) {
	programs := controllerSeeds()
	rng := rand.New(rand.NewSource(1))
	n := 15
	if testing.Short() || runtime.GOOS == "js" {
		n = 5 // js/wasm under Node is about 10 times slower
	}
	for range n {
		p := make([]byte, 80)
		rng.Read(p)
		programs = append(programs, p)
	}
	for _, p := range programs {
		first := runProgram(t, p)
		require.Equal(t, string(first), string(runProgram(t, p)), "program %x gives the same bytes twice", p)
	}
}
