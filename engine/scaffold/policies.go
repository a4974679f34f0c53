package scaffold

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// deriveLegacy derives a trigger and the expected downstreams for each
// generate rule of a ClusterPolicy or Policy.
func (w *wrapper) deriveLegacy(p *policyItem) {
	pol := p.legacy
	doc := pol.Source
	rules := 0
	for i := range pol.Spec.Rules {
		r := &pol.Spec.Rules[i]
		if r.Generate == nil {
			continue
		}
		rules++
		at := doc.Pos("spec", "rules", i, "match")
		t, err := deriveRule(r, w.kinds, pol.Namespace)
		if err != nil {
			w.note(at, true, "rule %s: no trigger derived: %v", r.Name, err)
			continue
		}
		if r.Preconditions != nil {
			w.note(doc.Pos("spec", "rules", i, "preconditions"), false,
				"rule %s: the trigger is derived from match alone; the preconditions are not evaluated here (when they are false for %s, the timeline says so)", r.Name, t.name)
		}
		step := triggerStep{rule: r.Name, trigger: t, pos: at}
		targets := []policy.Target{r.Generate.Target}
		if len(r.Generate.ForEach) > 0 {
			targets = targets[:0]
			for j, fe := range r.Generate.ForEach {
				targets = append(targets, fe.Target)
				if strings.Contains(fe.List, "request.object") {
					w.note(doc.Pos("spec", "rules", i, "generate", "foreach", j, "list"), true,
						"rule %s: the foreach list reads the trigger (%s): the derived trigger has no such field, so add it to the trigger in the scenario", r.Name, fe.List)
				}
			}
		}
		for j, tg := range targets {
			gpos := doc.Pos("spec", "rules", i, "generate")
			if len(r.Generate.ForEach) > 0 {
				gpos = doc.Pos("spec", "rules", i, "generate", "foreach", j)
			}
			if tg.CloneList != nil {
				w.note(gpos, false, "rule %s: cloneList copies what its selector selects in %s: the scenario asserts no downstream by name", r.Name, tg.CloneList.Namespace)
				continue
			}
			obj, ok := w.staticTarget(tg.APIVersion, tg.Kind, tg.Name, tg.Namespace, t, pol.Namespace)
			if !ok {
				w.note(gpos, false, "rule %s: the downstream's name or namespace is computed (%s/%s): the scenario asserts none, the timeline shows it", r.Name, tg.Namespace, tg.Name)
				continue
			}
			step.asserts = append(step.asserts, obj)
		}
		p.steps = append(p.steps, step)
	}
	if rules == 0 {
		w.note(doc.Pos("spec", "rules"), true, "%s has no generate rule: it is applied, and nothing is triggered", pol.Key())
	}
}

var requestVar = regexp.MustCompile(`\{\{\s*(request\.object\.metadata\.name|request\.object\.metadata\.namespace|request\.namespace)\s*\}\}`)

// resolve replaces the request variables the trigger determines; ok is
// false when other variables remain.
func resolve(s string, t *trigger) (string, bool) {
	out := requestVar.ReplaceAllStringFunc(s, func(m string) string {
		if requestVar.FindStringSubmatch(m)[1] == "request.object.metadata.name" {
			return t.name
		}
		if t.kind.Kind == "Namespace" {
			return "" // request.namespace of a Namespace: empty
		}
		return t.namespace
	})
	return out, !strings.Contains(out, "{{")
}

// staticTarget is the assert of a downstream whose identity the rule
// states (perhaps through the trigger's name and namespace).
func (w *wrapper) staticTarget(apiVersion, kind, name, namespace string, t *trigger, policyNS string) (resource.Object, bool) {
	name, ok1 := resolve(name, t)
	namespace, ok2 := resolve(namespace, t)
	if !ok1 || !ok2 || name == "" || kind == "" {
		return nil, false
	}
	if namespace == "" {
		namespace = policyNS
	}
	if k, ok := w.kind(apiVersion, kind); ok && !k.Namespaced {
		namespace = ""
	} else if ok && namespace == "" {
		return nil, false
	}
	meta := map[string]any{"name": name}
	if namespace != "" {
		meta["namespace"] = namespace
	}
	return resource.Object{"apiVersion": apiVersion, "kind": kind, "metadata": meta}, true
}

func (w *wrapper) kind(apiVersion, kind string) (cluster.KindInfo, bool) {
	g, v := resource.SplitAPIVersion(apiVersion)
	for _, k := range w.kinds {
		if k.Kind == kind && (apiVersion == "" || k.Group == g && k.Version == v) {
			return k, true
		}
	}
	return cluster.KindInfo{}, false
}

