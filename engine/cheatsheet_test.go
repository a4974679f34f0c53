package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
	"github.com/genplay/genplay/internal/oracle/corpus"
)

// The seed cheat sheet, as tests: each case is a chainsaw scenario whose own
// assert and error operations state Kyverno's outcome (SEMANTICS.md §2.5).

// outcome is what a case expects of the downstream after the event.
type outcome int

const (
	present  outcome = iota // the downstream exists with the rule's content
	absent                  // the downstream is gone
	modified                // the downstream exists with the user's change
	updated                 // the downstream exists with the policy's new content
)

// scenarioText joins a policy, setup operations, an event and the
// assertions into one chainsaw Test.
func scenarioText(name, policy, setup, event, check string) string {
	return fmt.Sprintf(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: %s
spec:
  steps:
  - name: policy
    try:
    - apply:
        resource:
%s
  - name: setup
    try:
%s
  - name: event
    try:
%s
  - name: outcome
    try:
%s
`, name, indent(policy, 10), indent(setup, 4), indent(event, 4), indent(check, 4))
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func requirePassed(t *testing.T, text string) *timeline.Result {
	t.Helper()
	// The cheat sheet is about generate semantics; the background
	// controller's permission check has its own tests (package rbac).
	corpus.Write(t, "cheatsheet", text)
	res := Run("scenario.yaml", []byte(text), Options{Permissions: PermissionsUnchecked})
	if !res.Passed || res.Skipped != "" {
		var b strings.Builder
		for _, d := range res.Diagnostics {
			fmt.Fprintf(&b, "%s:%d: %s: %s\n", d.File, d.Line, d.Severity, d.Message)
		}
		for _, st := range res.Steps {
			fmt.Fprintf(&b, "[%d] %s %s\n", st.Index, st.Summary, st.Error)
			for _, e := range st.Events {
				fmt.Fprintf(&b, "     %s %s %v: %s\n", e.Actor, e.Action, e.Object, e.Reason)
			}
			if st.Check != nil && !st.Check.Passed {
				fmt.Fprintf(&b, "     check failed: %v\n", st.Check.Failures)
			}
		}
		require.Fail(t, "scenario did not pass", "%s\n--- scenario:\n%s", b.String(), text)
	}
	return res
}

func netpolPolicy(sync, orphan bool, extraMatch string) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: default-deny
spec:
  rules:
  - name: default-deny
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              env: prod%s
    generate:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: "{{request.object.metadata.name}}"
      synchronize: %t
      orphanDownstreamOnPolicyDelete: %t
      data:
        spec:
          podSelector: {}
          policyTypes: [Ingress, Egress]
`, extraMatch, sync, orphan)
}

const netpolTrigger = `- apply:
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
          generate.kyverno.io/rule-name: default-deny
          generate.kyverno.io/trigger-kind: Namespace
      spec:
        policyTypes: [Ingress, Egress]`

func netpolCheck(o outcome) string {
	switch o {
	case absent:
		return `- error:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a`
	case modified, updated:
		return `- assert:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress]`
	default:
		return `- assert:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress, Egress]`
	}
}

func TestCheatSheetDataNetworkPolicy(t *testing.T) {
	editDownstream := `- patch:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        policyTypes: [Ingress]`
	deleteDownstream := `- delete:
    ref:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: team-a`
	relabelTrigger := `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: dev`
	deletePolicy := `- delete:
    ref:
      apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      name: default-deny`
	updatePolicy := func(sync, orphan bool) string {
		p := strings.Replace(netpolPolicy(sync, orphan, ""), "policyTypes: [Ingress, Egress]", "policyTypes: [Ingress]", 1)
		return "- apply:\n    resource:\n" + indent(p, 6)
	}
	deleteTrigger := `- delete:
    ref:
      apiVersion: v1
      kind: Namespace
      name: team-a`

	type event struct {
		name string
		ops  func(sync, orphan bool) string
		// want by synchronize, then orphan
		want func(sync, orphan bool) outcome
	}
	events := []event{
		{"the downstream is modified", func(bool, bool) string { return editDownstream },
			func(sync, _ bool) outcome { return map[bool]outcome{true: present, false: modified}[sync] }},
		{"the downstream is deleted", func(bool, bool) string { return deleteDownstream },
			func(sync, _ bool) outcome { return map[bool]outcome{true: present, false: absent}[sync] }},
		{"the policy's data is updated", updatePolicy,
			func(sync, _ bool) outcome { return map[bool]outcome{true: updated, false: present}[sync] }},
		{"the trigger no longer matches", func(bool, bool) string { return relabelTrigger },
			func(sync, _ bool) outcome { return map[bool]outcome{true: absent, false: present}[sync] }},
		{"the policy is deleted", func(bool, bool) string { return deletePolicy },
			func(sync, orphan bool) outcome {
				if sync && !orphan {
					return absent
				}
				return present
			}},
		// The downstream lives in the trigger Namespace: deleting the trigger
		// deletes it through the namespace controller, whatever the settings.
		{"the trigger is deleted", func(bool, bool) string { return deleteTrigger },
			func(bool, bool) outcome { return absent }},
	}
	for _, ev := range events {
		for _, sync := range []bool{true, false} {
			for _, orphan := range []bool{true, false} {
				name := fmt.Sprintf("%s with synchronize %t and orphan %t", ev.name, sync, orphan)
				t.Run(name, func(t *testing.T) {
					want := ev.want(sync, orphan)
					requirePassed(t, scenarioText("netpol", netpolPolicy(sync, orphan, ""), netpolTrigger, ev.ops(sync, orphan), netpolCheck(want)))
				})
			}
		}
	}
}

