package controller

import (
	"fmt"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// ProcessUpdateRequest implements generate.Family: it handles an UpdateRequest object someone other than
// Kyverno created: the background controller processes any UpdateRequest
// in its namespace. Each rule context names a trigger by UID; a trigger
// that does not exist with that UID fails the request (its status becomes
// Failed), otherwise the rule is applied and the completed request is
// deleted, as Kyverno does. Every UpdateRequest is this family's: one that
// names no ClusterPolicy or Policy fails.
func (c *Family) ProcessUpdateRequest(ur resource.Object) bool {
	c.processUserRequest(ur)
	return true
}

func (c *Family) processUserRequest(ur resource.Object) {
	spec, _ := ur["spec"].(map[string]any)
	name, _ := spec["policy"].(string)
	key := policy.KindClusterPolicy + "/" + name
	if ns, n, ok := cutNamespaced(name); ok {
		key = policy.KindPolicy + "/" + ns + "/" + n
	}
	p := c.policies.Get(key)
	ref := ur.Ref()
	fail := func(msg string) {
		upd := ur.DeepCopy()
		upd["status"] = map[string]any{"state": "Failed", "message": msg}
		if _, err := c.store.Update(upd); err == nil {
			c.core.Changed(ur, upd)
		}
		c.emit(timeline.ActorKyverno, timeline.ActionFailed, &ref, p, "", nil, "UpdateRequest failed: "+msg)
	}
	if p == nil {
		fail(fmt.Sprintf("policy %s not found", name))
		return
	}
	op := ""
	var req *admission.Request
	if ctx, ok := resource.Object(spec).Nested("context", "admissionRequestInfo"); ok {
		info, _ := ctx.(map[string]any)
		op, _ = info["operation"].(string)
		if ar, ok := info["admissionRequest"].(map[string]any); ok {
			req = &admission.Request{Operation: op}
			if o, ok := ar["object"].(map[string]any); ok && len(o) > 0 {
				req.Object = resource.Object(o)
			}
			if o, ok := ar["oldObject"].(map[string]any); ok && len(o) > 0 {
				req.OldObject = resource.Object(o)
			}
		}
	}
	contexts, _ := spec["ruleContext"].([]any)
	for _, raw := range contexts {
		rc, _ := raw.(map[string]any)
		rule, _ := rc["rule"].(string)
		tr, _ := rc["trigger"].(map[string]any)
		str := func(k string) string { s, _ := tr[k].(string); return s }
		g, v := resource.SplitAPIVersion(str("apiVersion"))
		t := trigger{GVK: resource.GVK{Group: g, Version: v, Kind: str("kind")}, Namespace: str("namespace"), Name: str("name"), UID: str("uid")}
		if op != admission.OpDelete && c.findByUID(t) == nil {
			fail(fmt.Sprintf("failed to get trigger resource: %s with uid %s not found", t.ref(), t.UID))
			return
		}
		urk := urGenerate
		if del, _ := rc["deleteDownstream"].(bool); del {
			urk = urDeleteDownstream
		}
		c.process(&updateRequest{kind: urk, policy: p, rule: rule, trigger: t, admission: req, cause: cause{kind: causeTriggerCreated}})
	}
	if err := c.core.Delete(kyverno, ref); err == nil {
		c.emit(timeline.ActorKyverno, timeline.ActionDeleted, &ref, p, "", nil, "the UpdateRequest completed, so Kyverno deleted it")
	}
}

// cutNamespaced splits "namespace/name", the form an UpdateRequest uses
// for a namespaced Policy.
func cutNamespaced(s string) (ns, name string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == '/' {
			return s[:i], s[i+1:], true
		}
	}
	return "", s, false
}
