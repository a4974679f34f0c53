package clitest

import (
	"fmt"
	"io/fs"
	"path"
	"sort"

	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// ValuesFile is a test's values file (variables:, cli.kyverno.io/v1alpha1
// Values, or the older form without apiVersion and kind) as Kyverno's CLI
// uses it: Values for the rules' evaluation (globalValues, each policy's
// values per resource and per rule), and the labels (namespaceSelector) and
// Namespace objects (namespaces) of the namespaces the CLI pretends exist.
type ValuesFile struct {
	Values *generate.Values
	// Labels are namespaceSelector's labels by namespace name; Namespaces
	// the namespaces: objects.
	Labels     map[string]map[string]string
	Namespaces []resource.Object
}

// ReadValues reads the values file a test names (nil when it names none).
func ReadValues(fsys fs.FS, file string, t Test) (*ValuesFile, error) {
	if t.Variables == "" {
		return nil, nil
	}
	full := path.Join(path.Dir(file), t.Variables)
	if !fs.ValidPath(full) {
		return nil, fmt.Errorf("variables %s: outside the folder tests are read from", t.Variables)
	}
	data, err := fs.ReadFile(fsys, full)
	if err != nil {
		return nil, fmt.Errorf("variables: read %s: %w", t.Variables, err)
	}
	docs, diags := source.Parse(full, data)
	if diags.HasErrors() {
		return nil, fmt.Errorf("variables %s: %s", t.Variables, diags.Errors()[0].Message)
	}
	out := &ValuesFile{Values: &generate.Values{Global: map[string]any{}, Resources: map[string]map[string]map[string]any{},
		Rules: map[string]map[string]map[string]any{}}, Labels: map[string]map[string]string{}}
	for _, d := range docs {
		m, ok := d.Value.(map[string]any)
		if !ok {
			continue
		}
		if k, _ := m["kind"].(string); k != "" && k != "Values" {
			return nil, fmt.Errorf("variables %s: a %s, not a cli.kyverno.io/v1alpha1 Values", t.Variables, k)
		}
		if g, ok := m["globalValues"].(map[string]any); ok {
			for k, v := range g {
				out.Values.Global[k] = v
			}
		}
		for _, raw := range list(m["policies"]) {
			p, _ := raw.(map[string]any)
			name, _ := p["name"].(string)
			for _, r := range list(p["resources"]) {
				rm, _ := r.(map[string]any)
				rname, _ := rm["name"].(string)
				if vals, ok := rm["values"].(map[string]any); ok && rname != "" {
					if out.Values.Resources[name] == nil {
						out.Values.Resources[name] = map[string]map[string]any{}
					}
					out.Values.Resources[name][rname] = vals
				}
			}
			for _, r := range list(p["rules"]) {
				rm, _ := r.(map[string]any)
				rname, _ := rm["name"].(string)
				if _, ok := rm["foreachValues"]; ok {
					return nil, fmt.Errorf("variables %s: foreachValues (per foreach element) are not simulated", t.Variables)
				}
				if vals, ok := rm["values"].(map[string]any); ok && rname != "" {
					if out.Values.Rules[name] == nil {
						out.Values.Rules[name] = map[string]map[string]any{}
					}
					out.Values.Rules[name][rname] = vals
				}
			}
		}
		for _, raw := range list(m["namespaceSelector"]) {
			ns, _ := raw.(map[string]any)
			name, _ := ns["name"].(string)
			labels := map[string]string{}
			if l, ok := ns["labels"].(map[string]any); ok {
				for k, v := range l {
					labels[k] = fmt.Sprint(v)
				}
			}
			if name != "" {
				out.Labels[name] = labels
			}
		}
		for _, raw := range list(m["namespaces"]) {
			if o, ok := raw.(map[string]any); ok {
				obj := resource.Object(o)
				if obj.APIVersion() == "" {
					obj["apiVersion"] = "v1"
				}
				if obj.Kind() == "" {
					obj["kind"] = "Namespace"
				}
				out.Namespaces = append(out.Namespaces, obj)
			}
		}
		if _, ok := m["subresources"]; ok {
			return nil, fmt.Errorf("variables %s: subresources are not simulated", t.Variables)
		}
	}
	return out, nil
}

func list(v any) []any {
	l, _ := v.([]any)
	return l
}

// labelNamespaces puts namespaceSelector's labels on the namespaces among
// objs, and returns the names it labels that are not among them, sorted.
func (vf *ValuesFile) labelNamespaces(objs []resource.Object) []string {
	if vf == nil {
		return nil
	}
	done := map[string]bool{}
	for _, o := range objs {
		if o.Kind() != "Namespace" || o.APIVersion() != "v1" {
			continue
		}
		labels := vf.Labels[o.Name()]
		if len(labels) == 0 {
			continue
		}
		md := o.Metadata()
		l, _ := md["labels"].(map[string]any)
		if l == nil {
			l = map[string]any{}
		}
		keys := make([]string, 0, len(labels))
		for k := range labels {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			l[k] = labels[k]
		}
		md["labels"] = l
		done[o.Name()] = true
	}
	var rest []string
	for name, labels := range vf.Labels {
		if !done[name] && len(labels) > 0 {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	return rest
}
