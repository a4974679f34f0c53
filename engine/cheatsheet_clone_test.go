package engine

import (
	"fmt"
	"strings"
	"testing"
)

// Clone, cloneList and foreach rows of the cheat sheet (SEMANTICS §2.5).

func clonePolicy(sync, orphan bool) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: sync-secret
spec:
  rules:
  - name: copy-regcred
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              registry: "true"
    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: "{{request.object.metadata.name}}"
      synchronize: %t
      orphanDownstreamOnPolicyDelete: %t
      clone:
        namespace: platform
        name: regcred
`, sync, orphan)
}

const cloneSetup = `- apply:
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
          generate.kyverno.io/clone-source: ""
          generate.kyverno.io/source-namespace: platform
          generate.kyverno.io/source-kind: Secret
      data:
        token: b3JpZ2luYWw=
- assert:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: platform
        labels:
          generate.kyverno.io/clone-source: ""`

func secretCheck(ns string, o outcome, changed string) string {
	if o == absent {
		return fmt.Sprintf(`- error:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: %s`, ns)
	}
	token := "b3JpZ2luYWw="
	if o == modified || o == updated {
		token = changed
	}
	return fmt.Sprintf(`- assert:
    resource:
      apiVersion: v1
      kind: Secret
      metadata:
        name: regcred
        namespace: %s
      data:
        token: %s`, ns, token)
}

func TestCheatSheetClone(t *testing.T) {
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
	deletePolicy := `- delete:
    ref:
      apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      name: sync-secret`
	cases := []struct {
		name    string
		event   string
		changed string
		want    func(sync, orphan bool) outcome
	}{
		{"the clone source is modified", editSource, sourceToken,
			func(sync, _ bool) outcome { return map[bool]outcome{true: updated, false: present}[sync] }},
		{"the clone source is deleted", deleteSource, "",
			func(sync, _ bool) outcome { return map[bool]outcome{true: absent, false: present}[sync] }},
		{"the downstream is modified", editDownstream, userToken,
			func(sync, _ bool) outcome { return map[bool]outcome{true: present, false: modified}[sync] }},
		{"the downstream is deleted", deleteDownstream, "",
			func(sync, _ bool) outcome { return map[bool]outcome{true: present, false: absent}[sync] }},
		// v1.19 (PR #16329): orphan=false deletes clone downstreams too.
		{"the policy is deleted", deletePolicy, "",
			func(sync, orphan bool) outcome {
				if sync && !orphan {
					return absent
				}
				return present
			}},
	}
	for _, c := range cases {
		for _, sync := range []bool{true, false} {
			for _, orphan := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s with synchronize %t and orphan %t", c.name, sync, orphan), func(t *testing.T) {
					requirePassed(t, scenarioText("clone", clonePolicy(sync, orphan), cloneSetup, c.event,
						secretCheck("team-a", c.want(sync, orphan), c.changed)))
				})
			}
		}
	}
}

func cloneListPolicy(sync bool) string {
	return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: sync-bundle
spec:
  rules:
  - name: copy-bundle
    match:
      any:
      - resources:
          kinds: [Namespace]
          selector:
            matchLabels:
              bundle: "true"
    generate:
      namespace: "{{request.object.metadata.name}}"
      synchronize: %t
      cloneList:
        namespace: platform
        kinds: [v1/Secret, v1/ConfigMap]
        selector:
          matchLabels:
            share: "true"
`, sync)
}

