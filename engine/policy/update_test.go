package policy

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const updateBase = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata:
  name: kafka
spec:
  rules:
  - name: kafka-address
    match:
      any:
      - resources:
          kinds:
          - Namespace
    exclude:
      any:
      - resources:
          namespaces: [kube-system]
    generate:
      synchronize: true
      apiVersion: v1
      kind: ConfigMap
      name: kafka-address
      namespace: "{{request.object.metadata.name}}"
      data:
        data:
          ADDRESS: "192.168.10.13:9092"
  - name: clone
    match:
      any:
      - resources: {kinds: [Namespace]}
    generate:
      apiVersion: v1
      kind: Secret
      name: regcred
      namespace: "{{request.object.metadata.name}}"
      clone: {namespace: default, name: regcred}
`

func TestValidateUpdate(t *testing.T) {
	tests := []struct {
		name  string
		old   string
		edit  func(string) string
		wants []want
	}{
		{
			name: "renaming a rule is rejected",
			edit: func(s string) string {
				return strings.Replace(s, "name: kafka-address\n    match", "name: renamed\n    match", 1)
			},
			wants: []want{errAt(7, MsgImmutableRule)},
		},
		{
			name: "changing match is rejected when a rule synchronizes",
			edit: func(s string) string {
				return strings.Replace(s, "          - Namespace\n", "          - Namespace\n          - Secret\n", 1)
			},
			wants: []want{errAt(8, MsgImmutableRule)},
		},
		{
			name: "changing match is allowed when no old rule synchronizes",
			old:  strings.Replace(updateBase, "synchronize: true", "synchronize: false", 1),
			edit: func(s string) string {
				s = strings.Replace(s, "synchronize: true", "synchronize: false", 1)
				return strings.Replace(s, "          - Namespace\n", "          - Namespace\n          - Secret\n", 1)
			},
		},
		{
			name:  "changing exclude is rejected",
			edit:  func(s string) string { return strings.Replace(s, "[kube-system]", "[kube-system, kyverno]", 1) },
			wants: []want{errAt(13, MsgImmutableRule)},
		},
		{
			name: "adding preconditions is rejected",
			edit: func(s string) string {
				return strings.Replace(s, "    generate:\n      synchronize: true", "    preconditions:\n      all:\n      - {key: a, operator: Equals, value: a}\n    generate:\n      synchronize: true", 1)
			},
			wants: []want{errAt(17, MsgImmutableRule)},
		},
		{
			name: "writing a default explicitly changes nothing",
			edit: func(s string) string {
				return strings.Replace(s, "  - name: clone\n", "  - name: clone\n    skipBackgroundRequests: true\n", 1)
			},
		},
		{
			name: "synchronize, data and orphanDownstreamOnPolicyDelete are mutable",
			edit: func(s string) string {
				s = strings.Replace(s, "synchronize: true", "synchronize: false\n      orphanDownstreamOnPolicyDelete: true\n      generateExisting: true", 1)
				return strings.Replace(s, "192.168.10.13:9092", "10.0.0.1:9092", 1)
			},
		},
		{
			name: "changing the target name warns about stale targets",
			edit: func(s string) string {
				return strings.Replace(s, "name: kafka-address\n      namespace", "name: kafka\n      namespace", 1)
			},
			wants: []want{warnAt(21, MsgStaleTargets)},
		},
		{
			name:  "changing the target kind warns",
			edit:  func(s string) string { return strings.Replace(s, "kind: ConfigMap", "kind: Secret", 1) },
			wants: []want{warnAt(20, MsgStaleTargets)},
		},
		{
			name: "changing the clone source warns",
			edit: func(s string) string {
				return strings.Replace(s, "clone: {namespace: default", "clone: {namespace: kube-system", 1)
			},
			wants: []want{warnAt(35, MsgStaleTargets)},
		},
		{
			name: "a stale-target warning wins over an immutable-field error",
			edit: func(s string) string {
				s = strings.Replace(s, "kind: ConfigMap", "kind: Secret", 1)
				return strings.Replace(s, "[kube-system]", "[kube-system, kyverno]", 1)
			},
			wants: []want{warnAt(20, MsgStaleTargets)},
		},
		{
			name:  "removing a rule warns",
			edit:  func(s string) string { return s[:strings.Index(s, "  - name: clone")] },
			wants: []want{warnAt(6, MsgStaleTargets)},
		},
		{
			name: "adding a rule is allowed",
			edit: func(s string) string {
				return s + "  - name: extra\n    match: {any: [{resources: {kinds: [Namespace]}}]}\n    generate: {apiVersion: v1, kind: ConfigMap, name: e, namespace: x}\n"
			},
		},
		{
			name: "reordering rules is allowed",
			edit: func(s string) string {
				i := strings.Index(s, "  - name: kafka-address")
				j := strings.Index(s, "  - name: clone")
				return s[:i] + s[j:] + s[i:j]
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			oldText := tt.old
			if oldText == "" {
				oldText = updateBase
			}
			old := mustParse(t, oldText)
			updated := mustParse(t, tt.edit(oldText))
			assertDiagnostics(t, ValidateUpdate(old, updated), tt.wants)
		})
	}
}

func TestTargetChanged(t *testing.T) {
	old := mustParse(t, updateBase)
	same := mustParse(t, strings.Replace(updateBase, "192.168.10.13:9092", "other", 1))
	moved := mustParse(t, strings.Replace(updateBase, "name: kafka-address\n      namespace", "name: moved\n      namespace", 1))
	assert.False(t, TargetChanged(&old.Spec.Rules[0], &same.Spec.Rules[0]), "data is not part of the target")
	assert.True(t, TargetChanged(&old.Spec.Rules[0], &moved.Spec.Rules[0]))
	assert.False(t, TargetChanged(&old.Spec.Rules[1], &moved.Spec.Rules[1]))
	assert.True(t, TargetChanged(&old.Spec.Rules[0], nil))
	assert.False(t, TargetChanged(nil, nil))
}

func TestRemovedRules(t *testing.T) {
	old := mustParse(t, updateBase)
	shorter := mustParse(t, updateBase[:strings.Index(updateBase, "  - name: clone")])
	removed := RemovedRules(old, shorter)
	require.Len(t, removed, 1)
	assert.Equal(t, "clone", removed[0].Name)
	assert.Empty(t, RemovedRules(old, old))
	assert.Len(t, RemovedRules(old, nil), 2, "deleting the policy removes every rule")
	assert.Empty(t, ValidateUpdate(nil, old))
}
