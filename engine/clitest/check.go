package clitest

import (
	"fmt"
	"strings"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/timeline"
)

// Check is a result checked on the cluster after the run: whether the rule
// generated anything for one resource (found by its trigger UID).
type Check struct {
	// Index is the result's index in the test's results.
	Index  int
	Result Result
	// Name is the resource, "name" or "namespace/name".
	Name string
	// Generates: the result is pass (else skip).
	Generates bool
}

// Verify checks the results against the cluster after the run, and says
// what did not hold.
func Verify(res *timeline.Result, checks []Check) []string {
	if len(res.Steps) == 0 {
		return nil
	}
	objs := res.Final().Objects()
	var problems []string
	for _, c := range checks {
		ns, name := splitName(c.Name, c.Result.Namespace)
		var trig resource.Object
		for _, o := range objs {
			if o.Kind() == c.Result.Kind && o.Name() == name && (ns == "" || o.Namespace() == ns || o.Namespace() == "" && ns == "default") {
				trig = o
				break
			}
		}
		if trig == nil {
			problems = append(problems, fmt.Sprintf("results[%d]: no %s %s among the resources", c.Index, c.Result.Kind, c.Name))
			continue
		}
		generated := generatedFor(objs, c.Result, trig)
		switch {
		case c.Generates && len(generated) == 0:
			problems = append(problems, fmt.Sprintf("results[%d]: expected pass, but rule %s/%s generated nothing for %s %s", c.Index, c.Result.Policy, c.Result.Rule, c.Result.Kind, c.Name))
		case !c.Generates && len(generated) > 0:
			problems = append(problems, fmt.Sprintf("results[%d]: expected skip, but rule %s/%s generated %s for %s %s", c.Index, c.Result.Policy, c.Result.Rule, strings.Join(generated, ", "), c.Result.Kind, c.Name))
		}
	}
	return problems
}

// generatedFor lists what the result's rule generated for trig, by
// Kyverno's labels.
func generatedFor(objs []resource.Object, r Result, trig resource.Object) []string {
	policyNamespace, policyName := "", r.Policy
	if a, b, ok := strings.Cut(r.Policy, "/"); ok {
		policyNamespace, policyName = a, b
	}
	var generated []string
	for _, o := range objs {
		l := o.Labels()
		if l[generate.LabelPolicyName] == policyName && l[generate.LabelPolicyNamespace] == policyNamespace &&
			l[generate.LabelRuleName] == r.Rule && l[generate.LabelTriggerUID] == trig.UID() {
			generated = append(generated, o.Ref().String())
		}
	}
	return generated
}

// splitName reads a results entry "namespace/name" or "name".
func splitName(s, namespace string) (ns, name string) {
	if a, b, ok := strings.Cut(s, "/"); ok {
		return a, b
	}
	return namespace, s
}
