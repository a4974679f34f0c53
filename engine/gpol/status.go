package gpol

// Condition types and messages of Kyverno's policy-status controller
// (pkg/controllers/policystatus, reconcileConditions).
const (
	ConditionWebhookConfigured      = "WebhookConfigured"
	ConditionRBACPermissionsGranted = "RBACPermissionsGranted"

	MessageWebhookConfigured    = "Webhook configured."
	MessageWebhookNotConfigured = "Policy is not configured in the webhook."
	MessageRBACGranted          = "Policy is ready for reporting."
)

// StatusReady returns the status Kyverno's policy-status controller writes
// for a policy it rendered into the webhook configuration and whose
// resources the reports controller may get, list and watch:
// status.conditionStatus with WebhookConfigured then RBACPermissionsGranted,
// both True, and ready: true. A policy with admission disabled is never
// recorded by the webhook controller, so it gets RBACPermissionsGranted
// alone. now is the logical clock's RFC 3339 stamp (seconds).
func StatusReady(now string, admissionEnabled bool) map[string]any {
	cond := func(typ, msg string) any {
		return map[string]any{
			"lastTransitionTime": now,
			"message":            msg,
			"reason":             "Succeeded",
			"status":             "True",
			"type":               typ,
		}
	}
	var conds []any
	if admissionEnabled {
		conds = append(conds, cond(ConditionWebhookConfigured, MessageWebhookConfigured))
	}
	conds = append(conds, cond(ConditionRBACPermissionsGranted, MessageRBACGranted))
	return map[string]any{
		"conditionStatus": map[string]any{
			"conditions": conds,
			"ready":      true,
		},
	}
}