func TestCheatSheetSubtleCases(t *testing.T) {
	deleteDownstream := `- delete:
    ref:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      name: default-deny
      namespace: team-a`
	touchTrigger := `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: prod
          touched: "yes"`

	t.Run("without synchronize a deleted downstream comes back on the next trigger update", func(t *testing.T) {
		requirePassed(t, scenarioText("nosync-comeback", netpolPolicy(false, false, ""), netpolTrigger,
			deleteDownstream+"\n"+netpolCheck(absent)+"\n"+touchTrigger, netpolCheck(present)))
	})
	t.Run("operations [CREATE] disables self-healing of a deleted downstream", func(t *testing.T) {
		policy := netpolPolicy(true, false, "\n          operations: [CREATE]")
		res := requirePassed(t, scenarioText("ops-create", policy, netpolTrigger, deleteDownstream, netpolCheck(absent)))
		assert.Contains(t, reasons(res), "kyverno#10574")
	})
	t.Run("operations [CREATE] keeps the downstream when the trigger no longer matches", func(t *testing.T) {
		policy := netpolPolicy(true, false, "\n          operations: [CREATE]")
		relabel := strings.Replace(touchTrigger, "env: prod", "env: dev", 1)
		requirePassed(t, scenarioText("ops-create-relabel", policy, netpolTrigger, relabel, netpolCheck(present)))
	})
	t.Run("with synchronize a pre-existing object of the downstream's name is adopted", func(t *testing.T) {
		existing := `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
- apply:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        podSelector: {}
        policyTypes: [Ingress]`
		label := `- update:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          env: prod`
		check := netpolCheck(present) + "\n" + `- assert:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
        labels:
          generate.kyverno.io/policy-name: default-deny`
		requirePassed(t, scenarioText("adopt", netpolPolicy(true, false, ""), existing, label, check))
	})
	t.Run("the background scan recreates a missing downstream with generateExisting, even without synchronize", func(t *testing.T) {
		policy := strings.Replace(netpolPolicy(false, false, ""), "      synchronize: false", "      synchronize: false\n      generateExisting: true", 1)
		requirePassed(t, scenarioText("scan", policy, netpolTrigger,
			deleteDownstream+"\n"+netpolCheck(absent)+"\n- sleep:\n    duration: 1h", netpolCheck(present)))
	})
}

