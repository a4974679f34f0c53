//go:build !js

package differential

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Result is what one engine generated for a case.
type Result struct {
	Objects []resource.Object // sorted by identity
	// Triggers maps each object's Ref (String) to the Kind/namespace/name
	// of the trigger it was generated for, where the engine knows it.
	Triggers map[string]string
	// Log says what went wrong or what the engine noted: genplay's failed,
	// skipped and note events, or the CLI's output.
	Log string
	Err error // the engine could not run the case at all
}

// RunGenplay runs a case in genplay's engine: the namespaces the case's
// objects live in, the sources, the policy, then each trigger, each an
// apply of its own, as the CLI would see them; the permission check is off,
// as the CLI checks none.
func RunGenplay(c Case) Result { return RunGenplayAt(c, "") }

// RunGenplayAt is RunGenplay simulating Kyverno release kyverno ("" the
// latest), the CLI's own release for a comparison.
func RunGenplayAt(c Case, kyverno string) Result {
	text, err := scenario(c)
	if err != nil {
		return Result{Err: err}
	}
	res := engine.Run(c.Name+".yaml", text, engine.Options{Permissions: engine.PermissionsUnchecked, KyvernoVersion: kyverno})
	var r Result
	for _, d := range res.Diagnostics {
		r.Log += fmt.Sprintf("%s:%d: %s\n", d.File, d.Line, d.Message)
	}
	for _, st := range res.Steps {
		if st.Error != "" {
			r.Log += fmt.Sprintf("step %q: %s\n", st.Summary, st.Error)
		}
		for _, e := range st.Events {
			if e.Action == timeline.ActionFailed || e.Action == timeline.ActionNote || e.Action == timeline.ActionSkipped || e.Action == timeline.ActionRejected {
				obj := ""
				if e.Object != nil {
					obj = " " + e.Object.String()
				}
				r.Log += fmt.Sprintf("%s %s%s: %s\n", e.Actor, e.Action, obj, e.Reason)
			}
		}
	}
	if len(res.Steps) == 0 {
		r.Err = fmt.Errorf("genplay ran no step: %s", r.Log)
		return r
	}
	names, _ := c.policyNames()
	cluster := res.Final().Objects()
	byUID := map[string]resource.Object{}
	for _, o := range cluster {
		byUID[o.UID()] = o
	}
	r.Triggers = map[string]string{}
	for _, o := range cluster {
		if p, ok := o.Label("generate.kyverno.io/policy-name"); ok && slices.Contains(names, p) {
			r.Objects = append(r.Objects, o)
			if uid, _ := o.Label("generate.kyverno.io/trigger-uid"); byUID[uid] != nil {
				t := byUID[uid]
				r.Triggers[o.Ref().String()] = t.Kind() + "/" + t.Namespace() + "/" + t.Name()
			}
		}
	}
	sortObjects(r.Objects)
	return r
}

// scenario is the case as a chainsaw Test.
func scenario(c Case) ([]byte, error) {
	pols, err := objects("policy.yaml", c.Policy)
	if err != nil {
		return nil, fmt.Errorf("policy.yaml: %w", err)
	}
	res, err := objects("resources.yaml", c.Resources)
	if err != nil {
		return nil, fmt.Errorf("resources.yaml: %w", err)
	}
	srcs, err := objects("sources.yaml", c.Sources)
	if err != nil {
		return nil, fmt.Errorf("sources.yaml: %w", err)
	}
	for _, o := range append(slices.Clone(res), srcs...) {
		if o.Namespace() == "" && !clusterScoped[o.Kind()] {
			o.Metadata()["namespace"] = "default" // as the CLI places them
		}
	}
	apply := func(objs []resource.Object) []any {
		ops := []any{}
		for _, o := range objs {
			ops = append(ops, map[string]any{"apply": map[string]any{"resource": map[string]any(o)}})
		}
		return ops
	}
	var setup []resource.Object
	for _, ns := range namespaces(c, append(append(slices.Clone(srcs), res...), pols...)) {
		setup = append(setup, resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns}})
	}
	setup = append(setup, srcs...)
	steps := []any{}
	if len(setup) > 0 {
		steps = append(steps, map[string]any{"name": "namespaces and sources", "try": apply(setup)})
	}
	steps = append(steps,
		map[string]any{"name": "policy", "try": apply(pols)},
		map[string]any{"name": "triggers", "try": apply(res)})
	test := map[string]any{
		"apiVersion": "chainsaw.kyverno.io/v1alpha1", "kind": "Test",
		"metadata": map[string]any{"name": c.Name},
		"spec":     map[string]any{"steps": steps},
	}
	return source.Marshal(test)
}

// namespaces are the namespaces a real cluster would need for the case
// (the CLI needs none): those of its objects, and those its policies
// generate into when the rule names one literally, less the ones the
// triggers create and the cluster's own.
func namespaces(c Case, objs []resource.Object) []string {
	declared := map[string]bool{"default": true, "kube-system": true, "kube-public": true, "kube-node-lease": true, "kyverno": true}
	for _, o := range objs {
		if o.Kind() == "Namespace" {
			declared[o.Name()] = true
		}
	}
	need := map[string]bool{}
	add := func(ns string) {
		if ns != "" && !declared[ns] && !hasVariable(ns) {
			need[ns] = true
		}
	}
	for _, o := range objs {
		add(o.Namespace())
		if o.Kind() == "ClusterPolicy" || o.Kind() == "Policy" {
			walk(o["spec"], func(k string, v any) {
				if s, ok := v.(string); ok && k == "namespace" {
					add(s)
				}
			})
		}
	}
	out := make([]string, 0, len(need))
	for ns := range need {
		out = append(out, ns)
	}
	sort.Strings(out)
	return out
}

func hasVariable(s string) bool { return strings.Contains(s, "{{") }

// walk calls f for every key and value of v, at any depth.
func walk(v any, f func(k string, v any)) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			f(k, e)
			walk(e, f)
		}
	case []any:
		for _, e := range t {
			walk(e, f)
		}
	}
}

// clusterScoped are the cluster-scoped kinds a case may hold.
var clusterScoped = map[string]bool{
	"Namespace": true, "ClusterRole": true, "ClusterRoleBinding": true, "ClusterPolicy": true,
	"StorageClass": true, "PriorityClass": true, "IngressClass": true,
}

func sortObjects(objs []resource.Object) {
	sort.Slice(objs, func(i, j int) bool { return objs[i].Ref().String() < objs[j].Ref().String() })
}
