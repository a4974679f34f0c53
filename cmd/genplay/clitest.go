package main

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Kyverno CLI tests (kyverno-test.yaml, cli.kyverno.io/v1alpha1 Test) run as
// a chainsaw Test built from them: the namespaces the resources need, the
// clone sources, the policies and then the resources are applied to a fresh
// simulated cluster. Then each generate result is checked:
//   - pass: the rule generated something for each named resource (found by
//     Kyverno's trigger-uid label), and the generatedResource file, if any,
//     matches as a chainsaw assertion (so fields genplay adds, such as
//     Kyverno's labels, do not count; the CLI compares whole objects that
//     it generates without them);
//   - skip: the rule generated nothing for the named resources.
// Results for validate or mutate rules, result: fail, and variables or
// userinfo files are not simulated: such a test is skipped with the reason.

// cliTest is the part of a Kyverno CLI Test genplay reads.
type cliTest struct {
	Name       string
	Policies   []string
	Exceptions []string
	Resources  []string
	Results    []cliResult
	Variables  string
	UserInfo   string
	// Context is a cli.kyverno.io Context file: objects the CEL libraries
	// read (resource.get, resource.List) besides the cluster's.
	Context string
}

type cliResult struct {
	Policy, Rule, Kind, Namespace, Result  string
	Resources                              []string
	GeneratedResource, CloneSourceResource string
	PatchedResource                        string
	// IsGeneratingPolicy marks a result of a GeneratingPolicy, which has
	// no rules: policy names the policy.
	IsGeneratingPolicy bool
}

func (r cliResult) names() []string {
	return r.Resources
}

// runCLITest runs a Kyverno CLI test file.
func (st *suite) runCLITest(f testFile) []testOutcome {
	fsys := st.fsys
	data, err := fs.ReadFile(fsys, f.fsPath)
	if err != nil {
		return []testOutcome{{Path: f.display, Status: statusFail, Reason: err.Error()}}
	}
	docs, diags := source.Parse(f.fsPath, data)
	if diags.HasErrors() {
		return []testOutcome{{Path: f.display, Status: statusFail, Reason: "the test does not parse: " + firstLine(diags.Error())}}
	}
	var out []testOutcome
	for _, doc := range docs {
		m, ok := doc.Value.(map[string]any)
		if !ok || m["kind"] != "Test" {
			continue
		}
		ct := readCLITest(m)
		o := testOutcome{Path: f.display, Name: ct.Name, file: f}
		t, post, skip, err := buildCLIScenario(fsys, f, doc, ct)
		switch {
		case err != nil:
			o.Status, o.Reason = statusFail, err.Error()
		case skip != "":
			o.Status, o.Reason = statusSkip, skip
		default:
			// The Kyverno CLI checks no permissions and uses the exceptions the test names.
			res := engine.RunTest(t, engine.Options{Files: fsys, Permissions: engine.PermissionsUnchecked, Install: st.install,
				Families: families, PolicyExceptions: len(ct.Exceptions) > 0})
			o.timeline = res
			switch {
			case res.Skipped != "":
				o.Status, o.Reason = statusSkip, relativize(f, res.Skipped)
			case !res.Passed:
				o.Status = statusFail
				o.Reason, o.detail = failure(f, res)
			default:
				o.Status = statusPass
				if problems := checkTriggers(res, post); len(problems) > 0 {
					o.Status, o.Reason, o.detail = statusFail, problems[0], problems
				}
			}
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return []testOutcome{{Path: f.display, Status: statusFail, Reason: "no cli.kyverno.io/v1alpha1 Test in the file"}}
	}
	return out
}

func readCLITest(m map[string]any) cliTest {
	obj := resource.Object(m)
	ct := cliTest{Name: obj.Name()}
	if ct.Name == "" {
		ct.Name, _ = m["name"].(string)
	}
	ct.Policies = strings_(m["policies"])
	ct.Exceptions = strings_(m["exceptions"])
	ct.Resources = strings_(m["resources"])
	ct.Variables, _ = m["variables"].(string)
	ct.Context, _ = m["context"].(string)
	ct.UserInfo, _ = m["userinfo"].(string)
	if ct.UserInfo == "" {
		ct.UserInfo, _ = m["userInfo"].(string)
	}
	list, _ := m["results"].([]any)
	for _, x := range list {
		r, _ := x.(map[string]any)
		s := func(k string) string { v, _ := r[k].(string); return v }
		res := cliResult{Policy: s("policy"), Rule: s("rule"), Kind: s("kind"), Namespace: s("namespace"),
			Result: s("result"), GeneratedResource: s("generatedResource"), CloneSourceResource: s("cloneSourceResource"),
			PatchedResource: s("patchedResource"), Resources: strings_(r["resources"])}
		res.IsGeneratingPolicy, _ = r["isGeneratingPolicy"].(bool)
		if one := s("resource"); one != "" {
			res.Resources = append(res.Resources, one)
		}
		if res.Result == "" {
			res.Result = s("status")
		}
		ct.Results = append(ct.Results, res)
	}
	return ct
}

func strings_(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}

// cliReader reads the files a CLI test names, relative to its folder.
type cliReader struct {
	fsys fs.FS
	dir  string
}

// objects reads every object of a file or of the YAML files of a folder.
func (c cliReader) objects(p string) ([]scenario.Resource, error) {
	if strings.Contains(p, "://") {
		return nil, fmt.Errorf("%s: URLs are not read; put the file next to the test", p)
	}
	full := path.Join(c.dir, p)
	if !fs.ValidPath(full) {
		return nil, fmt.Errorf("%s: outside the folder tests are read from", p)
	}
	info, err := fs.Stat(c.fsys, full)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	files := []string{full}
	if info.IsDir() {
		files = nil
		entries, err := fs.ReadDir(c.fsys, full)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml") {
				files = append(files, path.Join(full, e.Name()))
			}
		}
	}
	var out []scenario.Resource
	for _, fp := range files {
		data, err := fs.ReadFile(c.fsys, fp)
		if err != nil {
			return nil, err
		}
		docs, diags := source.Parse(fp, data)
		if diags.HasErrors() {
			return nil, fmt.Errorf("%s: %s", p, firstLine(diags.Error()))
		}
		for _, d := range docs {
			m, ok := d.Value.(map[string]any)
			if !ok {
				continue
			}
			obj := resource.Object(m)
			if obj.Kind() == "List" {
				return nil, fmt.Errorf("%s: List documents are not read", p)
			}
			if obj.Kind() == "" || obj.APIVersion() == "" {
				continue
			}
			out = append(out, scenario.Resource{Doc: d, Object: obj})
		}
	}
	return out, nil
}

