package shell_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/shell"
)

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
}
