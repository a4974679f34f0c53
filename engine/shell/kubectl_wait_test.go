package shell_test

import "testing"

func TestKubectlWait(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "--for=jsonpath holds when the field has the value",
			ops: `- script:
    content: kubectl wait --for=jsonpath='{.data.level}'=info configmap/base-copy -n apps
    check:
      ($stdout): |
        configmap/base-copy condition met
      ($error): null`,
			pass: true,
		},
		{
			name: "--for=jsonpath times out when the field has another value",
			ops: `- script:
    content: kubectl wait --for=jsonpath='{.data.level}'=debug configmap/base-copy -n apps --timeout=5s
    check:
      ($stderr): |
        error: timed out waiting for the condition on configmap/base-copy
      ($error != null): true`,
			pass: true,
		},
		{
			name: "--for=delete times out on an object that stays and holds once it is gone",
			ops: `- script:
    content: |
      kubectl wait --for=delete configmap/base -n default --timeout=1s && exit 1
      kubectl delete configmap base -n default
      kubectl wait --for=delete configmap/base -n default
    check:
      ($stdout): |
        configmap "base" deleted
        configmap/base condition met
      ($error): null`,
			pass: true,
		},
	})
}
