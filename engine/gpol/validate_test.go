package gpol

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/genplay/genplay/engine/source"
)

func TestValidateAcceptsAPolicyWithResourceRules(t *testing.T) {
	assert.Empty(t, Validate(parse(t, minimal)))
	assert.Empty(t, Validate(parse(t, everyField)))
}

func TestValidateRequiresMatchConstraintsWithAResourceRule(t *testing.T) {
	rules := "    resourceRules:\n    - apiGroups: [\"\"]\n      apiVersions: [v1]\n      operations: [CREATE, UPDATE]\n      resources: [namespaces]\n"
	tests := []struct {
		name, from, to, want string
	}{
		{"without matchConstraints", "  matchConstraints:\n" + rules, "",
			"policy.yaml:5:1: spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required"},
		{"with matchConstraints but no resourceRules", rules, "    namespaceSelector: {}\n",
			"policy.yaml:6:3: spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required"},
		{"with empty resourceRules", rules, "    resourceRules: []\n",
			"policy.yaml:7:5: spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := parse(t, strings.Replace(minimal, tc.from, tc.to, 1))
			assert.Equal(t, []string{tc.want}, diagStrings(Validate(p)))
		})
	}
}

func TestTheConformanceTestsMessagesAreOurs(t *testing.T) {
	// generating-policies/validate/missing-generate asserts
	// `The GeneratingPolicy "zk-kafka-address" is invalid: spec.generate: Required value`:
	// the facade adds `The <Kind> "<name>" is invalid: `, the field error is ours.
	_, diags := Parse(doc(t, strings.Replace(minimal, "  generate:\n  - expression: generator.Apply(object.metadata.name, [variables.np])\n", "", 1)), nil)
	assert.Equal(t, []string{"spec.generate: Required value"}, messagesOnly(diags))
	// The webhook's message, asserted by validate/missing-match-constraints upstream.
	assert.Equal(t, "spec.matchConstraints: Required value: a matchConstraints with at least one resource rule is required", MatchConstraintsRequired)
}

func messagesOnly(ds source.Diagnostics) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Message
	}
	return out
}