// deriveCEL derives the trigger of a GeneratingPolicy or
// NamespacedGeneratingPolicy and its downstreams where the generate entries
// state them.
func (w *wrapper) deriveCEL(p *policyItem) {
	pol := p.cel
	doc := pol.Source
	at := doc.Pos("spec", "matchConstraints")
	t, err := deriveCEL(pol, w.kinds)
	if err != nil {
		w.note(at, true, "%s: no trigger derived: %v", pol.Key(), err)
		return
	}
	for i, v := range pol.Spec.Variables {
		if triggerField.MatchString(v.Expression.Text) {
			w.note(doc.Pos("spec", "variables", i), true,
				"variable %s reads the trigger's data or spec: the derived trigger has none, so add the fields it reads to the trigger in the scenario", v.Name)
		}
	}
	for i, c := range pol.Spec.MatchConditions {
		w.note(doc.Pos("spec", "matchConditions", i), false,
			"match condition %s is not evaluated here: when it is false for the %s %s, nothing is generated (the timeline says so)", c.Name, t.kind.Kind, t.name)
	}
	step := triggerStep{trigger: t, pos: at}
	for i, g := range pol.Spec.Generate {
		gpos := doc.Pos("spec", "generate", i)
		objs, ok := w.celTargets(g, t, pol.Namespace)
		if !ok {
			w.note(gpos, false, "the downstream of generate[%d] is computed by CEL: the scenario asserts none, the timeline shows it", i)
			continue
		}
		step.asserts = append(step.asserts, objs...)
	}
	p.steps = append(p.steps, step)
}

func deriveCEL(pol *gpol.Policy, kinds []cluster.KindInfo) (*trigger, error) {
	mc := pol.Spec.MatchConstraints
	if mc == nil || len(mc.ResourceRules) == 0 {
		return nil, errors.New("matchConstraints has no resourceRules")
	}
	var reasons []string
	for _, rr := range mc.ResourceRules {
		t, err := deriveResourceRule(rr, mc, kinds, pol)
		if err != nil {
			reasons = append(reasons, err.Error())
			continue
		}
		return t, nil
	}
	return nil, errors.New(strings.Join(reasons, "; "))
}

func deriveResourceRule(rr gpol.ResourceRule, mc *gpol.MatchResources, kinds []cluster.KindInfo, pol *gpol.Policy) (*trigger, error) {
	t := &trigger{}
	switch {
	case slices.Contains(rr.Operations, "CREATE") || slices.Contains(rr.Operations, "*"):
	case slices.Contains(rr.Operations, "UPDATE"):
		t.update = true
		t.why = append(t.why, "operations [UPDATE]: the trigger is created, then updated")
	default:
		return nil, fmt.Errorf("the resource rule selects only %v requests: the wrap creates (and updates) triggers", rr.Operations)
	}
	found := false
	for _, res := range rr.Resources {
		if strings.Contains(res, "/") {
			continue
		}
		for _, g := range rr.APIGroups {
			for _, v := range rr.APIVersions {
				for _, k := range celCandidates(kinds, res) {
					if (g == "*" || g == k.Group) && (v == "*" || v == k.Version) && (res == "*" || res == k.Resource) &&
						(rr.Scope == "" || rr.Scope == "*" || (rr.Scope == "Namespaced") == k.Namespaced) {
						t.kind, found = k, true
						break
					}
				}
				if found {
					break
				}
			}
			if found {
				break
			}
		}
		if found {
			break
		}
	}
	if !found {
		return nil, fmt.Errorf("none of the resources %v (apiGroups %v, apiVersions %v) is a kind genplay knows (a subresource, or a custom resource: apply its CustomResourceDefinition and a trigger of your own)", rr.Resources, rr.APIGroups, rr.APIVersions)
	}
	t.why = append(t.why, fmt.Sprintf("kind %s (from resources %v)", t.kind.Kind, rr.Resources))
	defer namedNamespace(t)
	t.name = DefaultName
	if len(rr.ResourceNames) > 0 {
		t.name = rr.ResourceNames[0]
		t.why = append(t.why, "name "+t.name+" (from resourceNames)")
	}
	var err error
	if t.labels, err = satisfy(mc.ObjectSelector, "objectSelector"); err != nil {
		return nil, err
	}
	if t.nsLabels, err = satisfy(mc.NamespaceSelector, "namespaceSelector"); err != nil {
		return nil, err
	}
	switch {
	case t.kind.Kind == "Namespace":
		// Kubernetes matches a Namespace's own labels with the namespaceSelector.
		if err := mergeLabels(t.labels, t.nsLabels, "selector"); err != nil {
			return nil, err
		}
		t.nsLabels = nil
	case t.kind.Namespaced:
		t.namespace = "default"
		if pol.Namespaced() {
			t.namespace = pol.Namespace
		} else if len(t.nsLabels) > 0 {
			t.namespace = DefaultName
		}
	}
	if len(t.labels) > 0 {
		t.why = append(t.why, "labels that satisfy the selectors")
	}
	if len(t.nsLabels) > 0 {
		t.why = append(t.why, fmt.Sprintf("its namespace %s labelled to satisfy the namespaceSelector", t.namespace))
	}
	obj := t.object()
	op := "CREATE"
	if t.update {
		op, obj = "UPDATE", t.updated()
	}
	a := gpol.Attributes{Operation: op, Group: t.kind.Group, Version: t.kind.Version, Resource: t.kind.Resource,
		Kind: t.kind.GVK(), Name: t.name, Namespace: t.namespace, Object: obj, Namespaced: t.kind.Namespaced}
	if t.namespace != "" {
		a.NamespaceLabels = map[string]string{"kubernetes.io/metadata.name": t.namespace}
		maps.Copy(a.NamespaceLabels, t.nsLabels)
	} else if t.kind.Kind == "Namespace" {
		a.NamespaceLabels = map[string]string{"kubernetes.io/metadata.name": t.name}
		maps.Copy(a.NamespaceLabels, t.labels)
	}
	if ok, why := mc.Match(a); !ok {
		return nil, errors.New(why)
	}
	return t, nil
}

