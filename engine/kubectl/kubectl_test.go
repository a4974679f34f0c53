package kubectl_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/kubectl"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// scriptScenario wraps script operations (YAML, indented for a try list)
// into a chainsaw Test with a namespace and a cloning policy in place.
func scriptScenario(ops string) string {
	return `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scripts
spec:
  steps:
  - name: setup
    try:
    - apply:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: base
            namespace: default
          data:
            level: info
    - apply:
        resource:
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
                name: base-copy
                namespace: '{{request.object.metadata.name}}'
                clone:
                  namespace: default
                  name: base
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: apps
  - name: scripts
    try:
` + indent(ops, 4)
}

func indent(s string, n int) string {
	pad := strings.Repeat(" ", n)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

func runScript(t *testing.T, ops string) *timeline.Result {
	t.Helper()
	res := engine.Run("scripts.yaml", []byte(scriptScenario(ops)), engine.Options{})
	require.NotNil(t, res)
	return res
}

func diagnostics(res *timeline.Result) string {
	var b strings.Builder
	for _, d := range res.Diagnostics {
		b.WriteString(d.Message + "\n")
	}
	return b.String()
}

func TestScriptOperations(t *testing.T) {
	cases := []struct {
		name string
		ops  string
		// pass: the test passes; otherwise it fails with failure in a diagnostic.
		pass    bool
		failure string
	}{
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
		{
			name: "a script without check fails when a command fails",
			ops: `- script:
    content: kubectl delete configmap nothing-here -n apps`,
			failure: "the script failed (exit status 1)",
		},
		{
			name: "|| true ignores a failure and grep -q decides the status",
			ops: `- script:
    content: |
      kubectl delete configmap nothing-here -n apps || true
      kubectl get cm -n apps | grep -q base-copy`,
			pass: true,
		},
		{
			name: "grep -q without a match fails the script",
			ops: `- script:
    content: kubectl get cm -n apps -o name | grep -q 'configmap/other'`,
			failure: "exit status 1",
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
			name: "label, annotate and a merge patch change the downstream and Kyverno reverts them",
			ops: `- script:
    content: |
      kubectl label cm base-copy -n apps team=blue
      kubectl annotate cm base-copy -n apps note=hi
      kubectl patch cm base-copy -n apps --type merge -p '{"data":{"level":"debug"}}'
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
      data:
        level: info
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
        labels:
          team: blue`,
			pass: true,
		},
		{
			name: "a JSON patch of the clone source propagates to the copy",
			ops: `- script:
    content: kubectl patch cm base -n default --type json -p '[{"op":"replace","path":"/data/level","value":"warn"}]'
- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base-copy
        namespace: apps
      data:
        level: warn`,
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
		{
			name: "a check that does not hold fails the test and shows the output",
			ops: `- script:
    content: kubectl get ns apps -o name
    check:
      ($stdout): namespace/other`,
			failure: "stdout: namespace/apps",
		},
		{
			name: "a command operation deletes by type and name",
			ops: `- command:
    entrypoint: kubectl
    args: [delete, configmap, base-copy, -n, apps]
- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: base
        namespace: apps`,
			pass: true,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.ops, "jq") && !kubectl.JQAvailable {
				t.Skip("jq is not in this build")
			}
			res := runScript(t, c.ops)
			require.Empty(t, res.Skipped)
			if c.pass {
				assert.True(t, res.Passed, diagnostics(res))
				return
			}
			assert.False(t, res.Passed)
			assert.Contains(t, diagnostics(res), c.failure)
		})
	}
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

func TestScriptsReadFilesNextToTheTest(t *testing.T) {
	fsys := fstest.MapFS{
		"suite/t/chainsaw-test.yaml": {Data: []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - script:
        content: kubectl apply -f cm.yaml
        check:
          ($stdout): |
            configmap/from-file created
    - assert:
        file: cm.yaml
    - script:
        content: kubectl apply -f more
        check:
          ($stdout): |
            configmap/one created
            configmap/two created
    - script:
        content: kubectl delete -f cm.yaml,more/one.yaml
        check:
          ($stdout): |
            configmap "from-file" deleted
            configmap "one" deleted
    - script:
        content: kubectl create -f cm.yaml,more/one.yaml
        check:
          ($stdout): |
            configmap/from-file created
            configmap/one created
`)},
		"suite/t/more/one.yaml":  {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: one\n  namespace: default\n")},
		"suite/t/more/two.json":  {Data: []byte(`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "two", "namespace": "default"}}`)},
		"suite/t/more/notes.txt": {Data: []byte("not read")},
		"suite/t/cm.yaml":        {Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-file\n  namespace: default\n")},
	}
	tests, diags := scenario.Load(fsys, "suite/t/chainsaw-test.yaml")
	require.False(t, diags.HasErrors(), diags.Error())
	res := engine.RunTest(tests[0], engine.Options{Files: fsys})
	assert.True(t, res.Passed, diagnostics(res))
	assert.Empty(t, res.Skipped)
}

func TestKubectlExecReachesKyvernoAsAConnectRequestOnTheExecSubresource(t *testing.T) {
	res := engine.Run("exec.yaml", []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: exec
spec:
  steps:
  - try:
    - apply:
        resource:
          apiVersion: kyverno.io/v1
          kind: ClusterPolicy
          metadata:
            name: audit-exec
          spec:
            rules:
            - name: record
              match:
                any:
                - resources:
                    kinds:
                    - Pod/exec
              generate:
                apiVersion: v1
                kind: ConfigMap
                name: exec-audit
                namespace: '{{request.namespace}}'
                data:
                  data:
                    command: '{{request.object.command[0]}}'
    - apply:
        resource:
          apiVersion: v1
          kind: Namespace
          metadata:
            name: apps
    - command:
        entrypoint: kubectl
        args: [run, web, --image=nginx, -n, apps]
    - error:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: exec-audit
            namespace: apps
    - command:
        entrypoint: kubectl
        args: [exec, -n, apps, web, -it, --, ls, /]
    - assert:
        resource:
          apiVersion: v1
          kind: ConfigMap
          metadata:
            name: exec-audit
            namespace: apps
            labels:
              generate.kyverno.io/trigger-kind: PodExecOptions
              generate.kyverno.io/trigger-version: v1
              generate.kyverno.io/trigger-namespace: apps
          data:
            command: ls
`), engine.Options{})
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
}
