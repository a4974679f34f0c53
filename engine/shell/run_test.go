package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestScriptChecks(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "a script without check fails when a command fails",
			ops: `- script:
    content: kubectl delete configmap nothing-here -n apps`,
			failure: "the script failed (exit status 1)",
		},
		{
			name: "a check that does not hold fails the test and shows the output",
			ops: `- script:
    content: kubectl get ns apps -o name
    check:
      ($stdout): namespace/other`,
			failure: "stdout: namespace/apps",
		},
	})
}

func TestScriptsGenplayCannotRunAreSkipped(t *testing.T) {
	cases := []struct {
		name, ops, reason string
	}{
		{
			name:   "a check on what kubectl exec printed",
			ops:    "- script:\n    content: |\n      kubectl run web --image=nginx -n apps\n      kubectl exec -n apps web -- cat /etc/hostname\n    check:\n      ($stdout): web",
			reason: "output of kubectl exec",
		},
		{
			name:   "a look at Kyverno's own pods",
			ops:    "- script:\n    content: kubectl get pods -n kyverno",
			reason: "Kyverno's own pods",
		},
		{
			name:   "a program other than kubectl",
			ops:    "- script:\n    content: curl http://example.com",
			reason: "curl",
		},
		{
			name:   "a table whose columns a kubelet would fill",
			ops:    "- script:\n    content: |\n      kubectl run web --image=nginx -n apps\n      kubectl get pods -n apps",
			reason: "table for Pod",
		},
		{
			name:   "waiting for a condition no controller sets",
			ops:    "- command:\n    entrypoint: kubectl\n    args: [wait, --for=condition=Ready, pod/nginx, -n, apps]",
			reason: "no controllers or kubelet",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := runScript(t, c.ops)
			assert.Contains(t, res.Skipped, c.reason)
			assert.False(t, res.Passed && res.Skipped == "", "a skipped test never passes")
		})
	}
}
