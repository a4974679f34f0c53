package shell_test

import (
	"testing"
)

func TestKubectlGet(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "kubectl get prints the object and the check reads $stdout",
			ops: `- script:
    content: kubectl get configmap base-copy -n apps -o json
    check:
      ($error): null
      (contains($stdout, 'base-copy')): true`,
			pass: true,
		},
		{
			name: "a failed kubectl call sets $error and prints the API error on stderr",
			ops: `- script:
    content: kubectl get cm missing -n apps
    check:
      ($error != null): true
      (trim_space($stderr)): 'Error from server (NotFound): configmaps "missing" not found'`,
			pass: true,
		},
		{
			name: "an empty list says so on stderr as kubectl does",
			ops: `- script:
    content: kubectl get updaterequests -n kyverno
    check:
      (trim_space($stderr)): No resources found in kyverno namespace.`,
			pass: true,
		},
	})
}
