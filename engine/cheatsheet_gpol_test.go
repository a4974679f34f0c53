package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
)

// The seed's cheat sheet for the CEL family: the same two policies as
// cheatsheet_test.go and cheatsheet_clone_test.go (a default-deny
// NetworkPolicy per Namespace, a registry Secret cloned into every
// Namespace), written as GeneratingPolicies, under every event of
// GENERATING-POLICY.md §3.8, with the v1.19.0 outcome of its table. Each
// case is a chainsaw scenario whose own assert and error operations state
// the outcome, and each checks that the timeline tells the user why in
// words that survive rewording (`synchronize`, an issue number).

// gpolOptions runs the CEL family, as genplay run and genplay test do.
var gpolOptions = Options{Permissions: PermissionsUnchecked, Families: []Family{controller.New}}

// runGpol runs a scenario with the CEL family and requires it to pass.
func runGpol(t *testing.T, text string) *timeline.Result {
	t.Helper()
	res := Run("scenario.yaml", []byte(text), gpolOptions)
	if !res.Passed || res.Skipped != "" {
		require.Fail(t, "scenario did not pass", "%s\n--- scenario:\n%s", describeRun(res), text)
	}
	return res
}

// describeRun renders a result's diagnostics, steps and events for a
// failure message.
func describeRun(res *timeline.Result) string {
	var b strings.Builder
	if res.Skipped != "" {
		fmt.Fprintf(&b, "skipped: %s\n", res.Skipped)
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Column, d.Severity, d.Message)
	}
	for _, st := range res.Steps {
		fmt.Fprintf(&b, "[%d] %s %s\n", st.Index, st.Summary, st.Error)
		for _, e := range st.Events {
			fmt.Fprintf(&b, "     %s %s %v: %s\n", e.Actor, e.Action, e.Object, e.Reason)
		}
		if st.Check != nil && !st.Check.Passed {
			fmt.Fprintf(&b, "     check failed: %v %s\n", st.Check.Failures, st.Check.Skipped)
		}
	}
	return b.String()
}

// eventReasons joins the reasons of Kyverno's events from the step named
// "event" on (the event and the outcome), so a case can check what the
// user reads about the event it caused.
func eventReasons(res *timeline.Result) string {
	var b strings.Builder
	after := false
	for _, st := range res.Steps {
		after = after || st.StepName == "event"
		if !after {
			continue
		}
		for _, e := range st.Events {
			if e.Actor == timeline.ActorKyverno {
				b.WriteString(e.Reason)
				b.WriteByte('\n')
			}
		}
	}
	return b.String()
}

// requireReason checks that one of Kyverno's reasons after the event names
// one of words.
func requireReason(t *testing.T, res *timeline.Result, words ...string) {
	t.Helper()
	got := eventReasons(res)
	for _, w := range words {
		if strings.Contains(got, w) {
			return
		}
	}
	assert.Fail(t, "the timeline does not say why", "no reason of Kyverno's after the event mentions any of %q; the reasons:\n%s\n--- run:\n%s", words, got, describeRun(res))
}