// buildCLIScenario turns a CLI test into a chainsaw Test, or says why it
// cannot be simulated.
func buildCLIScenario(fsys fs.FS, f testFile, doc *source.Document, ct cliTest) (*scenario.Test, []triggerCheck, string, error) {
	rd := cliReader{fsys: fsys, dir: path.Dir(f.fsPath)}
	var policies, resources, sources []scenario.Resource
	for _, p := range ct.Policies {
		objs, err := rd.objects(p)
		if err != nil {
			return nil, nil, "", err
		}
		policies = append(policies, objs...)
	}
	for _, p := range ct.Exceptions {
		objs, err := rd.objects(p)
		if err != nil {
			return nil, nil, "", err
		}
		policies = append(policies, objs...) // applied before the policies they refer to, as the CLI loads them together
	}
	for _, p := range ct.Resources {
		objs, err := rd.objects(p)
		if err != nil {
			return nil, nil, "", err
		}
		resources = append(resources, objs...)
	}
	if ct.Context != "" {
		ctxDocs, err := rd.objects(ct.Context)
		if err != nil {
			return nil, nil, "", err
		}
		for _, d := range ctxDocs {
			if d.Object.Kind() != "Context" {
				continue
			}
			list, _ := d.Object.Nested("spec", "resources")
			items, _ := list.([]any)
			for i, it := range items {
				if m, ok := it.(map[string]any); ok {
					// The objects the CLI's fake API serves: clone sources here.
					sources = append(sources, scenario.Resource{Doc: d.Doc.Sub("spec", "resources", i), Object: resource.Object(m)})
				}
			}
		}
	}
	var generatedObjs []scenario.Resource
	generating := map[string]bool{}
	for _, p := range policies {
		if g, _, _ := strings.Cut(p.Object.APIVersion(), "/"); g == "policies.kyverno.io" && strings.HasSuffix(p.Object.Kind(), "GeneratingPolicy") {
			generating[p.Object.Name()] = true
		}
	}
	// The rules the results name, from the policies: a ClusterPolicy by
	// its name, a namespaced Policy by namespace/name, as Kyverno's CLI
	// names them.
	rules := map[string]*policy.Rule{}
	namespaced := map[string]string{} // a Policy's name: its namespace/name
	for _, p := range policies {
		if !policy.IsPolicy(p.Object) {
			continue
		}
		parsed, diags := policy.Parse(p.Doc, p.Object)
		if diags.HasErrors() || parsed == nil {
			continue
		}
		name := parsed.Name
		if parsed.Kind == policy.KindPolicy {
			ns := parsed.Namespace
			if ns == "" {
				ns = "default"
			}
			name = ns + "/" + parsed.Name
			namespaced[parsed.Name] = name
		}
		for i := range parsed.Spec.Rules {
			rules[name+"/"+parsed.Spec.Rules[i].Name] = &parsed.Spec.Rules[i]
		}
	}
	var checks []scenario.Operation
	var post []triggerCheck
	for i, r := range ct.Results {
		pos := doc.Pos("results", i)
		rule := rules[r.Policy+"/"+r.Rule]
		if r.IsGeneratingPolicy || generating[r.Policy] && r.Rule == "" {
			if !generating[r.Policy] {
				return nil, nil, "", fmt.Errorf("results[%d]: no GeneratingPolicy %s among the policies", i, r.Policy)
			}
			r.Rule = "" // a GeneratingPolicy's downstreams carry no rule-name label
			rule = &policy.Rule{Generate: &policy.Generation{}}
		}
		if rule == nil && strings.HasPrefix(r.Rule, "autogen-") {
			return nil, nil, fmt.Sprintf("results[%d] checks the autogen rule %s, which Kyverno derives from a validate, mutate or verifyImages rule: genplay simulates generate rules only", i, r.Rule), nil
		}
		if rule == nil && namespaced[r.Policy] != "" && rules[namespaced[r.Policy]+"/"+r.Rule] != nil {
			return nil, nil, "", fmt.Errorf("results[%d]: no policy %s: the namespaced Policy is named %s in results, as Kyverno's CLI requires", i, r.Policy, namespaced[r.Policy])
		}
		if rule == nil {
			return nil, nil, "", fmt.Errorf("results[%d]: no rule %s in policy %s", i, r.Rule, r.Policy)
		}
		if rule.Generate == nil {
			return nil, nil, fmt.Sprintf("results[%d] checks the %s rule %s/%s: genplay simulates generate rules only", i, ruleType(rule), r.Policy, r.Rule), nil
		}
		if r.CloneSourceResource != "" {
			objs, err := rd.objects(r.CloneSourceResource)
			if err != nil {
				return nil, nil, "", err
			}
			sources = append(sources, objs...)
		}
		switch r.Result {
		case "pass":
			if r.GeneratedResource != "" {
				objs, err := rd.objects(r.GeneratedResource)
				if err != nil {
					return nil, nil, "", err
				}
				for _, o := range objs {
					defaultNamespace(o.Object)
				}
				generatedObjs = append(generatedObjs, objs...)
				checks = append(checks, scenario.Operation{Type: scenario.OpAssert, Pos: pos, Resources: objs})
			}
			for _, name := range r.names() {
				post = append(post, triggerCheck{index: i, result: r, name: name, generates: true})
			}
		case "skip":
			for _, name := range r.names() {
				post = append(post, triggerCheck{index: i, result: r, name: name})
			}
		default:
			return nil, nil, fmt.Sprintf("results[%d] expects %q: for a generate rule genplay checks pass and skip", i, r.Result), nil
		}
	}
	if len(checks) == 0 && len(post) == 0 {
		return nil, nil, "the test has no results for generate rules", nil
	}
	if ct.Variables != "" {
		return nil, nil, "the test sets variables (" + ct.Variables + "): values that stand in for context and request data are not simulated; genplay computes them from the simulated cluster", nil
	}
	if ct.UserInfo != "" {
		return nil, nil, "the test sets userinfo (" + ct.UserInfo + "), which genplay does not simulate", nil
	}
	for _, r := range resources {
		if uid := r.Object.UID(); uid != "" {
			return nil, nil, "the resource " + r.Object.Ref().String() + " sets metadata.uid; the CLI keeps it, but genplay's API server assigns its own, so results that refer to it cannot match", nil
		}
	}
	for _, list := range [][]scenario.Resource{resources, sources} {
		for _, r := range list {
			defaultNamespace(r.Object)
		}
	}
	// The CLI generates into namespaces that need not exist; a cluster
	// needs them, so they are created first, with the resources' own.
	nsOps := namespacesFor(append(append(append([]scenario.Resource{}, sources...), resources...), generatedObjs...), doc)
	apply := func(list []scenario.Resource) []scenario.Operation {
		var ops []scenario.Operation
		for _, r := range list {
			ops = append(ops, scenario.Operation{Type: scenario.OpApply, Pos: r.Pos(), Resources: []scenario.Resource{r}})
		}
		return ops
	}
	t := &scenario.Test{
		Name: ct.Name, File: f.fsPath, Pos: doc.Pos(), Namespace: "default",
		Steps: []scenario.Step{
			{Name: "namespaces and clone sources", Try: append(nsOps, apply(sources)...)},
			{Name: "policies", Try: apply(policies)},
			{Name: "resources", Try: apply(resources)},
			{Name: "results", Try: checks},
		},
	}
	return t, post, "", nil
}

