package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKubectlApply(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "apply prints created, unchanged and configured",
			ops: `- script:
    content: |
      kubectl apply -f - <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: new
        namespace: apps
      EOF
      kubectl apply -f - <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: new
        namespace: apps
      EOF
      kubectl apply -f - <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: new
        namespace: apps
      data:
        k: v
      EOF
    check:
      ($stdout): |
        configmap/new created
        configmap/new unchanged
        configmap/new configured
      ($error): null`,
			pass: true,
		},
		{
			name: "replace writes an existing object and fails on a missing one",
			ops: `- script:
    content: |
      kubectl replace -f - <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base
        namespace: default
      data:
        level: debug
      EOF
      kubectl replace -f - <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: missing
        namespace: default
      EOF
    check:
      ($stdout): |
        configmap/base replaced
      ($stderr): |
        Error from server (NotFound): error when replacing "STDIN": configmaps "missing" not found
      ($error != null): true
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
      data:
        level: debug`,
			pass: true,
		},
		{
			name: "a heredoc applied through kubectl reaches Kyverno, which clones into the new namespace",
			ops: `- script:
    content: |
      kubectl apply -f - <<EOF
      apiVersion: v1
      kind: Namespace
      metadata:
        name: shop
      EOF
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: shop
      data:
        level: info`,
			pass: true,
		},
		{
			name: "a policy update through kubectl apply prints Kyverno's warning on stderr",
			ops: `- script:
    content: |
      kubectl apply -f - 2>&1 <<EOF | grep -q "Warning: no synchronization will be performed to the old target resource upon policy updates"
      apiVersion: kyverno.io/v1
      kind: ClusterPolicy
      metadata:
        name: copy-base
      spec:
        rules:
        - name: copy
          match:
            any:
            - resources:
                kinds:
                - Namespace
          generate:
            synchronize: true
            apiVersion: v1
            kind: ConfigMap
            name: base-copy-2
            namespace: '{{request.object.metadata.name}}'
            clone:
              namespace: default
              name: base
      EOF`,
			pass: true,
		},
	})
}

func TestAPolicyWrittenAsAnotherUserGoesThroughAdmission(t *testing.T) {
	res := runCEL(t, `- script:
    content: |
      cat <<EOF | kubectl apply --as alice -f -
      apiVersion: policies.kyverno.io/v1
      kind: GeneratingPolicy
      metadata:
        name: no-generate
      spec:
        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: [v1]
            operations: [CREATE]
            resources: [namespaces]
      EOF
    check:
      ($error != null): true
      ($stderr): |
        The GeneratingPolicy "no-generate" is invalid: spec.generate: Required value
- error:
    resource:
      apiVersion: policies.kyverno.io/v1
      kind: GeneratingPolicy
      metadata:
        name: no-generate`)
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
}
