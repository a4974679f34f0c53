package shell_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/timeline"
)

func TestImpersonatedCreateReachesKyvernoAsThatUser(t *testing.T) {
	res := runScript(t, `- apply:
    resource:
      apiVersion: rbac.authorization.k8s.io/v1
      kind: ClusterRoleBinding
      metadata:
        name: nancy-ns-creator
      roleRef:
        apiGroup: rbac.authorization.k8s.io
        kind: ClusterRole
        name: ns-creator
      subjects:
      - kind: User
        name: nancy
- script:
    content: kubectl create ns team-x --as nancy
    check:
      ($stdout): |
        namespace/team-x created
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: team-x`)
	require.True(t, res.Passed, diagnostics(res))
	var note string
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionNote && strings.Contains(e.Reason, "--as nancy") {
				note = e.Reason
			}
		}
	}
	assert.Contains(t, note, "does not enforce RBAC")
	assert.Contains(t, note, "ns-creator", "the cluster roles bound to the user are passed to Kyverno")
}
