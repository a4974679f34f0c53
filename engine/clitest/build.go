package clitest

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// Build turns t, read from file in fsys, into a chainsaw Test, with the
// checks Verify makes after the run; or says why it cannot be simulated
// (skip), or what is wrong with it (err).
func Build(fsys fs.FS, file string, t Test) (test *scenario.Test, checks []Check, skip string, err error) {
	b := &builder{t: t, files: Files{FS: fsys, Dir: path.Dir(file), read: new(int)}}
	if err := b.read(); err != nil {
		return nil, nil, "", err
	}
	if b.values, err = ReadValues(fsys, file, t); err != nil {
		if strings.Contains(err.Error(), "not simulated") {
			return nil, nil, err.Error(), nil
		}
		return nil, nil, "", err
	}
	b.index()
	for i, r := range t.Results {
		if skip, err := b.result(i, r); skip != "" || err != nil {
			return nil, nil, skip, err
		}
	}
	if skip := b.unsimulated(); skip != "" {
		return nil, nil, skip, nil
	}
	return b.scenario(file), b.post, "", nil
}

// builder builds the chainsaw Test of one CLI test.
type builder struct {
	t                                      Test
	files                                  Files
	policies, resources, sources, expected []scenario.Resource
	// generating are the names of the GeneratingPolicies; rules the rules
	// of the ClusterPolicies and Policies by "name/rule", and namespaced a
	// Policy's name to its namespace/name. Kyverno's CLI matches a result's
	// policy by the last segment of its name (commands/test/output.go), so
	// a namespaced Policy is "name" or "namespace/name" in results.
	generating map[string]bool
	rules      map[string]*policy.Rule
	namespaced map[string]string
	// asserts are the results' assert operations, post the checks made on
	// the cluster after the run.
	asserts []scenario.Operation
	post    []Check
	// values is the test's values file (nil without one).
	values *ValuesFile
}

// read reads the files the test names: its policies (with the exceptions,
// applied before the policies they refer to, as the CLI loads them
// together), its resources, and the objects of its Context file.
func (b *builder) read() error {
	var err error
	if b.policies, err = b.files.objectsOf(b.t.Policies); err != nil {
		return err
	}
	exceptions, err := b.files.objectsOf(b.t.Exceptions)
	if err != nil {
		return err
	}
	b.policies = append(b.policies, exceptions...)
	if b.resources, err = b.files.objectsOf(b.t.Resources); err != nil {
		return err
	}
	if b.t.Context == "" {
		return nil
	}
	ctxDocs, err := b.files.Objects(b.t.Context)
	if err != nil {
		return err
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
				b.sources = append(b.sources, scenario.Resource{Doc: d.Doc.Sub("spec", "resources", i), Object: resource.Object(m)})
			}
		}
	}
	return nil
}

// index finds the policies' generate rules and GeneratingPolicies.
func (b *builder) index() {
	b.generating = map[string]bool{}
	b.rules = map[string]*policy.Rule{}
	b.namespaced = map[string]string{}
	for _, p := range b.policies {
		if g, _, _ := strings.Cut(p.Object.APIVersion(), "/"); g == "policies.kyverno.io" && strings.HasSuffix(p.Object.Kind(), "GeneratingPolicy") {
			b.generating[p.Object.Name()] = true
		}
	}
	for _, p := range b.policies {
		if !policy.IsPolicy(p.Object) {
			continue
		}
		parsed, diags := policy.Parse(p.Doc, p.Object)
		if diags.HasErrors() || parsed == nil {
			continue
		}
		if parsed.Kind == policy.KindPolicy {
			ns := parsed.Namespace
			if ns == "" {
				ns = "default"
			}
			b.namespaced[parsed.Name] = ns + "/" + parsed.Name
		}
		for i := range parsed.Spec.Rules {
			b.rules[parsed.Name+"/"+parsed.Spec.Rules[i].Name] = &parsed.Spec.Rules[i]
		}
	}
}

// rule finds the generate rule result i names, or says why there is none.
func (b *builder) rule(i int, r *Result) (rule *policy.Rule, skip string, err error) {
	name := r.Policy[strings.LastIndex(r.Policy, "/")+1:]
	rule = b.rules[name+"/"+r.Rule]
	if rule != nil && b.namespaced[name] != "" {
		r.Policy = b.namespaced[name] // the Policy's downstreams carry its namespace
	}
	if r.IsGeneratingPolicy || b.generating[name] && r.Rule == "" {
		if !b.generating[name] {
			return nil, "", fmt.Errorf("results[%d]: no GeneratingPolicy %s among the policies", i, r.Policy)
		}
		r.Rule = "" // a GeneratingPolicy's downstreams carry no rule-name label
		return &policy.Rule{Generate: &policy.Generation{}}, "", nil
	}
	switch {
	case rule == nil && strings.HasPrefix(r.Rule, "autogen-"):
		return nil, fmt.Sprintf("results[%d] checks the autogen rule %s, which Kyverno derives from a validate, mutate or verifyImages rule: genplay simulates generate rules only", i, r.Rule), nil
	case rule == nil:
		return nil, "", fmt.Errorf("results[%d]: no rule %s in policy %s", i, r.Rule, r.Policy)
	case rule.Generate == nil:
		return nil, fmt.Sprintf("results[%d] checks the %s rule %s/%s: genplay simulates generate rules only", i, ruleType(rule), r.Policy, r.Rule), nil
	}
	return rule, "", nil
}

