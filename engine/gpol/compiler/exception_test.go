package compiler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/source"
)

func parseException(t *testing.T, conditions string) *gpol.Exception {
	t.Helper()
	text := "apiVersion: policies.kyverno.io/v1\nkind: PolicyException\nmetadata:\n  name: ex\n  namespace: default\nspec:\n  policyRefs:\n  - name: p\n    kind: GeneratingPolicy\n" + conditions
	docs, diags := source.Parse("exception.yaml", []byte(text))
	require.Empty(t, diags)
	e, diags := gpol.ParseException(docs[0], nil)
	require.Empty(t, diags, "%v", diags)
	return e
}

func TestExceptionsMatchLikeThePolicysConditions(t *testing.T) {
	policy := parsePolicy(t, policyYAML(gpol.KindGeneratingPolicy, "  generate:\n  - expression: 'true'\n"))
	tests := []struct {
		name, conditions string
		want             bool
		wantErr          string
	}{
		{"an exception without conditions matches", "", true, ""},
		{"all conditions true match", "  matchConditions:\n  - name: a\n    expression: object.metadata.name == 'team-a'\n", true, ""},
		{"a false condition does not match", "  matchConditions:\n  - name: a\n    expression: object.metadata.name == 'other'\n", false, ""},
		{"an error without a false is an error", "  matchConditions:\n  - name: a\n    expression: object.nope == 1\n", false, "no such key: nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ex, diags := CompileException(parseException(t, tt.conditions), policy, Options{})
			require.Empty(t, diags)
			got, err := ex.Match(nsInput, newHost())
			if tt.wantErr != "" {
				assert.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.True(t, ex.Full(), "no images and no allowedValues: a full exemption")
		})
	}
	t.Run("an exception's conditions cannot use variables", func(t *testing.T) {
		_, diags := CompileException(parseException(t, "  matchConditions:\n  - name: a\n    expression: variables.x == 1\n"), policy, Options{})
		assert.ErrorContains(t, diags, "undefined field 'x'")
		assert.Equal(t, "exception.yaml", diags[0].File)
		assert.Equal(t, 12, diags[0].Line)
	})
	t.Run("an exception with images is partial", func(t *testing.T) {
		ex, diags := CompileException(parseException(t, "  images: ['nginx:*']\n"), policy, Options{})
		require.Empty(t, diags)
		assert.False(t, ex.Full())
	})
}
