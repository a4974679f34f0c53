package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/timeline"
)

// A GeneratingPolicy's synchronization rides on its WatchManager's watch,
// which the API server authorizes with the background controller's
// permissions. Kyverno's e2e install grants get and list on Secrets but not
// watch, and real Kyverno v1.19.0 then left a synchronized Secret clone as
// it was when its source changed, and a deleted one deleted (the oracle's
// recordings, internal/oracle). Granting watch (an aggregated ClusterRole)
// makes the same scenario follow.
func TestAGeneratingPolicysSyncNeedsWatchOnTheKind(t *testing.T) {
	const scenario = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: watch-permission
spec:
  steps:
  - try:
%s    - apply:
        resource: {apiVersion: v1, kind: Secret, metadata: {name: regcred, namespace: default}, data: {token: b25l}}
    - apply:
        resource:
          apiVersion: policies.kyverno.io/v1
          kind: GeneratingPolicy
          metadata: {name: sync-secret}
          spec:
            evaluation: {synchronize: {enabled: true}}
            matchConstraints:
              resourceRules:
              - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [namespaces]}
            variables:
            - name: source
              expression: resource.Get("v1", "secrets", "default", "regcred")
            generate:
            - expression: generator.Apply(object.metadata.name, [variables.source])
    - apply:
        resource: {apiVersion: v1, kind: Namespace, metadata: {name: team-a}}
    - patch:
        resource: {apiVersion: v1, kind: Secret, metadata: {name: regcred, namespace: default}, data: {token: dHdv}}
    - delete:
        ref: {apiVersion: v1, kind: Secret, namespace: team-a, name: regcred}
`
	const grant = `    - apply:
        resource:
          apiVersion: rbac.authorization.k8s.io/v1
          kind: ClusterRole
          metadata:
            name: kyverno:background-controller:watch-secrets
            labels: {rbac.kyverno.io/aggregate-to-background-controller: "true"}
          rules:
          - {apiGroups: [""], resources: [secrets], verbs: [get, list, watch]}
`
	run := func(t *testing.T, text string) []timeline.Event {
		res := Run("watch.yaml", []byte(text), Options{Families: []Family{controller.New}, Permissions: PermissionsKyvernoE2E})
		require.False(t, res.Invalid, "%+v", res.Diagnostics)
		var events []timeline.Event
		for _, st := range res.Steps {
			events = append(events, st.Events...)
		}
		return events
	}
	kyverno := func(events []timeline.Event) []string {
		var out []string
		for _, e := range events {
			if e.Actor == timeline.ActorKyverno && e.Object.Kind == "Secret" && e.Object.Namespace == "team-a" {
				out = append(out, string(e.Action)+": "+e.Reason)
			}
		}
		return out
	}

	t.Run("without watch the clone neither follows its source nor comes back", func(t *testing.T) {
		got := kyverno(run(t, strings.Replace(scenario, "%s", "", 1)))
		require.Len(t, got, 3, "%q", got)
		assert.True(t, strings.HasPrefix(got[0], "created: "), got[0])
		for _, r := range got[1:] {
			assert.Contains(t, r, `Kyverno's background controller may not watch Secrets (secrets is forbidden: User "system:serviceaccount:kyverno:kyverno-background-controller" cannot watch resource "secrets" in API group "" at the cluster scope)`)
		}
		assert.True(t, strings.HasPrefix(got[1], "kept: not updated: its clone source Secret default/regcred changed"), got[1])
		assert.True(t, strings.HasPrefix(got[2], "ignored: not recreated: "), got[2])
	})

	t.Run("with watch granted it does both", func(t *testing.T) {
		got := kyverno(run(t, strings.Replace(scenario, "%s", grant, 1)))
		require.Len(t, got, 3, "%q", got)
		assert.True(t, strings.HasPrefix(got[1], "updated: synchronize is on and its clone source"), got[1])
		assert.True(t, strings.HasPrefix(got[2], "recreated: "), got[2])
	})
}