func TestCheatSheetCloneList(t *testing.T) {
	setup := `- apply:
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
        labels:
          share: "true"
      data:
        token: b3JpZ2luYWw=
- apply:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: platform
        labels:
          share: "true"
      data:
        level: info
- apply:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: private
        namespace: platform
      data:
        level: debug
- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
        labels:
          bundle: "true"
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: team-a
      data:
        level: info
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: private
        namespace: team-a
` + secretCheck("team-a", present, "")
	editSource := `- patch:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: platform
      data:
        level: warn`
	levelIs := func(level string) string {
		return `- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: team-a
      data:
        level: ` + level
	}
	t.Run("with synchronize a source change reaches the copy", func(t *testing.T) {
		requirePassed(t, scenarioText("clonelist", cloneListPolicy(true), setup, editSource, levelIs("warn")))
	})
	t.Run("without synchronize a source change does not reach the copy", func(t *testing.T) {
		requirePassed(t, scenarioText("clonelist", cloneListPolicy(false), setup, editSource, levelIs("info")))
	})
	deleteSecret := `- delete:
    ref:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: platform`
	// Kyverno deletes the trigger's downstreams of the rule, selected by
	// trigger labels and the rule's kinds, not by source (SEMANTICS §3): the
	// other copies of the cloneList go too.
	t.Run("with synchronize deleting one source deletes every copy the rule made for that trigger", func(t *testing.T) {
		requirePassed(t, scenarioText("clonelist", cloneListPolicy(true), setup, deleteSecret, secretCheck("team-a", absent, "")+`
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: settings
        namespace: team-a`))
	})
	t.Run("with synchronize a deleted copy is recreated", func(t *testing.T) {
		requirePassed(t, scenarioText("clonelist", cloneListPolicy(true), setup,
			strings.Replace(deleteSecret, "platform", "team-a", 1), secretCheck("team-a", present, "")))
	})
}

func TestCheatSheetForeach(t *testing.T) {
	policy := func(sync bool) string {
		return fmt.Sprintf(`apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: per-team
spec:
  rules:
  - name: quota-per-team
    match:
      any:
      - resources:
          kinds: [ConfigMap]
          names: [teams]
          namespaces: [platform]
    generate:
      synchronize: %t
      foreach:
      - list: "request.object.data.teams | split(@, ',')"
        apiVersion: v1
        kind: ResourceQuota
        name: quota
        namespace: "{{element}}"
        data:
          spec:
            hard:
              pods: "{{ to_string(elementIndex) }}0"
`, sync)
	}
	setup := `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: platform
- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-a
- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team-b
- apply:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: teams
        namespace: platform
      data:
        teams: team-a,team-b
- assert:
    resource:
      apiVersion: v1
      kind: ResourceQuota
      metadata:
        name: quota
        namespace: team-b
      spec:
        hard:
          pods: "10"`
	quota := func(ns, op string) string {
		return fmt.Sprintf(`- %s:
    resource:
      apiVersion: v1
      kind: ResourceQuota
      metadata:
        name: quota
        namespace: %s`, op, ns)
	}
	deleteQuota := `- delete:
    ref:
      apiVersion: v1
      kind: ResourceQuota
      name: quota
      namespace: team-a`
	t.Run("with synchronize a deleted foreach downstream is recreated", func(t *testing.T) {
		requirePassed(t, scenarioText("foreach", policy(true), setup, deleteQuota, quota("team-a", "assert")))
	})
	t.Run("without synchronize a deleted foreach downstream stays deleted", func(t *testing.T) {
		requirePassed(t, scenarioText("foreach", policy(false), setup, deleteQuota, quota("team-a", "error")))
	})
	deleteTrigger := `- delete:
    ref:
      apiVersion: v1
      kind: ConfigMap
      name: teams
      namespace: platform`
	t.Run("with synchronize deleting the trigger deletes every foreach downstream", func(t *testing.T) {
		requirePassed(t, scenarioText("foreach", policy(true), setup, deleteTrigger, quota("team-a", "error")+"\n"+quota("team-b", "error")))
	})
	t.Run("without synchronize deleting the trigger keeps every foreach downstream", func(t *testing.T) {
		requirePassed(t, scenarioText("foreach", policy(false), setup, deleteTrigger, quota("team-a", "assert")+"\n"+quota("team-b", "assert")))
	})
}