func cheatNetpol(sync, orphan bool, policyTypes string) string {
	return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: default-deny
spec:
  evaluation:
    synchronize:
      enabled: %t
    orphanDownstreamOnPolicyDelete:
      enabled: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
  matchConditions:
  - name: prod
    expression: object.metadata.?labels["env"].orValue("") == "prod"
  variables:
  - name: nsName
    expression: object.metadata.name
  - name: netpol
    expression: >-
      [
        {
          "kind": dyn("NetworkPolicy"),
          "apiVersion": dyn("networking.k8s.io/v1"),
          "metadata": dyn({"name": "default-deny"}),
          "spec": dyn({"podSelector": dyn({}), "policyTypes": dyn(%s)})
        }
      ]
  generate:
  - expression: generator.Apply(variables.nsName, variables.netpol)
`, sync, orphan, policyTypes)
}

const (
	allTypes     = `["Ingress", "Egress"]`
	ingressTypes = `["Ingress"]`
)

const cheatNetpolTrigger = `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: prod
- assert:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
        labels:
          app.kubernetes.io/managed-by: kyverno
          generate.kyverno.io/policy-name: default-deny
          generate.kyverno.io/trigger-kind: Namespace
      spec:
        policyTypes: [Ingress, Egress]`

// Operations on the data downstream and its trigger.
const (
	gpolEditNetpol = `- patch:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress]`
	gpolDeleteNetpol = `- delete:
    ref:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: team-a`
	gpolTouchTrigger = `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: prod
          touched: "yes"`
	gpolUnmatchTrigger = `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: dev`
	gpolDeleteTrigger = `- delete:
    ref:
      apiVersion: v1
      kind: Namespace
      name: team-a`
)

func gpolDeletePolicy(name string) string {
	return `- delete:
    ref:
      apiVersion: policies.kyverno.io/v1
      kind: GeneratingPolicy
      name: ` + name
}

func applyResource(obj string) string { return "- apply:\n    resource:\n" + indent(obj, 6) }

// gpolCase is one event of §3.8's table with its outcome and what the
// timeline must say about it.
type gpolCase struct {
	name string
	ops  func(sync, orphan bool) string
	want func(sync, orphan bool) outcome
	// words: one of them appears in a reason of Kyverno's after the event;
	// nil when nothing needs explaining.
	words func(sync, orphan bool) []string
}

func bySync(yes, no outcome) func(bool, bool) outcome {
	return func(sync, _ bool) outcome { return map[bool]outcome{true: yes, false: no}[sync] }
}

func always(o outcome) func(bool, bool) outcome { return func(bool, bool) outcome { return o } }

func fixedOps(s string) func(bool, bool) string { return func(bool, bool) string { return s } }

func words(w ...string) func(bool, bool) []string { return func(bool, bool) []string { return w } }

// wordsBySync names the words of a case with and without synchronize.
func wordsBySync(sync, nosync []string) func(bool, bool) []string {
	return func(s, _ bool) []string {
		if s {
			return sync
		}
		return nosync
	}
}

func runGpolCases(t *testing.T, cases []gpolCase, policy func(sync, orphan bool) string, setup string, check func(outcome) string) {
	for _, c := range cases {
		for _, sync := range []bool{true, false} {
			for _, orphan := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s with synchronize %t and orphan %t", c.name, sync, orphan), func(t *testing.T) {
					res := runGpol(t, scenarioText("gpol", policy(sync, orphan), setup, c.ops(sync, orphan), check(c.want(sync, orphan))))
					if c.words != nil {
						if w := c.words(sync, orphan); w != nil {
							requireReason(t, res, w...)
						}
					}
				})
			}
		}
	}
}

func TestCheatSheetGeneratingPolicyData(t *testing.T) {
	updatePolicy := func(sync, orphan bool) string { return applyResource(cheatNetpol(sync, orphan, ingressTypes)) }
	cases := []gpolCase{
		{"the downstream is modified", fixedOps(gpolEditNetpol), bySync(present, modified), words("synchronize")},
		{"the downstream is deleted", fixedOps(gpolDeleteNetpol), bySync(present, absent), words("synchronize")},
		// §3.6: the WatchManager's cache is keyed by UID and not updated
		// when it recreates a downstream, so the second deletion stays
		// (kyverno#17265). Without synchronize nothing is recreated; the
		// policy's next run (a trigger update) recreates the downstream
		// once, and a second deletion stays too.
		{"the downstream is deleted twice", func(sync, _ bool) string {
			if sync {
				return gpolDeleteNetpol + "\n" + netpolCheck(present) + "\n" + gpolDeleteNetpol
			}
			return gpolDeleteNetpol + "\n" + netpolCheck(absent) + "\n" + gpolTouchTrigger + "\n" + netpolCheck(present) + "\n" + gpolDeleteNetpol
		}, always(absent), func(sync, _ bool) []string {
			if sync {
				return []string{"kyverno#17265"}
			}
			return []string{"synchronize"}
		}},
		// §3.7: in 1.19.0 a spec update deletes every tracked downstream
		// and regenerates it (kyverno#17594); without synchronize nothing
		// is tracked and the downstream keeps its old content.
		// Without synchronize Kyverno ignores the update as far as
		// existing downstreams go: the timeline must say so.
		{"the policy is updated", updatePolicy, bySync(updated, present), wordsBySync([]string{"kyverno#17594", "re-sync"}, []string{"synchronize"})},
		{"the trigger is updated and still matches", fixedOps(gpolTouchTrigger), always(present), nil},
		// Without synchronize the policy's next run for the trigger
		// overwrites a user's change (§3.8, "DS modified by a user").
		{"the downstream is modified, then the trigger is updated", fixedOps(gpolEditNetpol + "\n" + gpolTouchTrigger), always(present),
			wordsBySync([]string{"synchronize"}, []string{"trigger was updated"})},
		{"the downstream is deleted, then the trigger is updated", fixedOps(gpolDeleteNetpol + "\n" + gpolTouchTrigger), always(present),
			wordsBySync([]string{"synchronize"}, []string{"trigger was updated"})},
		// matchConditions count for "no longer matches" (PR #16838); the
		// objectSelector would not (the old object still matches).
		{"the trigger no longer matches", fixedOps(gpolUnmatchTrigger), bySync(absent, present), wordsBySync([]string{"no longer match"}, []string{"matchCondition"})},
		// The downstream lives in the trigger Namespace: deleting the
		// trigger deletes it through the namespace controller.
		{"the trigger is deleted", fixedOps(gpolDeleteTrigger), always(absent), nil},
		{"the policy is deleted", fixedOps(gpolDeletePolicy("default-deny")), func(sync, orphan bool) outcome {
			if sync && !orphan {
				return absent
			}
			return present
		}, wordsBySync([]string{"orphanDownstreamOnPolicyDelete"}, []string{"synchronize"})},
	}
	runGpolCases(t, cases, func(sync, orphan bool) string { return cheatNetpol(sync, orphan, allTypes) }, cheatNetpolTrigger, netpolCheck)
}

func gpolClone(sync, orphan bool, extraCondition string) string {
	return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: sync-secret
spec:
  evaluation:
    synchronize:
      enabled: %t
    orphanDownstreamOnPolicyDelete:
      enabled: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: [CREATE, UPDATE]
      resources: [namespaces]
  matchConditions:
  - name: registry
    expression: object.metadata.?labels["registry"].orValue("") == "true"%s
  variables:
  - name: nsName
    expression: object.metadata.name
  - name: source
    expression: resource.Get("v1", "secrets", "platform", "regcred")
  generate:
  - expression: generator.Apply(variables.nsName, [variables.source])
`, sync, orphan, extraCondition)
}