// celCandidates orders the known kinds for a resource: ConfigMap first for
// a wildcard, Kyverno's own kinds never for one.
func celCandidates(kinds []cluster.KindInfo, res string) []cluster.KindInfo {
	if res != "*" {
		return kinds
	}
	var out []cluster.KindInfo
	for _, k := range kinds {
		if k.Kind == "ConfigMap" {
			out = append(out, k)
		}
	}
	for _, k := range kinds {
		if k.Kind != "ConfigMap" && !isKyvernoGroup(k.Group) {
			out = append(out, k)
		}
	}
	return out
}

var (
	applyCall = regexp.MustCompile(`(?s)^\s*generator\.[Aa]pply\(\s*(object\.metadata\.(?:name|namespace)|"[a-z0-9.-]*"|'[a-z0-9.-]*')\s*,`)
	celKind   = regexp.MustCompile(`["']kind["']\s*:\s*["']([A-Za-z0-9]+)["']\s*[,}]`)
	celAPI    = regexp.MustCompile(`["']apiVersion["']\s*:\s*["']([A-Za-z0-9./-]+)["']\s*[,}]`)
	celName   = regexp.MustCompile(`["']name["']\s*:\s*["']([a-z0-9.-]+)["']\s*[,}]`)
	// triggerField is CEL that reads a trigger's data or spec.
	triggerField = regexp.MustCompile(`\bobject\.(data|spec)\b`)
	// celList is a resource.List of literal ConfigMaps or Secrets: clone sources.
	celList = regexp.MustCompile(`resource\.List\(\s*["']v1["']\s*,\s*["'](configmaps|secrets)["']\s*,\s*["']([a-z0-9.-]+)["']\s*\)`)
	// celGet is a resource.get of a literal ConfigMap or Secret: a clone source.
	celGet = regexp.MustCompile(`resource\.get\(\s*["']v1["']\s*,\s*["'](configmaps|secrets)["']\s*,\s*["']([a-z0-9.-]+)["']\s*,\s*["']([a-z0-9.-]+)["']\s*\)`)
)

// celTargets reads the downstream of a generate entry where it is stated:
// a template's documents with literal names, or a generator.apply of one
// literal object into the trigger's name or namespace or a literal one.
func (w *wrapper) celTargets(g gpol.Generation, t *trigger, policyNS string) ([]resource.Object, bool) {
	if g.Template != nil {
		if g.Template.Interpolate == gpol.InterpolateCEL && strings.Contains(g.Template.Value.Text, "((") {
			return nil, false
		}
		docs, diags := source.Parse("template", []byte(g.Template.Value.Text))
		if diags.HasErrors() || len(docs) == 0 {
			return nil, false
		}
		var out []resource.Object
		for _, d := range docs {
			o, _ := d.Object()
			ns := o.Namespace()
			if ns == "" {
				ns = policyNS
			}
			obj, ok := w.staticTarget(o.APIVersion(), o.Kind(), o.Name(), ns, t, policyNS)
			if !ok {
				return nil, false
			}
			out = append(out, obj)
		}
		return out, true
	}
	if g.Expression == nil {
		return nil, false
	}
	text := g.Expression.Text
	m := applyCall.FindStringSubmatch(text)
	kinds := celKind.FindAllStringSubmatch(text, -1)
	apis := celAPI.FindAllStringSubmatch(text, -1)
	names := celName.FindAllStringSubmatch(text, -1)
	if m == nil || len(kinds) != 1 || len(apis) != 1 || len(names) != 1 || strings.Count(text, "generator.") != 1 {
		return nil, false
	}
	var ns string
	switch arg := m[1]; arg {
	case "object.metadata.name":
		ns = t.name
	case "object.metadata.namespace":
		ns = t.namespace
	default:
		ns = strings.Trim(arg, `"'`)
	}
	obj, ok := w.staticTarget(apis[0][1], kinds[0][1], names[0][1], ns, t, policyNS)
	return []resource.Object{obj}, ok
}
