package shell_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/shell"
)

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

func TestKubectlWordsInvalidErrorsAsCheckErrDoes(t *testing.T) {
	causes := []cluster.FieldError{
		{Field: "spec.generate", Type: "Required value"},
		{Field: "metadata.name", Type: "Invalid value", Value: `"Bad"`, Detail: "a lowercase RFC 1123 subdomain"},
		{Field: "spec.generate", Type: "Required value"},
	}
	assert.Equal(t, "The GeneratingPolicy \"x\" is invalid: spec.generate: Required value\n",
		shell.InvalidMessage(cluster.Invalid("GeneratingPolicy", "x", causes[:1])))
	assert.Equal(t, "The GeneratingPolicy \"x\" is invalid: \n* spec.generate: Required value\n* metadata.name: Invalid value: \"Bad\": a lowercase RFC 1123 subdomain\n",
		shell.InvalidMessage(cluster.Invalid("GeneratingPolicy", "x", causes)), "one line per cause, duplicates once")
	assert.Equal(t, "The CustomResourceDefinition \"x\" is invalid: spec.group: Required value\n",
		shell.InvalidMessage(cluster.Invalid("CustomResourceDefinition.apiextensions.k8s.io", "x", []cluster.FieldError{{Field: "spec.group", Type: "Required value"}})),
		"the details name the kind without its group")
	assert.Equal(t, "The request is invalid: invalid\n", shell.InvalidMessage(cluster.ErrInvalid))

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