const gpolCloneSetup = `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: platform
- apply:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: platform
      data:
        token: b3JpZ2luYWw=
- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          registry: "true"
- assert:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: team-a
        labels:
          app.kubernetes.io/managed-by: kyverno
          generate.kyverno.io/policy-name: sync-secret
          (contains(keys(@), 'generate.kyverno.io/source-uid')): true
      data:
        token: b3JpZ2luYWw=`

func TestCheatSheetGeneratingPolicyClone(t *testing.T) {
	const sourceToken, userToken = "cm90YXRlZA==", "aGFja2Vk"
	editSource := `- patch:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: platform
      data:
        token: ` + sourceToken
	deleteSource := `- delete:
    ref:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: platform`
	editDownstream := strings.NewReplacer("platform", "team-a", sourceToken, userToken).Replace(editSource)
	deleteDownstream := strings.Replace(deleteSource, "platform", "team-a", 1)
	touchTrigger := `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          registry: "true"
          touched: "yes"`
	unmatchTrigger := `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          registry: "false"`
	// A spec change that leaves the clone's content alone: in 1.19.0 the
	// tracked clone is still deleted and cloned again (kyverno#17594).
	updatePolicy := func(sync, orphan bool) string {
		return applyResource(gpolClone(sync, orphan, "\n  - name: named\n    expression: object.metadata.name != \"\""))
	}
	check := func(changed string) func(outcome) string {
		return func(o outcome) string { return secretCheck("team-a", o, changed) }
	}
	type cloneCase struct {
		gpolCase
		changed string
	}
	cases := []cloneCase{
		{gpolCase{"the clone source is modified", fixedOps(editSource), bySync(updated, present), words("synchronize")}, sourceToken},
		{gpolCase{"the clone source is deleted", fixedOps(deleteSource), bySync(absent, present), wordsBySync([]string{"source"}, []string{"synchronize"})}, ""},
		{gpolCase{"the downstream is modified", fixedOps(editDownstream), bySync(present, modified), words("synchronize")}, userToken},
		{gpolCase{"the downstream is deleted", fixedOps(deleteDownstream), bySync(present, absent), words("synchronize")}, ""},
		{gpolCase{"the downstream is deleted twice", func(sync, _ bool) string {
			if sync {
				return deleteDownstream + "\n" + secretCheck("team-a", present, "") + "\n" + deleteDownstream
			}
			return deleteDownstream + "\n" + secretCheck("team-a", absent, "") + "\n" + touchTrigger + "\n" + secretCheck("team-a", present, "") + "\n" + deleteDownstream
		}, always(absent), func(sync, _ bool) []string {
			if sync {
				return []string{"kyverno#17265"}
			}
			return []string{"synchronize"}
		}}, ""},
		{gpolCase{"the policy is updated", updatePolicy, always(present), wordsBySync([]string{"kyverno#17594", "re-sync"}, []string{"synchronize"})}, ""},
		{gpolCase{"the trigger is updated and still matches", fixedOps(touchTrigger), always(present), nil}, ""},
		// Without synchronize the next run re-clones from the current
		// source (§3.8, "trigger UPDATE, still matches").
		{gpolCase{"the source is modified, then the trigger is updated", fixedOps(editSource + "\n" + touchTrigger), always(updated),
			wordsBySync([]string{"synchronize"}, []string{"trigger was updated"})}, sourceToken},
		{gpolCase{"the trigger no longer matches", fixedOps(unmatchTrigger), bySync(absent, present), wordsBySync([]string{"no longer match"}, []string{"matchCondition"})}, ""},
		{gpolCase{"the trigger is deleted", fixedOps(`- delete:
    ref:
      apiVersion: v1
      kind: Namespace
      name: team-a`), always(absent), nil}, ""},
		// §3.7: on policy deletion only tracked downstreams without a
		// source-uid label (data, not clones) are deleted: a clone is kept
		// whatever orphanDownstreamOnPolicyDelete says.
		{gpolCase{"the policy is deleted", fixedOps(gpolDeletePolicy("sync-secret")), always(present),
			wordsBySync([]string{"source-uid", "kyverno#17596", "orphanDownstreamOnPolicyDelete"}, []string{"synchronize"})}, ""},
	}
	for _, c := range cases {
		runGpolCases(t, []gpolCase{c.gpolCase}, func(sync, orphan bool) string { return gpolClone(sync, orphan, "") }, gpolCloneSetup, check(c.changed))
	}
}