// reasons joins every event reason of a result.
func reasons(res *timeline.Result) string {
	var b strings.Builder
	for _, st := range res.Steps {
		for _, e := range st.Events {
			b.WriteString(e.Reason)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func TestEventsNameWhatKyvernoDid(t *testing.T) {
	editDownstream := `- update:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
      spec:
        podSelector: {}
        policyTypes: [Ingress]`
	t.Run("an edited synchronized downstream is reverted, even when the edit dropped its labels", func(t *testing.T) {
		res := requirePassed(t, scenarioText("revert", netpolPolicy(true, false, ""), netpolTrigger, editDownstream, netpolCheck(present)))
		last := res.Steps[len(res.Steps)-2]
		require.NotEmpty(t, last.Events)
		kyverno := last.Events[len(last.Events)-1]
		assert.Equal(t, timeline.ActionReverted, kyverno.Action)
		assert.Equal(t, "synchronize is true and the downstream was changed", kyverno.Reason)
	})
}

func TestPolicyEditsAndRuleRemoval(t *testing.T) {
	renamed := func(sync, orphan bool) string {
		p := strings.Replace(netpolPolicy(sync, orphan, ""), "name: default-deny\n      namespace:", "name: deny-all\n      namespace:", 1)
		return "- apply:\n    resource:\n" + indent(p, 6)
	}
	t.Run("changing the rule's target unlabels the old downstream and keeps it", func(t *testing.T) {
		check := `- assert:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: default-deny
        namespace: team-a
        labels:
          app.kubernetes.io/managed-by: kyverno
          (contains(keys(@), 'generate.kyverno.io/policy-name')): false
- error:
    resource:
      apiVersion: networking.k8s.io/v1
      kind: NetworkPolicy
      metadata:
        name: deny-all
        namespace: team-a`
		res := requirePassed(t, scenarioText("retarget", netpolPolicy(true, false, ""), netpolTrigger, renamed(true, false), check))
		assert.Contains(t, reasons(res), "stale target")
		var warned bool
		for _, st := range res.Steps {
			for _, w := range st.Warnings {
				warned = warned || strings.Contains(w, "no synchronization will be performed to the old target resource")
			}
		}
		assert.True(t, warned, "Kyverno warns about stale targets on the policy update")
	})
	withoutRule := func(sync, orphan bool) string {
		p := netpolPolicy(sync, orphan, "")
		p = strings.Replace(p, "  - name: default-deny\n", "  - name: other\n", 1)
		p = strings.Replace(p, "kind: NetworkPolicy\n      name: default-deny", "kind: NetworkPolicy\n      name: other", 1)
		return "- apply:\n    resource:\n" + indent(p, 6)
	}
	for _, c := range []struct {
		sync, orphan bool
		want         outcome
	}{{true, false, absent}, {true, true, present}, {false, false, present}} {
		t.Run(fmt.Sprintf("removing the rule with synchronize %t and orphan %t", c.sync, c.orphan), func(t *testing.T) {
			requirePassed(t, scenarioText("remove-rule", netpolPolicy(c.sync, c.orphan, ""), netpolTrigger, withoutRule(c.sync, c.orphan), netpolCheck(c.want)))
		})
	}
	t.Run("a rule that lists DELETE generates when the trigger is deleted", func(t *testing.T) {
		policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: audit-deletions
spec:
  rules:
  - name: record
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          namespaces: [apps]
          operations: [DELETE]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: "deleted-{{request.object.metadata.name}}"
      namespace: audit
      data:
        data:
          name: "{{request.object.metadata.name}}"
`
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
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: deleted-settings
        namespace: audit`
		event := `- delete:
    ref:
      apiVersion: v1
      kind: ConfigMap
      name: settings
      namespace: apps`
		check := `- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: deleted-settings
        namespace: audit
      data:
        name: settings`
		requirePassed(t, scenarioText("on-delete", policy, setup, event, check))
	})
}

func TestTheUsersActionComesFirstInItsStep(t *testing.T) {
	deleteTrigger := `- delete:
    ref:
      apiVersion: v1
      kind: Namespace
      name: team-a`
	res := requirePassed(t, scenarioText("order", netpolPolicy(false, false, ""), netpolTrigger, deleteTrigger, netpolCheck(absent)))
	var step *timeline.Step
	for i := range res.Steps {
		if res.Steps[i].Summary == "delete Namespace team-a" {
			step = &res.Steps[i]
		}
	}
	require.NotNil(t, step)
	require.GreaterOrEqual(t, len(step.Events), 2)
	assert.Equal(t, timeline.ActorUser, step.Events[0].Actor, "the user's delete comes before what it caused")
	for i := 1; i < len(step.Events); i++ {
		assert.Equal(t, step.Events[i-1].Seq+1, step.Events[i].Seq, "sequence numbers stay consecutive")
	}
}

func TestAPolicyWithAnUnknownFieldIsRefusedAtThatField(t *testing.T) {
	policy := strings.Replace(netpolPolicy(true, false, ""), "synchronize: true", "synchronise: true", 1)
	text := scenarioText("typo", policy, netpolTrigger, "- sleep:\n    duration: 1s", netpolCheck(present))
	res := Run("scenario.yaml", []byte(text), Options{})
	require.False(t, res.Passed)
	require.Len(t, res.Diagnostics, 1, "one diagnostic, at the field")
	d := res.Diagnostics[0]
	lines := strings.Split(text, "\n")
	require.Less(t, d.Line-1, len(lines))
	assert.Contains(t, lines[d.Line-1], "synchronise: true")
	assert.Contains(t, d.Message, `unknown field "spec.rules[0].generate.synchronise"`)
	assert.Contains(t, res.Steps[0].Error, `ClusterPolicy in version "v1" cannot be handled as a ClusterPolicy`)
}

// TestAGeneratedConfigMapWithTypedDataFailsAsInACluster: data written as
// YAML booleans or numbers reaches the API server as JSON booleans and
// numbers, which a ConfigMap's map of strings cannot hold; Kyverno's
// UpdateRequest fails with the API server's decoding error.
func TestAGeneratedConfigMapWithTypedDataFailsAsInACluster(t *testing.T) {
	policy := `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: settings
spec:
  rules:
  - name: settings
    match:
      any:
      - resources:
          kinds: [Namespace]
    generate:
      apiVersion: v1
      kind: ConfigMap
      name: settings
      namespace: "{{request.object.metadata.name}}"
      data:
        data:
          enabled: true
`
	check := `- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: team-a`
	namespace := `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a`
	res := requirePassed(t, scenarioText("typed-data", policy, namespace, "- sleep:\n    duration: 1s", check))
	var failed []string
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionFailed {
				failed = append(failed, e.Reason)
			}
		}
	}
	require.Len(t, failed, 1, "one failed UpdateRequest")
	assert.Equal(t, `could not create the downstream: ConfigMap in version "v1" cannot be handled as a ConfigMap: `+
		`json: cannot unmarshal bool into Go struct field ConfigMap.data of type string`, failed[0])
}
