package shell_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
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

// celOptions run the CEL family too, for the scripts of Kyverno's CEL
// conformance suite.
var celOptions = engine.Options{Families: []generate.NewFamily{controller.New}}

// celScenario is a chainsaw Test of one step whose try list is ops.
func celScenario(ops string) []byte {
	return []byte(`apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: cel
spec:
  steps:
  - try:
` + indent(ops, 4) + "\n")
}

func runCEL(t *testing.T, ops string) *timeline.Result {
	t.Helper()
	res := engine.Run("cel.yaml", celScenario(ops), celOptions)
	require.NotNil(t, res)
	return res
}

// notes lists the reasons of the timeline's note events.
func notes(res *timeline.Result) string {
	var b strings.Builder
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionNote {
				b.WriteString(e.Reason + "\n")
			}
		}
	}
	return b.String()
}

// generatingPolicy is a GeneratingPolicy (YAML for an apply operation's
// resource) that generates the ConfigMap cm in the namespace of a request
// on resources.
func generatingPolicy(name, resources, evaluation, cm string) string {
	return `- apply:
    resource:
      apiVersion: policies.kyverno.io/v1
      kind: GeneratingPolicy
      metadata:
        name: ` + name + `
      spec:
` + evaluation + `        matchConstraints:
          resourceRules:
          - apiGroups: [""]
            apiVersions: [v1]
            operations: ["*"]
            resources: [` + resources + `]
        variables:
        - name: ns
          expression: "has(object.metadata.namespace) && object.metadata.namespace != '' ? object.metadata.namespace : object.metadata.name"
        generate:
        - expression: >-
            generator.apply(variables.ns, [{"apiVersion": dyn("v1"), "kind": dyn("ConfigMap"),
            "metadata": dyn({"name": "` + cm + `", "namespace": variables.ns}), "data": dyn({"k": "v"})}])
`
}

// scriptCase is a script run in scriptScenario: it passes, fails with
// failure in a diagnostic, or is skipped with skipped in the reason.
type scriptCase struct {
	name, ops        string
	pass             bool
	failure, skipped string
}

func runScriptCases(t *testing.T, cases []scriptCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if strings.Contains(c.ops, "jq") && !shell.JQAvailable {
				t.Skip("jq is not in this build")
			}
			res := runScript(t, c.ops)
			if c.skipped != "" {
				assert.Contains(t, res.Skipped, c.skipped)
				return
			}
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