// TestCheatSheetGeneratingPolicyTriggerDeletion covers the rows of §3.8
// that a Namespace trigger hides (its deletion takes the downstream with
// it): a ConfigMap trigger whose downstream lives in another namespace.
func TestCheatSheetGeneratingPolicyTriggerDeletion(t *testing.T) {
	policy := func(sync bool, operations string) string {
		return fmt.Sprintf(`apiVersion: policies.kyverno.io/v1
kind: GeneratingPolicy
metadata:
  name: audit-copy
spec:
  evaluation:
    synchronize:
      enabled: %t
  matchConstraints:
    resourceRules:
    - apiGroups: [""]
      apiVersions: [v1]
      operations: %s
      resources: [configmaps]
      resourceNames: [settings]
  variables:
  - name: copy
    expression: >-
      [{"kind": dyn("ConfigMap"), "apiVersion": dyn("v1"),
        "metadata": dyn({"name": "copy-of-" + string(object.metadata.name)}),
        "data": dyn({"from": string(object.metadata.namespace)})}]
  generate:
  - expression: generator.Apply("audit", variables.copy)
`, sync, operations)
	}
	setup := `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: apps
- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: audit
- apply:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: apps
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: copy-of-settings
        namespace: audit
      data:
        from: apps`
	deleteTrigger := `- delete:
    ref:
      apiVersion: v1
      kind: ConfigMap
      name: settings
      namespace: apps`
	copyCheck := func(o outcome) string {
		if o == absent {
			return "- error:\n    resource:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: copy-of-settings\n        namespace: audit"
		}
		return "- assert:\n    resource:\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: copy-of-settings\n        namespace: audit"
	}
	for _, sync := range []bool{true, false} {
		t.Run(fmt.Sprintf("a trigger deleted with synchronize %t takes its downstream only with synchronize", sync), func(t *testing.T) {
			want := map[bool]outcome{true: absent, false: present}[sync]
			res := runGpol(t, scenarioText("trigger-deleted", policy(sync, "[CREATE, UPDATE]"), setup, deleteTrigger, copyCheck(want)))
			if sync {
				requireReason(t, res, "deleted", "trigger")
			}
		})
	}
	t.Run("a rule that lists DELETE generates on the deletion and keeps the downstream, even with synchronize", func(t *testing.T) {
		// §3.1: the handler looks for the literal DELETE; the UR is a
		// generate one ("generate on trigger deletion"), not a cleanup.
		runGpol(t, scenarioText("trigger-deleted-listed", policy(true, "[CREATE, UPDATE, DELETE]"), setup, deleteTrigger, copyCheck(present)))
	})
}
