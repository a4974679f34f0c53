package shell_test

import "testing"

func TestKubectlPrintsTablesAndFormats(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "the default table of ConfigMaps has NAME, DATA and AGE",
			ops: `- script:
    content: kubectl get configmaps -n apps
    check:
      ($stdout): |
        NAME        DATA   AGE
        base-copy   1      1s
      ($error): null`,
			pass: true,
		},
		{
			name: "-A adds the NAMESPACE column",
			ops: `- script:
    content: kubectl get cm -A -l generate.kyverno.io/policy-name=copy-base
    check:
      ($stdout): |
        NAMESPACE   NAME        DATA   AGE
        apps        base-copy   1      1s
      ($error): null`,
			pass: true,
		},
		{
			name: "-o name prints TYPE/NAME",
			ops: `- script:
    content: kubectl get namespace apps -o name
    check:
      ($stdout): |
        namespace/apps
      ($error): null`,
			pass: true,
		},
		{
			name: "-o jsonpath prints one field",
			ops: `- script:
    content: kubectl get cm base-copy -n apps -o jsonpath='{.data.level}'
    check:
      ($stdout): info`,
			pass: true,
		},
		{
			name: "-o yaml prints the object",
			ops: `- script:
    content: |
      kubectl get cm base -n default -o yaml | grep -x 'kind: ConfigMap'`,
			pass: true,
		},
	})
}