// triggerCheck is a result checked on the cluster after the run: whether
// the rule generated anything for one resource (found by its trigger UID).
type triggerCheck struct {
	index     int
	result    cliResult
	name      string
	generates bool
}

// checkTriggers checks results against the cluster after the run.
func checkTriggers(res *timeline.Result, checks []triggerCheck) []string {
	if len(res.Steps) == 0 {
		return nil
	}
	objs := res.Final().Objects()
	var problems []string
	for _, c := range checks {
		ns, name := splitName(c.name, c.result.Namespace)
		var trig resource.Object
		for _, o := range objs {
			if o.Kind() == c.result.Kind && o.Name() == name && (ns == "" || o.Namespace() == ns || o.Namespace() == "" && ns == "default") {
				trig = o
				break
			}
		}
		if trig == nil {
			problems = append(problems, fmt.Sprintf("results[%d]: no %s %s among the resources", c.index, c.result.Kind, c.name))
			continue
		}
		policyNamespace, policyName := "", c.result.Policy
		if a, b, ok := strings.Cut(c.result.Policy, "/"); ok {
			policyNamespace, policyName = a, b
		}
		var generated []string
		for _, o := range objs {
			l := o.Labels()
			if l[generate.LabelPolicyName] == policyName && l[generate.LabelPolicyNamespace] == policyNamespace &&
				l[generate.LabelRuleName] == c.result.Rule && l[generate.LabelTriggerUID] == trig.UID() {
				generated = append(generated, o.Ref().String())
			}
		}
		switch {
		case c.generates && len(generated) == 0:
			problems = append(problems, fmt.Sprintf("results[%d]: expected pass, but rule %s/%s generated nothing for %s %s", c.index, c.result.Policy, c.result.Rule, c.result.Kind, c.name))
		case !c.generates && len(generated) > 0:
			problems = append(problems, fmt.Sprintf("results[%d]: expected skip, but rule %s/%s generated %s for %s %s", c.index, c.result.Policy, c.result.Rule, strings.Join(generated, ", "), c.result.Kind, c.name))
		}
	}
	return problems
}

