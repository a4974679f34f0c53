package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestARolloutRestartOfTheBackgroundControllerRestartsIt(t *testing.T) {
	res := runCEL(t, generatingPolicy("per-ns", "namespaces", "", "generated")+`- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team
- script:
    content: |
      set -euo pipefail
      BEFORE="$(kubectl get configmap generated -n team -o jsonpath='{.metadata.uid}')"
      kubectl rollout restart deployment/kyverno-background-controller -n kyverno
      kubectl rollout status deployment kyverno-background-controller -n kyverno --timeout=180s
      AFTER="$(kubectl get configmap generated -n team -o jsonpath='{.metadata.uid}')"
      test "${BEFORE}" = "${AFTER}"
    check:
      ($error): null
      ($stdout): |
        deployment.apps/kyverno-background-controller restarted
        deployment "kyverno-background-controller" successfully rolled out`)
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
	assert.Contains(t, notes(res), "the background controller restarts")

	other := runCEL(t, `- script:
    content: kubectl rollout restart deployment/web -n apps`)
	assert.Contains(t, other.Skipped, "rollouts of running workloads")
}
