package gpol

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStatusReadyHasTheConditionsTheStepTemplatesAssert(t *testing.T) {
	cond := func(typ, msg string) any {
		return map[string]any{"lastTransitionTime": "2026-01-01T00:00:05Z", "message": msg, "reason": "Succeeded", "status": "True", "type": typ}
	}
	assert.Equal(t, map[string]any{"conditionStatus": map[string]any{
		"conditions": []any{
			cond("WebhookConfigured", "Webhook configured."),
			cond("RBACPermissionsGranted", "Policy is ready for reporting."),
		},
		"ready": true,
	}}, StatusReady("2026-01-01T00:00:05Z", true))
}

func TestStatusReadyWithoutAdmissionHasNoWebhookCondition(t *testing.T) {
	st := StatusReady("2026-01-01T00:00:05Z", false)
	cs := st["conditionStatus"].(map[string]any)
	assert.Equal(t, true, cs["ready"])
	conds := cs["conditions"].([]any)
	if assert.Len(t, conds, 1) {
		assert.Equal(t, "RBACPermissionsGranted", conds[0].(map[string]any)["type"])
	}
}