func ruleType(r *policy.Rule) string {
	for _, k := range []string{"validate", "mutate", "verifyImages"} {
		if _, ok := r.Raw[k]; ok {
			return k
		}
	}
	return "non-generate"
}

// splitName reads a results entry "namespace/name" or "name".
func splitName(s, namespace string) (ns, name string) {
	if a, b, ok := strings.Cut(s, "/"); ok {
		return a, b
	}
	return namespace, s
}

// defaultNamespace puts a namespaced object without a namespace in
// "default", as the CLI does. Kinds genplay does not know keep none.
func defaultNamespace(obj resource.Object) {
	if obj.Namespace() != "" || clusterScoped[obj.Kind()] {
		return
	}
	obj.Metadata()["namespace"] = "default"
}

// clusterScoped are the cluster-scoped kinds a CLI test commonly holds.
var clusterScoped = map[string]bool{
	"Namespace": true, "ClusterRole": true, "ClusterRoleBinding": true, "ClusterPolicy": true,
	"CustomResourceDefinition": true, "Node": true, "PersistentVolume": true, "StorageClass": true,
	"PriorityClass": true, "IngressClass": true, "ValidatingWebhookConfiguration": true,
	"MutatingWebhookConfiguration": true, "RuntimeClass": true, "CertificateSigningRequest": true,
}

// namespacesFor creates the namespaces the objects live in (the CLI needs
// no cluster, so a test never creates them) unless the test does.
func namespacesFor(objs []scenario.Resource, doc *source.Document) []scenario.Operation {
	declared := map[string]bool{"default": true}
	for _, o := range objs {
		if o.Object.Kind() == "Namespace" {
			declared[o.Object.Name()] = true
		}
	}
	need := map[string]bool{}
	for _, o := range objs {
		if ns := o.Object.Namespace(); ns != "" && !declared[ns] {
			need[ns] = true
		}
	}
	names := make([]string, 0, len(need))
	for n := range need {
		names = append(names, n)
	}
	sort.Strings(names)
	var ops []scenario.Operation
	for _, n := range names {
		ops = append(ops, scenario.Operation{Type: scenario.OpApply, Pos: doc.Pos(), Resources: []scenario.Resource{{Doc: doc,
			Object: resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": n}}}}})
	}
	return ops
}
