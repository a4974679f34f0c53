package engine

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// The CEL family's behaviour as GENERATING-POLICY.md §3.6–§3.9 describe the
// v1.19.0 code, through the facade as the CLI runs it.

var celFamilies = []Family{controller.New}

// gpolNetpol generates a NetworkPolicy in every namespace labelled
// netpol=on; rev goes into the generated data.
func gpolNetpol(rev int, sync, generateExisting bool, ops string) string {
	return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: default-deny
spec:
  evaluation:
    synchronize:
      enabled: %t
    generateExisting:
      enabled: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [%s]
      resources: [namespaces]
    objectSelector:
      matchLabels:
        netpol: "on"
  generate:
  - expression: >-
      generator.apply(object.metadata.name, [dyn({"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
      "metadata": {"name": "default-deny"},
      "spec": {"podSelector": {"matchLabels": {"rev": "%d"}}, "policyTypes": ["Ingress", "Egress"]}})])
`, sync, generateExisting, ops, rev)
}

// celSession is a session with the CEL family and no snapshots.
func celSession(tb testing.TB, n int, exceptions bool) *Session {
	tb.Helper()
	return celSessionAt(tb, n, exceptions, "")
}

// celSessionAt is celSession simulating Kyverno release kyverno.
func celSessionAt(tb testing.TB, n int, exceptions bool, kyverno string) *Session {
	tb.Helper()
	s := NewSession(Options{Families: celFamilies, PolicyExceptions: exceptions, KyvernoVersion: kyverno, Permissions: PermissionsKyvernoE2E,
		Limits: Limits{Objects: 4*n + 100, Requests: 1 << 40, Work: math.MaxInt64, TimelineBytes: math.MaxInt}})
	s.nextScan = s.nextScan.Add(1 << 62)
	return s
}

// celStep runs one step and returns its events.
func (s *Session) celStep(tb testing.TB, op func() error) []timeline.Event {
	tb.Helper()
	s.begin("test", "test", "test")
	err := op()
	st := s.end()
	require.NoError(tb, err)
	events := st.Events
	s.steps = s.steps[:0]
	return events
}

func (s *Session) celPut(tb testing.TB, text string) []timeline.Event {
	tb.Helper()
	obj, doc := benchObject(tb, text)
	return s.celStep(tb, func() error {
		_, _, err := s.Put(ModeApply, obj, doc)
		return err
	})
}

// eventWith returns the first event whose action is action and whose reason
// contains text, or fails.
func eventWith(tb testing.TB, events []timeline.Event, action, text string) timeline.Event {
	tb.Helper()
	for _, e := range events {
		if e.Action == action && strings.Contains(e.Reason, text) {
			return e
		}
	}
	var got []string
	for _, e := range events {
		got = append(got, e.Action+": "+e.Reason)
	}
	tb.Fatalf("no %s event mentioning %q in:\n%s", action, text, strings.Join(got, "\n"))
	return timeline.Event{}
}

func (s *Session) uidOf(tb testing.TB, ref resource.Ref) string {
	tb.Helper()
	obj, err := s.store.Get(ref)
	require.NoError(tb, err, "%s", ref)
	return obj.UID()
}

func TestCELSyncRecreatesADeletedDownstream(t *testing.T) {
	t.Run("v1.19.0 recreates it once: its cache keeps the old UID (kyverno#17265)", func(t *testing.T) {
		s := celSessionAt(t, 1, false, "v1.19.0")
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, 1)
		ref := netpolRef(0)
		first := s.uidOf(t, ref)

		events := s.celStep(t, func() error { return s.Remove(ref) })
		e := eventWith(t, events, timeline.ActionRecreated, "kyverno#17265")
		assert.Equal(t, []string{"kyverno#17453"}, e.VersionChanges, "the event names the change that decides it")
		second := s.uidOf(t, ref)
		assert.NotEqual(t, first, second, "the watcher POSTs the cached copy: a new UID")

		events = s.celStep(t, func() error { return s.Remove(ref) })
		eventWith(t, events, timeline.ActionIgnored, "not recreated: Kyverno v1.19.0 recreated this downstream once")
		_, err := s.store.Get(ref)
		assert.Error(t, err, "the cache holds the first UID, so the second deletion stands (kyverno#17265)")
	})
	t.Run("v1.19.1 recreates it after every deletion (kyverno#17453)", func(t *testing.T) {
		s := celSessionAt(t, 1, false, "v1.19.1")
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, 1)
		ref := netpolRef(0)
		uids := map[string]bool{s.uidOf(t, ref): true}
		for range 3 {
			events := s.celStep(t, func() error { return s.Remove(ref) })
			eventWith(t, events, timeline.ActionRecreated, "which its cache now tracks")
			uids[s.uidOf(t, ref)] = true
		}
		assert.Len(t, uids, 4, "each recreation is a new object")
	})
}

func TestCELSyncRevertsAModifiedDownstreamEveryTime(t *testing.T) {
	s := celSession(t, 1, false)
	s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
	s.benchNamespaces(t, 1)
	ref := netpolRef(0)
	for range 3 {
		live, err := s.store.Get(ref)
		require.NoError(t, err)
		live.SetLabels(map[string]string{"edited": "yes"})
		events := s.celStep(t, func() error { _, _, err := s.Put(ModeUpdate, live, nil); return err })
		eventWith(t, events, timeline.ActionReverted, "put back the copy it saved")
		now, err := s.store.Get(ref)
		require.NoError(t, err)
		_, edited := now.Label("edited")
		assert.False(t, edited, "the revert replaces labels too")
	}
}

func TestCELWithoutSyncADeletedDownstreamStaysDeletedAndSaysWhy(t *testing.T) {
	s := celSession(t, 1, false)
	s.celPut(t, gpolNetpol(0, false, false, "CREATE, UPDATE"))
	s.benchNamespaces(t, 1)
	events := s.celStep(t, func() error { return s.Remove(netpolRef(0)) })
	eventWith(t, events, timeline.ActionIgnored, "not recreated: synchronize is off")
	_, err := s.store.Get(netpolRef(0))
	assert.Error(t, err)
}

func TestCELPolicyUpdate(t *testing.T) {
	t.Run("v1.19.0 deletes and recreates every tracked downstream (kyverno#17594)", func(t *testing.T) {
		s := celSessionAt(t, 2, false, "v1.19.0")
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, 2)
		before := s.uidOf(t, netpolRef(1))
		events := s.celPut(t, gpolNetpol(1, true, false, "CREATE, UPDATE"))
		del := eventWith(t, events, timeline.ActionDeleted, "kyverno#16920")
		assert.Equal(t, []string{"kyverno#16920"}, del.VersionChanges)
		eventWith(t, events, timeline.ActionRecreated, "Kyverno v1.19.0 and earlier delete and recreate")
		np, err := s.store.Get(netpolRef(1))
		require.NoError(t, err)
		assert.NotEqual(t, before, np.UID(), "1.19.0 deletes every tracked downstream and regenerates it")
		assert.Equal(t, "1", np.NestedString("spec", "podSelector", "matchLabels", "rev"))
	})
	t.Run("v1.19.1 updates them in place (kyverno#16920)", func(t *testing.T) {
		s := celSessionAt(t, 2, false, "v1.19.1")
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, 2)
		before := s.uidOf(t, netpolRef(1))
		events := s.celPut(t, gpolNetpol(1, true, false, "CREATE, UPDATE"))
		upd := eventWith(t, events, timeline.ActionUpdated, "rewrote the downstream in place")
		assert.Equal(t, []string{"kyverno#16920"}, upd.VersionChanges)
		for _, e := range events {
			assert.NotEqual(t, timeline.ActionDeleted, e.Action, "nothing is deleted: %s", e.Reason)
		}
		np, err := s.store.Get(netpolRef(1))
		require.NoError(t, err)
		assert.Equal(t, before, np.UID(), "the same object, updated")
		assert.Equal(t, "1", np.NestedString("spec", "podSelector", "matchLabels", "rev"))
		// The regeneration tracked it again: an edit is reverted.
		np.SetLabels(map[string]string{"edited": "yes"})
		events = s.celStep(t, func() error { _, _, err := s.Put(ModeUpdate, np, nil); return err })
		eventWith(t, events, timeline.ActionReverted, "put back the copy it saved")
	})
}

func TestCELTriggerUpdateWithoutUpdateOperationDeletesTheDownstream(t *testing.T) {
	s := celSession(t, 1, false)
	s.celPut(t, gpolNetpol(0, true, false, "CREATE"))
	s.benchNamespaces(t, 1)
	ns, err := s.store.Get(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "team-00000"})
	require.NoError(t, err)
	l := ns.Labels()
	l["unrelated"] = "edit"
	ns.SetLabels(l)
	events := s.celStep(t, func() error { _, _, err := s.Put(ModeUpdate, ns, nil); return err })
	eventWith(t, events, timeline.ActionDeleted, "no longer matches")
	_, err = s.store.Get(netpolRef(0))
	assert.Error(t, err, "operations without UPDATE + sync: any trigger UPDATE deletes the downstream (§3.9, kyverno#17452)")
}

func TestCELRestartLosesTheCacheAndRestoresItWithoutChangingDownstreams(t *testing.T) {
	s := celSession(t, 1, false)
	s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
	s.benchNamespaces(t, 1)
	ref := netpolRef(0)
	uid := s.uidOf(t, ref)
	events := s.celStep(t, func() error { s.RestartBackgroundController(); return nil })
	eventWith(t, events, timeline.ActionNote, "cache-restore")
	assert.Equal(t, uid, s.uidOf(t, ref), "a cache restore never creates nor rewrites")

	events = s.celStep(t, func() error { return s.Remove(ref) })
	eventWith(t, events, timeline.ActionRecreated, "recreated the downstream from its cache")
}

func TestCELNamespacedPolicySyncDeletionsAreNoOps(t *testing.T) {
	s := celSession(t, 1, false)
	s.benchStep(t, "ns", func() error {
		_, _, err := s.Put(ModeCreate, resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "team"}}, nil)
		return err
	})
	s.celPut(t, `apiVersion: policies.kyverno.io/v1
kind: NamespacedGeneratingPolicy
metadata:
  name: copy
  namespace: team
spec:
  evaluation:
    synchronize:
      enabled: true
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]
  generate:
  - expression: >-
      generator.apply([dyn({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": object.metadata.name + "-copy"}})])
`)
	trig := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cfg", "namespace": "team"}}
	s.celStep(t, func() error { _, _, err := s.Put(ModeCreate, trig, nil); return err })
	ds := resource.Ref{APIVersion: "v1", Kind: "Secret", Namespace: "team", Name: "cfg-copy"}
	s.uidOf(t, ds)
	events := s.celStep(t, func() error { return s.Remove(trig.Ref()) })
	kept := eventWith(t, events, timeline.ActionKept, "never matches")
	require.NotNil(t, kept.Object, "the event names the downstream that stays")
	assert.Equal(t, ds, *kept.Object)
	assert.Contains(t, kept.Reason, "https://github.com/kyverno/kyverno/blob/"+KyvernoVersion+"/pkg/background/gpol/dynamic_watcher.go#L")
	assert.NotContains(t, kept.Reason, ".md")
	s.uidOf(t, ds) // still there: the label/key mismatch (§3.6)
}

func TestCELExceptionsAreOffByDefault(t *testing.T) {
	exception := `apiVersion: policies.kyverno.io/v1
kind: PolicyException
metadata:
  name: skip-all
  namespace: default
spec:
  policyRefs:
  - name: default-deny
    kind: GeneratingPolicy
`
	for _, enabled := range []bool{false, true} {
		s := celSession(t, 1, enabled)
		s.celPut(t, exception)
		s.celPut(t, gpolNetpol(0, true, false, "CREATE, UPDATE"))
		s.benchNamespaces(t, 1)
		_, err := s.store.Get(netpolRef(0))
		if enabled {
			assert.Error(t, err, "with --enablePolicyException the full exception exempts the trigger")
		} else {
			assert.NoError(t, err, "the Helm chart's default: exceptions are not used")
		}
	}
}

func TestCELBuildWithoutTheFamilySaysSo(t *testing.T) {
	scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cel
spec:
  steps:
  - try:
    - apply:
        resource:
` + indent(gpolNetpol(0, true, false, "CREATE"), 10) + "\n"
	res := Run("cel.yaml", []byte(scenario), Options{})
	assert.Contains(t, res.Skipped, "this build of genplay has no CEL engine")
	require.NotEmpty(t, res.Diagnostics, "the page shows a diagnostic")
	assert.Contains(t, res.Diagnostics[len(res.Diagnostics)-1].Message, "no CEL engine")

	res = Run("cel.yaml", []byte(scenario), Options{Families: celFamilies})
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed)
}

func TestCELCompileErrorPointsAtTheExpression(t *testing.T) {
	s := celSession(t, 1, false)
	obj, doc := benchObject(t, strings.Replace(gpolNetpol(0, true, false, "CREATE"), "generator.apply(object.metadata.name, ", "generator.apply(", 1))
	s.begin("test", "test", "test")
	_, warnings, err := s.Put(ModeApply, obj, doc)
	s.end()
	require.Error(t, err)
	assert.Contains(t, err.Error(), `admission webhook "validate-policy.kyverno.svc" denied the request`)
	require.NotEmpty(t, warnings, "Kyverno returns the error as a warning too")
	var found bool
	for _, d := range s.diags {
		if d.Severity == "error" && d.Line >= 20 {
			found = true
		}
	}
	assert.True(t, found, "a diagnostic at the expression's line: %+v", s.diags)
}

func TestCELWithoutSyncTriggerDeletionKeepsTheDownstreamAndSaysWhy(t *testing.T) {
	s := celSession(t, 1, false)
	s.celPut(t, strings.Replace(gpolNetpol(0, false, false, "CREATE, UPDATE"), `apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]`, `apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [configmaps]`, 1))
	cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "default", "namespace": "default",
		"labels": map[string]any{"netpol": "on"}}}
	s.celStep(t, func() error { _, _, err := s.Put(ModeCreate, cm, nil); return err })
	ds := resource.Ref{APIVersion: "networking.k8s.io/v1", Kind: "NetworkPolicy", Namespace: "default", Name: "default-deny"}
	s.uidOf(t, ds)
	events := s.celStep(t, func() error { return s.Remove(cm.Ref()) })
	eventWith(t, events, timeline.ActionKept, "synchronize is off, so Kyverno does not clean up")
	s.uidOf(t, ds)
}

