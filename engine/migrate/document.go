package migrate

import (
	"fmt"

	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// ConvertTestDocument rewrites a chainsaw Test document with its inline
// policies converted, the way ConvertTest runs it: an operation on a
// ClusterPolicy or Policy becomes one operation per converted object
// (chainsaw's apply, assert and delete name one resource each), with
// template: false (CEL such as "(a && b)" would be read as chainsaw's
// templating). Policies in `file:` references are left as they are and
// reported. The result is YAML with sorted keys (the Test's comments are
// not kept).
func ConvertTestDocument(doc *source.Document) (string, *TestResult, error) {
	return ConvertTestDocumentFor(doc, "")
}

// ConvertTestDocumentFor is ConvertTestDocument for Kyverno release kyverno
// ("" the latest).
func ConvertTestDocumentFor(doc *source.Document, kyverno string) (string, *TestResult, error) {
	root, ok := doc.Value.(map[string]any)
	if !ok || root["apiVersion"] != scenario.APIVersion || root["kind"] != "Test" {
		return "", nil, fmt.Errorf("not a chainsaw Test")
	}
	c := &docConv{doc: doc, res: &TestResult{}, byKey: map[string]*Policy{}, raw: map[string]resource.Object{}, seen: map[string]bool{}, kyverno: kyverno}
	out := resource.Object(root).DeepCopy()
	spec, _ := out["spec"].(map[string]any)
	steps, _ := spec["steps"].([]any)
	for i, st := range steps {
		step, _ := st.(map[string]any)
		for _, list := range []string{"try", "catch", "finally", "cleanup"} {
			ops, ok := step[list].([]any)
			if !ok {
				continue
			}
			step[list] = c.ops(ops, []any{"spec", "steps", i, list})
		}
	}
	SortFindings(c.res.Findings)
	y, err := source.Marshal(map[string]any(out))
	if err != nil {
		return "", nil, err
	}
	return string(y), c.res, nil
}

type docConv struct {
	doc     *source.Document
	res     *TestResult
	byKey   map[string]*Policy
	raw     map[string]resource.Object
	seen    map[string]bool
	kyverno string
}

var opKinds = []string{scenario.OpApply, scenario.OpCreate, scenario.OpUpdate, scenario.OpPatch, scenario.OpAssert, scenario.OpError, scenario.OpDelete}

func (c *docConv) ops(ops []any, at []any) []any {
	var out []any
	for j, o := range ops {
		op, _ := o.(map[string]any)
		kind := ""
		for _, k := range opKinds {
			if _, ok := op[k]; ok {
				kind = k
			}
		}
		body, _ := op[kind].(map[string]any)
		if kind == "" || body == nil {
			out = append(out, o)
			continue
		}
		here := append(append([]any{}, at...), j, kind)
		if f, ok := body["file"].(string); ok && kind != scenario.OpDelete {
			c.res.Findings = append(c.res.Findings, Finding{Pos: c.doc.Pos(append(here, "file")...), Kind: Note,
				Message: fmt.Sprintf("the resources of %s are not rewritten here: convert the file with genplay migrate %s", f, f)})
			out = append(out, o)
			continue
		}
		if kind == scenario.OpDelete {
			ref, _ := body["ref"].(map[string]any)
			apiVersion, _ := ref["apiVersion"].(string)
			k, _ := ref["kind"].(string)
			if ref == nil || !isPolicyRef(apiVersion, k) {
				out = append(out, o)
				continue
			}
			ns, _ := ref["namespace"].(string)
			name, _ := ref["name"].(string)
			conv := c.byKey[policyKey(k, ns, name)]
			if conv == nil {
				out = append(out, o)
				continue
			}
			for _, obj := range conv.Objects() {
				cp := resource.Object(op).DeepCopy()
				r := cp[kind].(map[string]any)["ref"].(map[string]any)
				r["apiVersion"], r["kind"], r["name"] = obj.APIVersion(), obj.Kind(), obj.Name()
				out = append(out, map[string]any(cp))
			}
			continue
		}
		obj, _ := body["resource"].(map[string]any)
		if obj == nil || !policy.IsPolicy(resource.Object(obj)) {
			out = append(out, o)
			continue
		}
		res := scenario.Resource{Doc: c.doc, Path: append(here, "resource"), Object: resource.Object(obj)}
		objs := c.convert(kind, res)
		for _, x := range objs {
			cp := resource.Object(op).DeepCopy()
			b := cp[kind].(map[string]any)
			b["resource"] = map[string]any(x)
			b["template"] = false
			if kind == scenario.OpPatch && x.Kind() != obj["kind"] {
				delete(cp, kind) // the patched policy, converted whole
				cp[scenario.OpApply] = b
			}
			out = append(out, map[string]any(cp))
		}
	}
	return out
}

// convert is testConv.resource over the document: the objects that replace
// a policy in one operation.
func (c *docConv) convert(kind string, res scenario.Resource) []resource.Object {
	tc := &testConv{res: *c.res, byKey: c.byKey, raw: c.raw, seen: c.seen, kyverno: c.kyverno}
	rs := tc.resource(kind, res)
	*c.res = tc.res
	var out []resource.Object
	for _, r := range rs {
		out = append(out, r.Object)
	}
	return out
}
