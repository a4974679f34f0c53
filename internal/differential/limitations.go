//go:build !js

package differential

import (
	"encoding/base64"
	"strings"

	"github.com/genplay/genplay/engine/resource"
)

// A CLILimitation is a way Kyverno's CLI is not a faithful cluster: a case
// that shows it disagrees with genplay without genplay being wrong.
// docs/differential.md lists the same, with the evidence.
type CLILimitation struct {
	ID, Title string
	// Shows reports whether a disagreement is this limitation; nil means
	// only cases that declare the limitation are attributed to it.
	Shows func(c Case, genplay, kyverno Result) bool
}

// Limitations is the one list of the CLI's known limitations.
var Limitations = []CLILimitation{
	{ID: "defaulting", Title: "the CLI skips API-server defaulting (a Namespace's kubernetes.io/metadata.name label and status.phase, a Secret's stringData merged into data)",
		Shows: func(c Case, g, k Result) bool {
			d, _ := diffObjects(g.Objects, defaulted(k.Objects))
			return d == ""
		}},
	{ID: "api-validation", Title: "the CLI has no API server to refuse an object: non-string ConfigMap or Secret data, invalid names and label values, a namespace that does not exist",
		Shows: func(c Case, g, k Result) bool {
			return strings.Contains(g.Log, "could not create the downstream") && len(k.Objects) > len(g.Objects)
		}},
	{ID: "policy-aborts", Title: "the CLI drops every object of a policy for a trigger when one of its rules fails (handleGeneratePolicy returns the first error); a cluster processes each rule of the UpdateRequest on its own",
		Shows: func(c Case, g, k Result) bool {
			if !strings.Contains(k.Log, "failed to apply generate policy") {
				return false
			}
			d, _ := diffObjects(g.Objects, k.Objects)
			for _, line := range strings.Split(strings.TrimSpace(d), "\n") {
				if !strings.HasPrefix(line, "only genplay generated ") {
					return false
				}
			}
			return true
		}},
	{ID: "skipped-foreach", Title: "the CLI applies a foreach rule whose rule-level preconditions failed: handleGeneratePolicy applies every rule response, skipped ones too, and the foreach generator does not evaluate the rule's preconditions; a cluster queues only rules that passed",
		Shows: func(c Case, g, k Result) bool {
			d, _ := diffObjects(g.Objects, k.Objects)
			rules := foreachRulesWithPreconditions(c)
			kyverno := index(k.Objects)
			for _, line := range strings.Split(strings.TrimSpace(d), "\n") {
				ref, ok := strings.CutPrefix(line, "only Kyverno's CLI generated ")
				if !ok {
					return false
				}
				rule, _ := kyverno[ref].Label("generate.kyverno.io/rule-name")
				if !rules[rule] {
					return false
				}
			}
			return true
		}},
	{ID: "no-discovery", Title: "the CLI validates a policy without the cluster's discovery: it takes a generated Namespace for a namespaced kind and skips the policy (\"target namespace must be set for a namespaced resource\")"},
	{ID: "foreach-clone", Title: "the CLI cannot run a foreach clone: kyverno apply loads no clone source, and kyverno test fails every foreach generate rule (\"failed to get unstructured rule (Object 'Kind' is missing ...)\")"},
	{ID: "cluster-context", Title: "the CLI loads no configMap or apiCall context entry (its context loader has no client; kyverno test's clone sources are not read by it): the variable is an unknown key"},
	{ID: "cli-request", Title: "the CLI builds no admission request: its context has request.object, request.operation (CREATE) and request.namespace, but no request.name, request.kind or the rest of an AdmissionRequest"},
	{ID: "cli-trigger-labels", Title: "the CLI's trigger has no uid and no creation by an API server: downstream labels that copy the trigger's uid or server fields differ"},
}

// foreachRulesWithPreconditions names the rules of a case's policies that
// generate with foreach and have rule-level preconditions.
func foreachRulesWithPreconditions(c Case) map[string]bool {
	out := map[string]bool{}
	pols, _ := objects("policy.yaml", c.Policy)
	for _, p := range pols {
		spec, _ := p["spec"].(map[string]any)
		rules, _ := spec["rules"].([]any)
		for _, r := range rules {
			m, _ := r.(map[string]any)
			gen, _ := m["generate"].(map[string]any)
			if _, ok := gen["foreach"]; ok && m["preconditions"] != nil {
				name, _ := m["name"].(string)
				out[name] = true
			}
		}
	}
	return out
}

func limitationByID(id string) *CLILimitation {
	for i := range Limitations {
		if Limitations[i].ID == id {
			return &Limitations[i]
		}
	}
	return nil
}

// explain returns the limitation a disagreement shows, or nil: the one the
// case declares, else the first whose Shows holds.
func explain(c Case, g, k Result) *CLILimitation {
	if c.Limitation != "" {
		return limitationByID(c.Limitation)
	}
	for i := range Limitations {
		if l := &Limitations[i]; l.Shows != nil && l.Shows(c, g, k) {
			return l
		}
	}
	return nil
}

// defaulted is objs with the API server's defaults that genplay's cluster
// models (engine/cluster's doc lists them) applied.
func defaulted(objs []resource.Object) []resource.Object {
	out := make([]resource.Object, len(objs))
	for i, o := range objs {
		o = o.DeepCopy()
		switch o.Kind() {
		case "Namespace":
			l := o.Labels()
			l["kubernetes.io/metadata.name"] = o.Name()
			o.SetLabels(l)
			if _, ok := o["status"].(map[string]any); !ok {
				o["status"] = map[string]any{"phase": "Active"}
			}
		case "Secret":
			if sd, ok := o["stringData"].(map[string]any); ok {
				data, _ := o["data"].(map[string]any)
				if data == nil {
					data = map[string]any{}
				}
				for k, v := range sd {
					if s, ok := v.(string); ok {
						data[k] = base64.StdEncoding.EncodeToString([]byte(s))
					}
				}
				o["data"] = data
				delete(o, "stringData")
			}
		}
		out[i] = o
	}
	return out
}
