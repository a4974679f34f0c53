package kubectl_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/kubectl"
	"github.com/genplay/genplay/engine/timeline"
)

// The scripts of Kyverno's CEL conformance suite: what kubectl prints for a
// GeneratingPolicy the API server refuses, a restart of Kyverno's
// background controller, impersonating its service account, and kubectl
// evict.

var celOptions = engine.Options{Families: []engine.Family{controller.New}}

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

func TestKubectlPrintsAnInvalidPolicyAsTheAPIServerDetailsIt(t *testing.T) {
	res := runCEL(t, `- script:
    content: |
      cat <<EOF | kubectl apply -f -
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
        The GeneratingPolicy "no-generate" is invalid: spec.generate: Required value`)
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
}

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

func TestImpersonatingKyvernosBackgroundServiceAccount(t *testing.T) {
	label := `- script:
    content: kubectl label namespace team touched=yes --overwrite --as system:serviceaccount:kyverno:kyverno-background-controller
    check:
      ($stdout): |
        namespace/team labeled
`
	ns := `- apply:
    resource:
      apiVersion: v1
      kind: Namespace
      metadata:
        name: team
`
	skipped := runCEL(t, ns+strings.Replace(generatingPolicy("skip", "namespaces", "", "skipped"), `operations: ["*"]`, `operations: [UPDATE]`, 1)+label+`- error:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: skipped
        namespace: team`)
	assert.Empty(t, skipped.Skipped)
	assert.True(t, skipped.Passed, diagnostics(skipped))
	assert.Contains(t, notes(skipped), "kubectl --as system:serviceaccount:kyverno:kyverno-background-controller")
	assert.Contains(t, notes(skipped), "groups system:serviceaccounts, system:serviceaccounts:kyverno, system:authenticated")
	assert.Contains(t, notes(skipped), "unless they set skipBackgroundRequests: false", "the timeline says why nothing was generated")

	optIn := runCEL(t, ns+strings.Replace(generatingPolicy("opt-in", "namespaces", "        evaluation:\n          skipBackgroundRequests: false\n", "opted-in"),
		`operations: ["*"]`, `operations: [UPDATE]`, 1)+label+`- assert:
    resource:
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: opted-in
        namespace: team`)
	assert.Empty(t, optIn.Skipped)
	assert.True(t, optIn.Passed, diagnostics(optIn))
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

func TestKubectlWordsInvalidErrorsAsCheckErrDoes(t *testing.T) {
	causes := []cluster.FieldError{
		{Field: "spec.generate", Type: "Required value"},
		{Field: "metadata.name", Type: "Invalid value", Value: `"Bad"`, Detail: "a lowercase RFC 1123 subdomain"},
		{Field: "spec.generate", Type: "Required value"},
	}
	assert.Equal(t, "The GeneratingPolicy \"x\" is invalid: spec.generate: Required value\n",
		kubectl.InvalidMessage(cluster.Invalid("GeneratingPolicy", "x", causes[:1])))
	assert.Equal(t, "The GeneratingPolicy \"x\" is invalid: \n* spec.generate: Required value\n* metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain\n",
		kubectl.InvalidMessage(cluster.Invalid("GeneratingPolicy", "x", causes)), "one line per cause, duplicates once")
	assert.Equal(t, "The CustomResourceDefinition \"x\" is invalid: spec.group: Required value\n",
		kubectl.InvalidMessage(cluster.Invalid("CustomResourceDefinition.apiextensions.k8s.io", "x", []cluster.FieldError{{Field: "spec.group", Type: "Required value"}})),
		"the details name the kind without its group")
	assert.Equal(t, "The request is invalid: invalid\n", kubectl.InvalidMessage(cluster.ErrInvalid))

	// Several errors of one call: each as "Error from server (Reason): ...".
	res := runCEL(t, `- script:
    content: |
      cat <<EOF | kubectl apply -f -
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: Bad
        namespace: default
      ---
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: Worse
        namespace: default
      EOF
    check:
      ($error != null): true
      (contains($stderr, 'The ConfigMap')): false
      ($stderr): |
        Error from server (Invalid): error when creating "STDIN": ConfigMap "Bad" is invalid: metadata.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')
        Error from server (Invalid): error when creating "STDIN": ConfigMap "Worse" is invalid: metadata.name: Invalid value: "Worse": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`)
	assert.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
}
