package migrate

import (
	"fmt"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// TestResult is the conversion of the policies of a chainsaw Test.
type TestResult struct {
	// Test is a copy of the test whose ClusterPolicies and Policies are
	// replaced by their conversion, operation by operation: an apply of a
	// policy applies the GeneratingPolicies (and the kept policy), a delete
	// deletes them, an assert on the policy asserts they exist.
	Test *scenario.Test
	// Policies are the conversions, in the order the test first writes them.
	Policies []*Policy
	Findings []Finding
}

// Status is Full when every policy converted fully (None when no policy
// converted at all, or the test writes none).
func (r *TestResult) Status() string {
	var s []string
	for _, p := range r.Policies {
		s = append(s, p.Status)
	}
	return combine(s)
}

// ConvertTest converts the policies a chainsaw Test writes, for the latest
// Kyverno release. The Test is not changed.
func ConvertTest(t *scenario.Test) *TestResult { return ConvertTestFor(t, "") }

// ConvertTestFor is ConvertTest for Kyverno release kyverno ("" the latest).
func ConvertTestFor(t *scenario.Test, kyverno string) *TestResult {
	c := &testConv{byKey: map[string]*Policy{}, raw: map[string]resource.Object{}, seen: map[string]bool{}, kyverno: kyverno}
	out := *t
	out.Steps = make([]scenario.Step, len(t.Steps))
	for i, s := range t.Steps {
		s.Try = c.ops(s.Try)
		s.Catch = c.ops(s.Catch)
		s.Finally = c.ops(s.Finally)
		s.Cleanup = c.ops(s.Cleanup)
		out.Steps[i] = s
	}
	out.Catch = c.ops(t.Catch)
	SortFindings(c.res.Findings)
	c.res.Test = &out
	return &c.res
}

type testConv struct {
	kyverno string
	res     TestResult
	byKey   map[string]*Policy
	raw     map[string]resource.Object // the last full object written, for patches
	seen    map[string]bool            // findings reported once per policy version
}

func isWrite(op string) bool {
	return op == scenario.OpApply || op == scenario.OpCreate || op == scenario.OpUpdate || op == scenario.OpPatch
}

func (c *testConv) ops(ops []scenario.Operation) []scenario.Operation {
	if ops == nil {
		return nil
	}
	var out []scenario.Operation
	for _, op := range ops {
		switch {
		case op.Type == scenario.OpDelete && op.Ref != nil && isPolicyRef(op.Ref.APIVersion, op.Ref.Kind):
			key := policyKey(op.Ref.Kind, op.Ref.Namespace, op.Ref.Name)
			conv := c.byKey[key]
			if conv == nil {
				out = append(out, op)
				continue
			}
			for _, obj := range conv.Objects() {
				o := op
				ref := *op.Ref
				ref.APIVersion, ref.Kind, ref.Name = obj.APIVersion(), obj.Kind(), obj.Name()
				o.Ref = &ref
				out = append(out, o)
			}
		case len(op.Resources) > 0:
			o := op
			o.Resources = nil
			for _, res := range op.Resources {
				conv := c.resource(op.Type, res)
				if len(conv) != 1 || conv[0].Object.Kind() != res.Object.Kind() {
					// CEL expressions such as "(a && b)" would be read as
					// chainsaw's (jmespath) templating: a converted policy
					// is applied as written (template: false).
					o.Template = false
					if o.Type == scenario.OpPatch {
						o.Type = scenario.OpApply // the patched policy, converted whole
					}
				}
				o.Resources = append(o.Resources, conv...)
			}
			out = append(out, o)
		default:
			out = append(out, op)
		}
	}
	return out
}

func isPolicyRef(apiVersion, kind string) bool {
	return policy.IsPolicy(resource.Object{"apiVersion": apiVersion, "kind": kind})
}

func policyKey(kind, namespace, name string) string {
	if kind == policy.KindPolicy {
		return kind + "/" + namespace + "/" + name
	}
	return kind + "/" + name
}

// resource replaces one resource of an operation.
func (c *testConv) resource(opType string, res scenario.Resource) []scenario.Resource {
	if !policy.IsPolicy(res.Object) {
		return []scenario.Resource{res}
	}
	key := policyKey(res.Object.Kind(), res.Object.Namespace(), res.Object.Name())
	if isWrite(opType) {
		doc := res.Doc.Sub(res.Path...)
		obj := res.Object
		if opType == scenario.OpPatch && c.raw[key] != nil {
			// A patch of a policy: convert the patched policy (the
			// converted objects are then patched whole).
			obj = c.raw[key].DeepCopy()
			resource.MergePatch(obj, res.Object)
			doc = nil
		}
		p, diags := policy.Parse(doc, obj)
		if diags.HasErrors() || p == nil {
			return []scenario.Resource{res} // Kyverno rejects it as written: so it is run
		}
		conv, findings := ConvertPolicyFor(p, c.kyverno)
		fp := fmt.Sprint(obj)
		if !c.seen[fp] {
			c.seen[fp] = true
			c.res.Findings = append(c.res.Findings, findings...)
			if c.byKey[key] == nil {
				c.res.Policies = append(c.res.Policies, conv)
			}
		}
		c.byKey[key] = conv
		c.raw[key] = obj
		return objectsAsResources(conv, res)
	}
	conv := c.byKey[key]
	if conv == nil {
		return []scenario.Resource{res}
	}
	// assert and error: on the converted policies' existence.
	var out []scenario.Resource
	for _, obj := range conv.Objects() {
		ref := resource.Object{"apiVersion": obj.APIVersion(), "kind": obj.Kind(), "metadata": map[string]any{"name": obj.Name()}}
		if ns := obj.Namespace(); ns != "" {
			ref.Metadata()["namespace"] = ns
		}
		if obj.Kind() == res.Object.Kind() { // the kept policy: assert as written
			ref = res.Object
		}
		out = append(out, scenario.Resource{Doc: res.Doc, Path: res.Path, Object: ref})
	}
	return out
}

// objectsAsResources makes the converted objects resources of an
// operation, each with a document of its own so that diagnostics point
// into the converted YAML.
func objectsAsResources(conv *Policy, orig scenario.Resource) []scenario.Resource {
	var out []scenario.Resource
	add := func(y string, obj resource.Object) {
		docs, diags := source.Parse(fmt.Sprintf("converted %s", obj.Name()), []byte(y))
		if diags.HasErrors() || len(docs) != 1 {
			out = append(out, scenario.Resource{Doc: orig.Doc, Path: orig.Path, Object: obj})
			return
		}
		o, _ := docs[0].Object()
		out = append(out, scenario.Resource{Doc: docs[0], Object: o})
	}
	for _, r := range conv.Rules {
		if r.Object != nil {
			add(r.YAML, r.Object)
		}
	}
	if conv.Kept != nil {
		out = append(out, scenario.Resource{Doc: orig.Doc, Path: orig.Path, Object: conv.Kept})
	}
	if len(out) == 0 {
		// Nothing converted: the policy is left out of the converted run.
		return nil
	}
	return out
}

// IsPolicyKind reports whether a kind belongs to either family's policies.
func IsPolicyKind(kind string) bool {
	switch kind {
	case policy.KindClusterPolicy, policy.KindPolicy, gpol.KindGeneratingPolicy, gpol.KindNamespacedGeneratingPolicy:
		return true
	}
	return false
}
