package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestKubectlEvictReachesKyvernoAsACreateOnTheEvictionSubresource(t *testing.T) {
	res := runCEL(t, generatingPolicy("on-evict", `"pods/eviction"`, "", "evicted")+`- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: apps
- command:
    entrypoint: kubectl
    args: [run, nginx, --image=nginx, -n, apps]
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: evicted
        namespace: apps
- script:
    content: kubectl evict nginx -n apps
    check:
      ($error): null
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: evicted
        namespace: apps
        labels:
          generate.kyverno.io/trigger-kind: Eviction
- error:
    resource:
      apiVersion: v1
      kind: Pod
      metadata:
        name: nginx
        namespace: apps`)
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))

	missing := runCEL(t, `- script:
    content: kubectl evict nginx -n apps
    check:
      ($error != null): true`)
	assert.Empty(t, missing.Skipped)
	assert.True(t, missing.Passed, diagnostics(missing))

	printed := runCEL(t, `- script:
    content: kubectl evict nginx -n apps
    check:
      ($stdout): evicted`)
	assert.Contains(t, printed.Skipped, "output of kubectl evict")
}
