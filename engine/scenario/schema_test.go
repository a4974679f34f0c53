package scenario

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSchemaHasTheFieldsParseAccepts(t *testing.T) {
	s := Schema()
	step := s.Props["spec"].Props["steps"].Items
	for _, f := range stepFields {
		assert.Contains(t, step.Props, f)
	}
	try := step.Props["try"].Items
	for _, op := range tryOps {
		require.Contains(t, try.Props, op)
		for _, f := range opFields[op] {
			assert.Contains(t, try.Props[op].Props, f, op)
		}
	}
	assert.NotContains(t, step.Props["finally"].Items.Props, OpApply, "apply is not allowed in finally")
	assert.Contains(t, try.Props[OpDelete].Props["ref"].Props, "kind")
}