func TestCELChainsNeedSkipBackgroundRequestsOffAndStopWhenTheyRunAway(t *testing.T) {
	chain := func(skip bool) []timeline.Event {
		s := NewSession(Options{Families: celFamilies, Limits: Limits{ChainDepth: 30}})
		s.celPut(t, fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: chain
spec:
  evaluation:
    skipBackgroundRequests: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE]
      resources: [configmaps]
  generate:
  - expression: >-
      generator.apply("default", [dyn({"apiVersion": "v1", "kind": "ConfigMap",
      "metadata": {"name": object.metadata.name + "x"}})])
`, skip))
		cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "default"}}
		return s.celStep(t, func() error { _, _, err := s.Put(ModeCreate, cm, nil); return err })
	}
	events := chain(true)
	n := 0
	for _, e := range events {
		if e.Action == timeline.ActionCreated && e.Actor == timeline.ActorKyverno {
			n++
		}
	}
	assert.Equal(t, 1, n, "Kyverno's own ConfigMap is not a trigger by default (skipBackgroundRequests)")
	eventWith(t, chain(false), timeline.ActionFailed, "did not converge")
}

// TestCELEvaluationDrawsFromTheRunsWorkBudget: each evaluation stays within
// its own CEL cost budget, but together they spend the run's work budget,
// and the run stops there with the budget's message, as JMESPath does.
func TestCELEvaluationDrawsFromTheRunsWorkBudget(t *testing.T) {
	scenario := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cel-work
spec:
  steps:
  - try:
    - create:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: busy
          spec:
            matchConstraints:
              resourceRules:
              - apiGroups: [""]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [namespaces]
            generate:
            - expression: >-
                lists.range(20000).map(i, i * 2).size() > 0 &&
                generator.apply(object.metadata.name, [dyn({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": "busy"}})])
`
	for i := range 20 {
		scenario += fmt.Sprintf("    - create:\n        resource:\n          apiVersion: v1\n          kind: Namespace\n          metadata:\n            name: ns-%d\n", i)
	}
	run := func(work int64) []byte {
		res := Run("cel-work.yaml", []byte(scenario), Options{Families: celFamilies, Limits: Limits{Work: work}})
		out, err := timeline.Marshal(res)
		require.NoError(t, err)
		return out
	}
	out := run(1_000_000)
	assert.Contains(t, string(out), "ran out in CEL evaluation")
	assert.Equal(t, out, run(1_000_000), "the run stops at the same place every time")
	assert.NotContains(t, string(run(0)), "ran out", "the default budget is enough for this scenario")
}

// A request in another version of a custom resource reaches the policy in
// the version its resourceRules list: the API server converts it for the
// webhook (matchPolicy Equivalent, the default), as for kubevirt's
// VirtualMachineInstance created as v1alpha3 and matched as v1 in Kyverno's
// policy library.
func TestCELMatchPolicyEquivalentConvertsTheRequestToTheListedVersion(t *testing.T) {
	scenario := func(matchPolicy string) string {
		return `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: equivalent
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: apiextensions.k8s.io/v1
          kind: CustomResourceDefinition
          metadata:
            name: widgets.example.io
          spec:
            group: example.io
            scope: Namespaced
            names: {kind: Widget, plural: widgets}
            versions:
            - {name: v1, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
            - {name: v1alpha3, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata:
            name: widget-config
          spec:
            matchConstraints:
              matchPolicy: ` + matchPolicy + `
              resourceRules:
              - apiGroups: [example.io]
                apiVersions: [v1]
                operations: [CREATE]
                resources: [widgets]
            generate:
            - expression: >-
                generator.Apply(object.metadata.namespace, [dyn({"apiVersion": "v1", "kind": "ConfigMap",
                "metadata": {"name": object.metadata.name}, "data": {"seen": object.apiVersion}})])
    - apply:
        resource:
          apiVersion: example.io/v1alpha3
          kind: Widget
          metadata:
            name: w
            namespace: default
`
	}
	res := Run("scenario.yaml", []byte(scenario("Equivalent")), gpolOptions)
	require.True(t, res.Passed, describeRun(res))
	cm := findObject(res.Final().Objects(), "ConfigMap", "default", "w")
	require.NotNil(t, cm, "the v1alpha3 request reached the policy converted to v1:\n%s", describeRun(res))
	assert.Equal(t, "example.io/v1", cm.NestedString("data", "seen"), "object is the converted request's")

	res = Run("scenario.yaml", []byte(scenario("Exact")), gpolOptions)
	require.True(t, res.Passed, describeRun(res))
	assert.Nil(t, findObject(res.Final().Objects(), "ConfigMap", "default", "w"),
		"with matchPolicy Exact the webhook is not called for v1alpha3")
}

func findObject(objs []resource.Object, kind, namespace, name string) resource.Object {
	for _, o := range objs {
		if o.Kind() == kind && o.Namespace() == namespace && o.Name() == name {
			return o
		}
	}
	return nil
}
