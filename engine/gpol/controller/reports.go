package controller

import (
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
)

// report writes the result of one rule context into the trigger's
// PolicyReport or ClusterPolicyReport (§3.12). Kyverno writes an
// EphemeralReport that its reports controller aggregates; genplay writes
// the aggregate directly. Triggers without a name or UID (subresources) and
// Events get no report.
func (f *Family) report(ev *evaluation, status, msg string, props map[string]string) {
	if status == "" {
		return
	}
	trig := ev.trig
	if ev.ur.admission != nil && ev.ur.admission.Operation == "DELETE" {
		return // the trigger is gone: its report goes with it (owner reference)
	}
	if trig.Name() == "" || trig.UID() == "" || trig.Kind() == "Event" {
		return
	}
	if _, known := f.store.KindInfo(trig.APIVersion(), trig.Kind()); !known {
		return
	}
	if ev.ur.admission != nil && ev.ur.admission.SubResource != "" {
		return
	}
	p := ev.e.p
	if _, disabled := p.Raw.Label("reports.kyverno.io/disabled"); disabled {
		return
	}
	properties := map[string]any{"process": "admission review"}
	for k, v := range props {
		if v != "" {
			properties[k] = v
		}
	}
	if status == resultPass && len(ev.generated) > 0 {
		parts := make([]string, len(ev.generated))
		for i, g := range ev.generated {
			s := gvkString(g.GVK()) + " Name=" + g.Name()
			if g.Namespace() != "" {
				s += " Namespace=" + g.Namespace()
			}
			parts[i] = s
		}
		properties["generated-resources"] = strings.Join(parts, "; ")
	}
	rule := p.Name
	if _, ok := props["exceptions"]; ok {
		rule = "exception"
	}
	policyName := urKey(p)
	result := map[string]any{
		"source": "KyvernoGeneratingPolicy", "policy": policyName, "rule": rule, "result": status,
		"message": msg, "properties": properties, "scored": true,
		"timestamp": map[string]any{"seconds": float64(f.core.Clock().Now().Unix()), "nanos": float64(0)},
	}
	if a, ok := p.Raw.Annotation("policies.kyverno.io/scored"); ok && a == "false" {
		result["scored"] = false
	}
	if s, ok := p.Raw.Annotation("policies.kyverno.io/severity"); ok {
		result["severity"] = s
	}
	if c, ok := p.Raw.Annotation("policies.kyverno.io/category"); ok {
		result["category"] = c
	}
	f.writeReport(trig, result)
}

// gvkString is schema.GroupVersionKind.String(): "/v1, Kind=ConfigMap".
func gvkString(g resource.GVK) string {
	return g.Group + "/" + g.Version + ", Kind=" + g.Kind
}

// writeReport merges one result into the trigger's report: a later result
// of the same policy replaces the earlier one.
func (f *Family) writeReport(trig resource.Object, result map[string]any) {
	kind, apiVersion := "ClusterPolicyReport", "wgpolicyk8s.io/v1alpha2"
	if trig.Namespace() != "" {
		kind = "PolicyReport"
	}
	ref := resource.Ref{APIVersion: apiVersion, Kind: kind, Namespace: trig.Namespace(), Name: trig.UID()}
	scope := map[string]any{"apiVersion": trig.APIVersion(), "kind": trig.Kind(), "name": trig.Name(), "uid": trig.UID()}
	if trig.Namespace() != "" {
		scope["namespace"] = trig.Namespace()
	}
	var results []any
	live, err := f.store.Get(ref)
	if err == nil {
		old, _ := live["results"].([]any)
		for _, r := range old {
			m, _ := r.(map[string]any)
			if m["policy"] == result["policy"] && m["source"] == result["source"] {
				continue
			}
			results = append(results, r)
		}
	}
	results = append(results, result)
	sort.SliceStable(results, func(i, j int) bool {
		a, _ := results[i].(map[string]any)["policy"].(string)
		b, _ := results[j].(map[string]any)["policy"].(string)
		return a < b
	})
	summary := map[string]any{"pass": float64(0), "fail": float64(0), "warn": float64(0), "error": float64(0), "skip": float64(0)}
	for _, r := range results {
		s, _ := r.(map[string]any)["result"].(string)
		if n, ok := summary[s].(float64); ok {
			summary[s] = n + 1
		}
	}
	md := map[string]any{
		"name":            ref.Name,
		"labels":          map[string]any{generate.LabelManagedBy: generate.ValueKyverno},
		"ownerReferences": []any{map[string]any{"apiVersion": trig.APIVersion(), "kind": trig.Kind(), "name": trig.Name(), "uid": trig.UID()}},
	}
	if trig.Namespace() != "" {
		md["namespace"] = trig.Namespace()
	}
	obj := resource.Object{"apiVersion": apiVersion, "kind": kind, "metadata": md, "scope": scope, "results": results, "summary": summary}
	kyverno := admission.UserInfo{Username: admission.ReportsUser}
	if err == nil {
		md["resourceVersion"] = live.ResourceVersion()
		_, _ = f.core.Update(kyverno, obj)
		return
	}
	_, _ = f.core.Create(kyverno, obj)
}
