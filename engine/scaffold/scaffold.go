package scaffold

import (
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/clitest"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/rbac"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// ScenarioFile is the file name a wrapped scenario is meant to be saved as.
const ScenarioFile = "chainsaw-test.yaml"

// Options are what Wrap may use besides the text.
type Options struct {
	// ReadFile reads a file a kyverno-test.yaml names, relative to the
	// test's folder. Nil: files are not read (the browser), and the notes
	// name the files the wrap needs.
	ReadFile func(name string) ([]byte, error)
}

// A Note says something about the wrap at a place of the input: a trigger
// that could not be derived and why, what was not evaluated, a file that
// is needed.
// Its JSON is {file, line, col, scenarioLine?, warning?, message}.
type Note struct {
	// Pos is the place in the input.
	Pos source.Pos
	// Line is the matching line of the scenario (0: none).
	Line int
	// Warning is true when the scenario will not show what the input asks
	// for (no trigger, a file missing); false for information.
	Warning bool
	Message string
}

type noteJSON struct {
	File         string `json:"file"`
	Line         int    `json:"line"`
	Col          int    `json:"col"`
	ScenarioLine int    `json:"scenarioLine,omitempty"`
	Warning      bool   `json:"warning,omitempty"`
	Message      string `json:"message"`
}

// MarshalJSON writes the note flat, the position's fields first.
func (n Note) MarshalJSON() ([]byte, error) {
	return json.Marshal(noteJSON{n.Pos.File, n.Pos.Line, n.Pos.Col, n.Line, n.Warning, n.Message})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (n *Note) UnmarshalJSON(b []byte) error {
	var j noteJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*n = Note{Pos: source.Pos{File: j.File, Line: j.Line, Col: j.Col}, Line: j.ScenarioLine, Warning: j.Warning, Message: j.Message}
	return nil
}

// String renders the note as file:line:col: message.
func (n Note) String() string {
	s := n.Pos.String() + ": " + n.Message
	if n.Warning {
		s = n.Pos.String() + ": warning: " + n.Message
	}
	return s
}

// Result is a wrapped scenario.
type Result struct {
	// Scenario is the chainsaw Test text.
	Scenario string `json:"scenario"`
	// Unchanged is true when the input was already a chainsaw Test.
	Unchanged bool `json:"unchanged,omitempty"`
	// Policies counts the policies wrapped, Triggers the triggers derived.
	Policies int    `json:"policies"`
	Triggers int    `json:"triggers"`
	Notes    []Note `json:"notes,omitempty"`
	// Needs lists the files of a kyverno-test.yaml that were not read.
	Needs []string `json:"needs,omitempty"`
}

// A File is a named input text.
type File struct {
	Name string
	Data []byte
}

// Wrap turns a file holding policies (or a kyverno-test.yaml) into a
// chainsaw Test scenario. Input that is already a chainsaw Test comes back
// unchanged. An error is returned, positioned, when the text does not parse
// or holds no policy to wrap.
func Wrap(file string, data []byte, opts Options) (*Result, error) {
	return WrapFiles([]File{{Name: file, Data: data}}, opts)
}

// WrapFiles is Wrap of several files, their documents taken in order.
func WrapFiles(files []File, opts Options) (*Result, error) {
	if len(files) == 0 {
		return &Result{Scenario: Template, Unchanged: true}, nil
	}
	for i := range files {
		if files[i].Name == "" {
			files[i].Name = "policy.yaml"
		}
	}
	w := &wrapper{file: files[0].Name, kinds: knownKinds()}
	var (
		inputs []input
		errs   source.Diagnostics
		empty  = true
	)
	for _, f := range files {
		docs, diags := source.Parse(f.Name, f.Data)
		if diags.HasErrors() {
			errs = append(errs, diags.Errors()...)
			continue
		}
		for _, d := range docs {
			empty = false
			obj, _ := d.Object()
			if obj.APIVersion() == scenario.APIVersion && obj.Kind() == "Test" {
				if len(files) > 1 {
					return nil, source.Errorf(d.Pos(), "a chainsaw Test is a scenario already: give it alone")
				}
				return &Result{Scenario: string(f.Data), Unchanged: true}, nil
			}
			if clitest.Is(obj) {
				more, err := w.cliTest(d, opts)
				if err != nil {
					return nil, err
				}
				inputs = append(inputs, more...)
				continue
			}
			if obj.APIVersion() == "v1" && obj.Kind() == "List" {
				// kubectl get ... -o json|yaml of several objects: their items.
				items, _ := obj["items"].([]any)
				for i := range items {
					if sub := d.Sub("items", i); sub != nil {
						inputs = append(inputs, input{doc: sub, data: f.Data})
					}
				}
				continue
			}
			inputs = append(inputs, input{doc: d, data: f.Data})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if empty {
		return nil, source.Errorf(source.Pos{File: w.file, Line: 1, Col: 1}, "the text is empty: paste a ClusterPolicy, Policy, GeneratingPolicy or NamespacedGeneratingPolicy")
	}
	return w.wrap(inputs)
}

// input is one document to wrap, with the text of its file.
type input struct {
	doc  *source.Document
	data []byte
	// resource marks a resource of a kyverno-test.yaml: a trigger, applied
	// after the policies (unless it is a clone source).
	resource bool
}

type wrapper struct {
	file  string
	kinds []cluster.KindInfo
	notes []Note
	needs []string
	// cli is true when the input is a kyverno-test.yaml: its resources are
	// the triggers.
	cli bool
}

func (w *wrapper) note(pos source.Pos, warning bool, format string, args ...any) {
	w.notes = append(w.notes, Note{Pos: pos, Warning: warning, Message: fmt.Sprintf(format, args...)})
}

// item is one object of the scenario: an input document or an object the
// wrap adds (a Namespace, a clone source, a trigger).
type item struct {
	obj resource.Object
	in  *input // nil for an added object
	// comment precedes the operation.
	comment string
}

// policyItem is one policy with what the wrap derived for it.
type policyItem struct {
	item
	legacy *policy.Policy
	cel    *gpol.Policy
	steps  []triggerStep
}

// triggerStep is one trigger and what it should generate.
type triggerStep struct {
	rule    string // the rule's name; "" for a GeneratingPolicy
	trigger *trigger
	asserts []resource.Object
	// pos is where the match is written (for the scenario line).
	pos source.Pos
}

func (w *wrapper) wrap(inputs []input) (*Result, error) {
	var (
		others    []item
		resources []item
		policies  []*policyItem
		errs      source.Diagnostics
	)
	for i := range inputs {
		in := &inputs[i]
		obj, ok := in.doc.Object()
		if !ok {
			errs = append(errs, source.Errorf(in.doc.Pos(), "expected a Kubernetes object (a mapping with apiVersion and kind)"))
			continue
		}
		if clean, dropped := withoutServerFields(obj); len(dropped) > 0 {
			// kubectl get -o yaml|json: what the API server set goes.
			obj = clean
			w.note(in.doc.Pos("metadata"), false, "%s %s: left out what the API server set (%s), which a create may not carry",
				obj.Kind(), obj.Name(), strings.Join(dropped, ", "))
		}
		switch {
		case policy.IsPolicy(obj):
			p, diags := policy.Parse(in.doc, obj)
			if diags.HasErrors() {
				errs = append(errs, diags.Errors()...)
				continue
			}
			if p.Kind == policy.KindPolicy && p.Namespace == "" {
				p.Namespace = "default"
			}
			policies = append(policies, &policyItem{item: item{obj: obj, in: in}, legacy: p})
		case gpol.IsPolicyKind(obj):
			p, diags := gpol.Parse(in.doc, obj)
			if diags.HasErrors() {
				errs = append(errs, diags.Errors()...)
				continue
			}
			if p.Namespaced() && p.Namespace == "" {
				p.Namespace = "default"
			}
			policies = append(policies, &policyItem{item: item{obj: obj, in: in}, cel: p})
		case obj.APIVersion() == "" || obj.Kind() == "":
			errs = append(errs, source.Errorf(in.doc.Pos(), "expected a Kubernetes object: apiVersion and kind are required"))
		case in.resource || w.cli:
			resources = append(resources, item{obj: obj, in: in})
		default:
			others = append(others, item{obj: obj, in: in})
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if len(policies) == 0 && len(w.needs) > 0 {
		return nil, needsError(w.file, w.needs)
	}
	if len(policies) == 0 {
		return nil, source.Errorf(source.Pos{File: w.file, Line: 1, Col: 1},
			"no policy to wrap: expected a kyverno.io ClusterPolicy or Policy, a policies.kyverno.io GeneratingPolicy or NamespacedGeneratingPolicy, a kyverno-test.yaml, or a chainsaw Test")
	}
	have := existing(append(others, resources...))
	sources := map[string]bool{}
	for _, p := range policies {
		if p.legacy != nil {
			for _, r := range p.legacy.Spec.Rules {
				if g := r.Generate; g != nil && g.Clone != nil {
					sources[key(g.Kind, g.Clone.Namespace, g.Clone.Name)] = true
				}
			}
		}
		if w.cli {
			continue // the test's resources are the triggers
		}
		if p.legacy != nil {
			w.deriveLegacy(p)
		} else {
			w.deriveCEL(p)
		}
	}
	// A test's clone sources go first; Namespaces lead the other resources.
	var after []item
	for _, it := range resources {
		if sources[key(it.obj.Kind(), it.obj.Namespace(), it.obj.Name())] {
			others = append(others, it)
		}
	}
	for _, ns := range []bool{true, false} {
		for _, it := range resources {
			if !sources[key(it.obj.Kind(), it.obj.Namespace(), it.obj.Name())] && (it.obj.Kind() == "Namespace") == ns {
				after = append(after, it)
			}
		}
	}
	// Objects the policies or triggers need that the input lacks: their
	// namespaces and clone sources, before the policies.
	needed := w.needed(policies, append(others, after...), have)
	res := &Result{Policies: len(policies), Needs: w.needs}
	for _, p := range policies {
		res.Triggers += len(p.steps)
	}
	text, lines := w.emit(policies, append(needed, others...), after)
	res.Scenario = text
	sortNotes(w.notes)
	for _, n := range w.notes {
		n.Line = lines.at(n.Pos)
		res.Notes = append(res.Notes, n)
	}
	if _, diags := scenario.Parse(ScenarioFile, []byte(text)); diags.HasErrors() {
		return nil, fmt.Errorf("internal error: the wrapped scenario does not parse: %w", diags.Errors())
	}
	return res, nil
}

// serverFields are the metadata fields the API server sets.
var serverFields = []string{"uid", "resourceVersion", "generation", "creationTimestamp", "deletionTimestamp",
	"deletionGracePeriodSeconds", "managedFields", "selfLink"}

// lastApplied is the annotation kubectl apply keeps the applied object in.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// withoutServerFields returns obj without what the API server set (an
// object as kubectl get prints it) and the fields it dropped; obj itself
// is not changed.
func withoutServerFields(obj resource.Object) (resource.Object, []string) {
	var dropped []string
	md, _ := obj["metadata"].(map[string]any)
	for _, f := range serverFields {
		if _, ok := md[f]; ok {
			dropped = append(dropped, "metadata."+f)
		}
	}
	ann, _ := md["annotations"].(map[string]any)
	if _, ok := ann[lastApplied]; ok {
		dropped = append(dropped, "the annotation "+lastApplied)
	}
	if _, ok := obj["status"]; ok {
		dropped = append(dropped, "status")
	}
	if len(dropped) == 0 {
		return obj, nil
	}
	clean := obj.DeepCopy()
	cmd := clean.Metadata()
	for _, f := range serverFields {
		delete(cmd, f)
	}
	if a, ok := cmd["annotations"].(map[string]any); ok {
		delete(a, lastApplied)
		if len(a) == 0 {
			delete(cmd, "annotations")
		}
	}
	delete(clean, "status")
	return clean, dropped
}

// existing indexes the input's objects by kind/namespace/name.
func existing(items []item) map[string]bool {
	have := map[string]bool{}
	for _, it := range items {
		have[key(it.obj.Kind(), it.obj.Namespace(), it.obj.Name())] = true
	}
	return have
}

func key(kind, namespace, name string) string { return kind + "/" + namespace + "/" + name }

func sortNotes(notes []Note) {
	sort.SliceStable(notes, func(i, j int) bool {
		a, b := notes[i].Pos, notes[j].Pos
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
}

// needed returns the Namespaces and clone sources the scenario needs that
// the input does not hold, in a fixed order.
func (w *wrapper) needed(policies []*policyItem, others []item, have map[string]bool) []item {
	var out []item
	add := func(obj resource.Object, comment string) {
		k := key(obj.Kind(), obj.Namespace(), obj.Name())
		if have[k] {
			return
		}
		have[k] = true
		out = append(out, item{obj: obj, comment: comment})
	}
	namespace := func(name, why string) {
		if name == "" || isSystemNamespace(name) {
			return
		}
		add(resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}, why)
	}
	for _, it := range others {
		if ns := it.obj.Namespace(); ns != "" {
			namespace(ns, "the namespace of "+it.obj.Kind()+" "+it.obj.Name())
		}
	}
	if role := w.permissions(policies, others); role != nil {
		add(role, "a default Kyverno install may not manage what the policies generate: this ClusterRole,\naggregated by its labels into the background controller's role (which creates them) and the\nadmission controller's (which must read what a synchronized rule generates), lets them")
	}
	for _, p := range policies {
		if ns := p.obj.Namespace(); ns != "" {
			namespace(ns, "the namespace of "+p.obj.Kind()+" "+p.obj.Name())
		}
		if p.cel != nil {
			for _, src := range celSources(p.cel) {
				namespace(src.Namespace(), "the namespace of the source")
				add(src, fmt.Sprintf("a placeholder: %s reads %s %s/%s, which the input does not hold", p.cel.Key(), src.Kind(), src.Namespace(), src.Name()))
			}
		}
		if p.legacy != nil {
			for _, src := range cloneSources(p.legacy) {
				namespace(src.Namespace(), "the namespace of the clone source")
				add(src, fmt.Sprintf("a placeholder clone source: %s clones %s %s/%s, which the input does not hold", p.legacy.Key(), src.Kind(), src.Namespace(), src.Name()))
			}
		}
	}
	return out
}

// permissions is a ClusterRole that grants Kyverno's background controller
// (and its admission controller, which Kyverno checks for a synchronized
// rule) what the policies generate and a default install does not grant
// (the check is engine/rbac's), or nil when none is needed or the input
// brings its own RBAC objects.
func (w *wrapper) permissions(policies []*policyItem, others []item) resource.Object {
	for _, it := range others {
		if it.obj.APIVersion() == "rbac.authorization.k8s.io/v1" {
			return nil
		}
	}
	type gk struct{ apiVersion, kind string }
	var targets []gk
	for _, p := range policies {
		if p.legacy != nil {
			for _, r := range p.legacy.Spec.Rules {
				if r.Generate == nil {
					continue
				}
				targets = append(targets, gk{r.Generate.APIVersion, r.Generate.Kind})
				for _, fe := range r.Generate.ForEach {
					targets = append(targets, gk{fe.APIVersion, fe.Kind})
				}
				if cl := r.Generate.CloneList; cl != nil {
					for _, k := range cl.Kinds {
						av, kind := "", k
						if i := strings.LastIndex(k, "/"); i >= 0 {
							av, kind = k[:i], k[i+1:]
						}
						targets = append(targets, gk{av, kind})
					}
				}
			}
		}
		for _, s := range p.steps {
			for _, a := range s.asserts {
				targets = append(targets, gk{a.APIVersion(), a.Kind()})
			}
		}
		if p.cel != nil {
			// A GeneratingPolicy that copies what it reads (a clone):
			// the kinds it reads are what it may write. Kyverno checks
			// no permission when it admits one; the API server refuses
			// the background controller's write (engine/rbac Authorize).
			for _, k := range w.celReads(p.cel) {
				targets = append(targets, gk{k.APIVersion(), k.Kind})
			}
		}
	}
	store := cluster.NewStore(cluster.NewClock())
	var rules []any
	seen := map[string]bool{}
	for _, t := range targets {
		k, ok := w.kind(t.apiVersion, t.kind)
		if !ok || seen[k.Group+"/"+k.Resource] {
			continue
		}
		seen[k.Group+"/"+k.Resource] = true
		probe := &policy.Policy{Kind: policy.KindClusterPolicy, Spec: policy.Spec{Rules: []policy.Rule{{Name: "probe",
			Generate: &policy.Generation{Target: policy.Target{APIVersion: k.APIVersion(), Kind: k.Kind}, Synchronize: true}}}}}
		if len(rbac.CheckGenerate(store, rbac.Chart, probe)) == 0 {
			continue
		}
		rules = append(rules, map[string]any{"apiGroups": []any{k.Group}, "resources": []any{k.Resource},
			"verbs": []any{"get", "list", "watch", "create", "update", "patch", "delete"}})
	}
	if len(rules) == 0 {
		return nil
	}
	return resource.Object{"apiVersion": "rbac.authorization.k8s.io/v1", "kind": "ClusterRole",
		"metadata": map[string]any{"name": "kyverno:background-controller:genplay-wrap",
			"labels": map[string]any{"rbac.kyverno.io/aggregate-to-background-controller": "true",
				"rbac.kyverno.io/aggregate-to-admission-controller": "true"}},
		"rules": rules}
}

// celRead finds the resources a CEL expression reads by name:
// resource.get("v1", "secrets", ...) and its List and Pascal forms.
var celRead = regexp.MustCompile(`resource\.(?:get|Get|list|List)\(\s*"([^"]*)"\s*,\s*"([a-z0-9.-]+)"`)

// celWrites finds the kinds an expression or a template names, for the
// permissions they may need: "kind": "Secret", "kind": dyn("Secret") or a
// template's kind: Secret.
var celWrites = regexp.MustCompile(`(?m)(?:["']kind["']\s*:\s*(?:dyn\(\s*)?["']|^\s*kind:\s*["']?)([A-Z][A-Za-z0-9]*)`)

// celReads are the kinds a GeneratingPolicy's variables and generate
// expressions read from the cluster or name.
func (w *wrapper) celReads(pol *gpol.Policy) []cluster.KindInfo {
	var texts []string
	for _, v := range pol.Spec.Variables {
		texts = append(texts, v.Expression.Text)
	}
	for _, g := range pol.Spec.Generate {
		if g.Expression != nil {
			texts = append(texts, g.Expression.Text)
		}
		if g.Template != nil {
			texts = append(texts, g.Template.Value.Text)
		}
	}
	var out []cluster.KindInfo
	for _, t := range texts {
		for _, m := range celWrites.FindAllStringSubmatch(t, -1) {
			if k, ok := w.kind("", m[1]); ok {
				out = append(out, k)
			}
		}
		for _, m := range celRead.FindAllStringSubmatch(t, -1) {
			g, v := resource.SplitAPIVersion(m[1])
			for _, k := range w.kinds {
				if k.Resource == m[2] && k.Group == g && k.Version == v {
					out = append(out, k)
				}
			}
		}
	}
	return out
}

func isSystemNamespace(name string) bool {
	switch name {
	case "default", "kube-node-lease", "kube-public", "kube-system", "kyverno":
		return true
	}
	return false
}

// celSources are placeholders for the ConfigMaps and Secrets a CEL policy
// reads with a literal resource.get.
func celSources(p *gpol.Policy) []resource.Object {
	var texts []string
	for _, v := range p.Spec.Variables {
		texts = append(texts, v.Expression.Text)
	}
	for _, g := range p.Spec.Generate {
		if g.Expression != nil {
			texts = append(texts, g.Expression.Text)
		}
	}
	var out []resource.Object
	for _, text := range texts {
		for _, m := range celList.FindAllStringSubmatch(text, -1) {
			kind := "ConfigMap"
			if m[1] == "secrets" {
				kind = "Secret"
			}
			out = append(out, placeholder(kind, m[2], "demo-source"))
		}
		for _, m := range celGet.FindAllStringSubmatch(text, -1) {
			kind := "ConfigMap"
			if m[1] == "secrets" {
				kind = "Secret"
			}
			out = append(out, placeholder(kind, m[2], m[3]))
		}
	}
	return out
}

// placeholder is a ConfigMap or Secret with one key.
func placeholder(kind, namespace, name string) resource.Object {
	obj := resource.Object{"apiVersion": "v1", "kind": kind, "metadata": map[string]any{"name": name, "namespace": namespace}}
	if kind == "Secret" {
		obj["type"] = "Opaque"
		obj["data"] = map[string]any{"example": "Y2xvbmVk"} // "cloned"
	} else {
		obj["data"] = map[string]any{"example": "cloned from " + namespace + "/" + name}
	}
	return obj
}

// cloneSources are placeholders for the static clone sources of kinds
// genplay can fill (ConfigMap, Secret).
func cloneSources(p *policy.Policy) []resource.Object {
	var out []resource.Object
	for _, r := range p.Spec.Rules {
		g := r.Generate
		if g != nil && g.CloneList != nil && g.CloneList.Namespace != "" && !hasVariable(g.CloneList.Namespace) {
			l, err := satisfy(g.CloneList.Selector, "cloneList selector")
			for _, k := range g.CloneList.Kinds {
				kind := k[strings.LastIndex(k, "/")+1:]
				if err != nil || kind != "ConfigMap" && kind != "Secret" {
					continue
				}
				obj := placeholder(kind, g.CloneList.Namespace, "demo-source")
				if len(l) > 0 {
					obj.Metadata()["labels"] = stringMap(l)
				}
				out = append(out, obj)
				break
			}
		}
		if g == nil || g.Clone == nil || hasVariable(g.Clone.Name) || hasVariable(g.Clone.Namespace) || g.Clone.Name == "" {
			continue
		}
		if (g.Kind != "ConfigMap" && g.Kind != "Secret") || g.Clone.Namespace == "" {
			continue
		}
		out = append(out, placeholder(g.Kind, g.Clone.Namespace, g.Clone.Name))
	}
	return out
}

func hasVariable(s string) bool { return strings.Contains(s, "{{") }

// knownKinds is the simulated cluster's table of built-in kinds.
func knownKinds() []cluster.KindInfo {
	return cluster.NewStore(cluster.NewClock()).Kinds()
}