// result reads result i: its clone source, its expected downstream (an
// assert) and the checks of its resources.
func (b *builder) result(i int, r Result) (skip string, err error) {
	if _, skip, err := b.rule(i, &r); skip != "" || err != nil {
		return skip, err
	}
	if r.CloneSourceResource != "" {
		objs, err := b.files.Objects(r.CloneSourceResource)
		if err != nil {
			return "", err
		}
		b.sources = append(b.sources, objs...)
	}
	switch r.Result {
	case "pass":
		if r.GeneratedResource != "" {
			objs, err := b.files.Objects(r.GeneratedResource)
			if err != nil {
				return "", err
			}
			for i, o := range objs {
				defaultNamespace(o.Object)
				// The CLI compares the generated resource with the file as
				// it is: a value written "(( ... ))" (a template of a
				// GeneratingPolicy, kept) or "(expr)" is text there, not
				// one of chainsaw's expressions.
				objs[i].Object = resource.Object(literal(map[string]any(o.Object)).(map[string]any))
			}
			b.expected = append(b.expected, objs...)
			b.asserts = append(b.asserts, scenario.Operation{Type: scenario.OpAssert, Pos: b.t.Doc.Pos("results", i), Resources: objs})
		}
	case "skip":
	default:
		return fmt.Sprintf("results[%d] expects %q: for a generate rule genplay checks pass and skip", i, r.Result), nil
	}
	for _, name := range r.Resources {
		b.post = append(b.post, Check{Index: i, Result: r, Name: name, Generates: r.Result == "pass"})
	}
	return "", nil
}

// unsimulated says why a test whose results are readable still cannot be
// simulated.
func (b *builder) unsimulated() string {
	switch {
	case len(b.asserts) == 0 && len(b.post) == 0:
		return "the test has no results for generate rules"
	case b.t.UserInfo != "":
		return "the test sets userinfo (" + b.t.UserInfo + "), which genplay does not simulate"
	}
	return ""
}

// scenario is the chainsaw Test: the namespaces and clone sources, the
// policies, the resources, then the results' asserts.
func (b *builder) scenario(file string) *scenario.Test {
	for _, list := range [][]scenario.Resource{b.resources, b.sources} {
		for _, r := range list {
			defaultNamespace(r.Object)
		}
	}
	// The values file's namespaces exist first.
	if b.values != nil {
		for _, ns := range b.values.Namespaces {
			b.sources = append([]scenario.Resource{{Doc: b.t.Doc, Object: ns}}, b.sources...)
		}
	}
	// The CLI generates into namespaces that need not exist; a cluster
	// needs them, so they are created first, with the resources' own.
	nsOps := namespacesFor(append(append(append([]scenario.Resource{}, b.sources...), b.resources...), b.expected...), b.t.Doc)
	// The values file's namespaceSelector labels the namespaces it names.
	var namespaces []resource.Object
	for _, list := range [][]scenario.Resource{b.sources, b.resources} {
		for _, r := range list {
			namespaces = append(namespaces, r.Object)
		}
	}
	for _, op := range nsOps {
		for _, r := range op.Resources {
			namespaces = append(namespaces, r.Object)
		}
	}
	for _, name := range b.values.labelNamespaces(namespaces) {
		// A namespace that exists already (default): labelled by an apply.
		ns := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}
		b.values.labelNamespaces([]resource.Object{ns})
		nsOps = append(nsOps, scenario.Operation{Type: scenario.OpApply, Pos: b.t.Doc.Pos(), Resources: []scenario.Resource{{Doc: b.t.Doc, Object: ns}}})
	}
	apply := func(list []scenario.Resource) []scenario.Operation {
		var ops []scenario.Operation
		for _, r := range list {
			ops = append(ops, scenario.Operation{Type: scenario.OpApply, Pos: r.Pos(), Resources: []scenario.Resource{r}})
		}
		return ops
	}
	return &scenario.Test{
		Name: b.t.Name, File: file, Pos: b.t.Doc.Pos(), Namespace: "default",
		Steps: []scenario.Step{
			{Name: "namespaces and clone sources", Try: append(nsOps, apply(b.sources)...)},
			{Name: "policies", Try: apply(b.policies)},
			{Name: "resources", Try: apply(b.resources)},
			{Name: "results", Try: b.asserts},
		},
	}
}

// literal escapes the string values of v that an assertion would read as
// an expression, so that they compare as text (assert.Literal).
func literal(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = literal(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = literal(e)
		}
		return out
	case string:
		return assert.Literal(x)
	}
	return v
}

func ruleType(r *policy.Rule) string {
	for _, k := range []string{"validate", "mutate", "verifyImages"} {
		if _, ok := r.Raw[k]; ok {
			return k
		}
	}
	return "non-generate"
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
