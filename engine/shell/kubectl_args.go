package shell

import (
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// kubectlNames are kubectl's short names for the kinds genplay serves.
var kubectlNames = map[string]string{
	"cm": "configmaps", "ns": "namespaces", "po": "pods", "svc": "services", "sa": "serviceaccounts",
	"deploy": "deployments", "rs": "replicasets", "ds": "daemonsets", "sts": "statefulsets", "cj": "cronjobs",
	"pvc": "persistentvolumeclaims", "pv": "persistentvolumes", "netpol": "networkpolicies", "ing": "ingresses",
	"pdb": "poddisruptionbudgets", "cpol": "clusterpolicies", "pol": "policies", "ur": "updaterequests",
	"crd": "customresourcedefinitions", "crds": "customresourcedefinitions", "ev": "events", "limits": "limitranges",
	"quota": "resourcequotas", "no": "nodes", "ep": "endpoints", "sc": "storageclasses", "pc": "priorityclasses",
	"hpa": "horizontalpodautoscalers", "rc": "replicationcontrollers", "csr": "certificatesigningrequests",
	"polr": "policyreports", "cpolr": "clusterpolicyreports", "ccpol": "clustercleanuppolicies",
	"cleanpol": "cleanuppolicies", "polex": "policyexceptions", "updaterequest": "updaterequests",
}

// resolveType finds the kind a kubectl resource type names: "cm",
// "configmap", "configmaps", "ConfigMap", "deployments.apps".
func (r *runner) resolveType(t string) (cluster.KindInfo, bool) {
	name, group, hasGroup := strings.Cut(strings.ToLower(t), ".")
	if hasGroup {
		// TYPE.VERSION.GROUP
		if v, g, ok := strings.Cut(group, "."); ok && regexp.MustCompile(`^v\d`).MatchString(v) {
			group = g
		}
	}
	if full, ok := kubectlNames[name]; ok {
		name = full
	}
	for _, k := range r.s.Store().Kinds() {
		if hasGroup && k.Group != group {
			continue
		}
		if k.Resource == name || strings.ToLower(k.Kind) == name {
			return k, true
		}
	}
	return cluster.KindInfo{}, false
}

// target is an object named on kubectl's command line.
type target struct {
	info cluster.KindInfo
	name string
}

// targets reads "TYPE NAME..." or "TYPE/NAME..." from args; extra are the
// arguments left over (label's key=value pairs). A TYPE with no names
// yields one target with an empty name.
func (r *runner) targets(args []string, o *kubectlOutput) ([]target, []string, bool) {
	if len(args) == 0 {
		o.errorf("error: you must specify the type of resource to get")
		return nil, nil, false
	}
	var out []target
	if strings.Contains(args[0], "/") {
		i := 0
		for ; i < len(args) && strings.Contains(args[i], "/"); i++ {
			t, n, _ := strings.Cut(args[i], "/")
			info, ok := r.resolveType(t)
			if !ok {
				o.errorf("error: the server doesn't have a resource type %q", t)
				return nil, nil, false
			}
			out = append(out, target{info: info, name: n})
		}
		return out, args[i:], true
	}
	if strings.Contains(args[0], ",") {
		o.errorf("error: genplay does not simulate lists of resource types (%s)", args[0])
		return nil, nil, false
	}
	info, ok := r.resolveType(args[0])
	if !ok {
		o.errorf("error: the server doesn't have a resource type %q", args[0])
		return nil, nil, false
	}
	rest := args[1:]
	var names, extra []string
	for _, a := range rest {
		if strings.Contains(a, "=") || strings.HasSuffix(a, "-") && len(names) > 0 {
			extra = append(extra, a)
		} else {
			names = append(names, a)
		}
	}
	if len(names) == 0 {
		return []target{{info: info}}, extra, true
	}
	for _, n := range names {
		out = append(out, target{info: info, name: n})
	}
	return out, extra, true
}

func (r *runner) namespace(c *Command) string {
	if c.Namespace != "" {
		return c.Namespace
	}
	if r.contextNamespace != "" {
		return r.contextNamespace
	}
	return r.opts.Namespace
}

func (r *runner) refOf(c *Command, t target) resource.Ref {
	ref := resource.Ref{APIVersion: t.info.APIVersion(), Kind: t.info.Kind, Name: t.name}
	if t.info.Namespaced {
		ref.Namespace = r.namespace(c)
	}
	return ref
}

// typeName is how kubectl names an object in its messages: configmap/x,
// clusterpolicy.kyverno.io/x.
func typeName(info cluster.KindInfo, name string) string {
	s := strings.ToLower(info.Kind)
	if info.Group != "" {
		s += "." + info.Group
	}
	return s + "/" + name
}

func (r *runner) kindInfo(obj resource.Object) cluster.KindInfo {
	if info, ok := r.s.Store().KindInfo(obj.APIVersion(), obj.Kind()); ok {
		return info
	}
	g, v := resource.SplitAPIVersion(obj.APIVersion())
	return cluster.KindInfo{Group: g, Version: v, Kind: obj.Kind(), Resource: strings.ToLower(obj.Kind()) + "s"}
}

// manifests reads the objects of -f arguments ("-" and /dev/stdin read
// stdin), in order.
func (r *runner) manifests(c *Command, stdin string, o *kubectlOutput) ([]manifest, bool) {
	if len(c.Files) == 0 {
		o.errorf("error: must specify one of -f and -k")
		return nil, false
	}
	type input struct {
		name string
		data []byte
	}
	var inputs []input
	for _, f := range c.Files {
		if f == "-" || f == "/dev/stdin" {
			inputs = append(inputs, input{"STDIN", []byte(stdin)})
			continue
		}
		files, err := r.expandPath(f)
		if err != nil {
			o.errorf("error: the path %q does not exist", f)
			return nil, false
		}
		for _, p := range files {
			b, err := r.readFile(p)
			if err != nil {
				o.errorf("error: the path %q does not exist", p)
				return nil, false
			}
			inputs = append(inputs, input{p, b})
		}
	}
	var out []manifest
	for _, in := range inputs {
		name, data := in.name, in.data
		docs, diags := source.Parse(name, data)
		if diags.HasErrors() {
			o.errorf("error: error parsing %s: %v", name, diags.Err())
			return nil, false
		}
		for _, d := range docs {
			if d.Value == nil {
				continue
			}
			m, ok := d.Value.(map[string]any)
			if !ok {
				o.errorf("error: error parsing %s: not an object", name)
				return nil, false
			}
			obj := resource.Object(m)
			if obj.Kind() == "List" {
				items, _ := obj["items"].([]any)
				for _, it := range items {
					if im, ok := it.(map[string]any); ok {
						out = append(out, manifest{file: name, obj: resource.Object(im)})
					}
				}
				continue
			}
			if obj.APIVersion() == "" || obj.Kind() == "" {
				o.errorf("error: error validating %q: apiVersion and kind are required", name)
				return nil, false
			}
			out = append(out, manifest{file: name, obj: obj, doc: d})
		}
	}
	return out, true
}

type manifest struct {
	file string
	obj  resource.Object
	doc  *source.Document
}

// expandPath lists the files kubectl -f PATH reads: the file, or the
// YAML and JSON files of a folder (not recursively, as without -R).
func (r *runner) expandPath(p string) ([]string, error) {
	exists, dir, _ := r.scratch().Stat(p)
	if !exists {
		return nil, fs.ErrNotExist
	}
	if !dir {
		return []string{p}, nil
	}
	names, err := r.scratch().List(p)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, n := range names {
		f := path.Join(p, n)
		if ext := path.Ext(n); ext == ".yaml" || ext == ".yml" || ext == ".json" {
			if _, isDir, _ := r.scratch().Stat(f); !isDir {
				out = append(out, f)
			}
		}
	}
	return out, nil
}

// readFile reads a file of the scratch folder: what a script wrote, else
// the test's folder's.
func (r *runner) readFile(p string) ([]byte, error) {
	return r.scratch().Read(p)
}

// defaultNamespace puts a namespaced object without one in the command's
// namespace.
func (r *runner) defaultNamespace(c *Command, obj resource.Object) {
	if obj.Namespace() != "" {
		return
	}
	if namespaced, known := r.s.Store().Namespaced(obj.APIVersion(), obj.Kind()); namespaced || !known {
		obj.Metadata()["namespace"] = r.namespace(c)
	}
}

// manifestRefs names the objects of a command's -f manifests, in the
// command's namespace when they name none.
func (r *runner) manifestRefs(c *Command, stdin string, o *kubectlOutput) ([]resource.Ref, bool) {
	ms, ok := r.manifests(c, stdin, o)
	if !ok {
		return nil, false
	}
	refs := make([]resource.Ref, 0, len(ms))
	for _, m := range ms {
		obj := m.obj.DeepCopy()
		r.defaultNamespace(c, obj)
		refs = append(refs, obj.Ref())
	}
	return refs, true
}

// selector is a parsed -l label selector (equality-based and set-based
// existence).
type selector []func(map[string]string) bool

func parseSelector(s string) (selector, error) {
	var out selector
	if s == "" {
		return out, nil
	}
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		switch {
		case strings.Contains(part, " in ") || strings.Contains(part, " notin ") || strings.Contains(part, "("):
			return nil, &scenario.UnsupportedError{Reason: "uses the set-based label selector " + part}
		case strings.Contains(part, "!="):
			k, v, _ := strings.Cut(part, "!=")
			out = append(out, func(l map[string]string) bool { return l[strings.TrimSpace(k)] != strings.TrimSpace(v) })
		case strings.Contains(part, "="):
			k, v, _ := strings.Cut(part, "=")
			v = strings.TrimPrefix(v, "=")
			out = append(out, func(l map[string]string) bool {
				got, ok := l[strings.TrimSpace(k)]
				return ok && got == strings.TrimSpace(v)
			})
		case strings.HasPrefix(part, "!"):
			k := part[1:]
			out = append(out, func(l map[string]string) bool { _, ok := l[k]; return !ok })
		default:
			k := part
			out = append(out, func(l map[string]string) bool { _, ok := l[k]; return ok })
		}
	}
	return out, nil
}

func (s selector) matches(l map[string]string) bool {
	for _, f := range s {
		if !f(l) {
			return false
		}
	}
	return true
}

// list returns the objects of a type the command selects.
func (r *runner) list(c *Command, info cluster.KindInfo) ([]resource.Object, error) {
	sel, err := parseSelector(c.Selector)
	if err != nil {
		return nil, err
	}
	q := cluster.Query{APIVersion: info.APIVersion(), Kind: info.Kind}
	if info.Namespaced && !c.AllNamespaces {
		q.Namespace = r.namespace(c)
	}
	var out []resource.Object
	for _, obj := range r.s.Store().List(q) {
		if sel.matches(obj.Labels()) {
			out = append(out, obj)
		}
	}
	return out, nil
}

func (r *runner) noResources(c *Command, info cluster.KindInfo) string {
	if info.Namespaced && !c.AllNamespaces {
		return fmt.Sprintf("No resources found in %s namespace.", r.namespace(c))
	}
	return "No resources found"
}

// callRefs names the objects a call acts on: those of its -f manifests, or
// its TYPE NAME... targets. A TYPE without names is, when selecting (kubectl
// delete), every object -l or --all selects, and otherwise an error, as
// kubectl says; ok is false when the call ends there (said in o).
func (r *runner) callRefs(c *Command, stdin string, o *kubectlOutput, selecting bool) (refs []resource.Ref, ok bool, err error) {
	if len(c.Files) > 0 {
		refs, ok = r.manifestRefs(c, stdin, o)
		return refs, ok, nil
	}
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil, false, nil
	}
	for _, t := range ts {
		if t.name != "" {
			refs = append(refs, r.refOf(c, t))
			continue
		}
		if !selecting || c.Selector == "" && last(c.Flags["all"]) != "true" {
			o.errorf("error: resource(s) were provided, but no name was specified")
			return nil, false, nil
		}
		list, err := r.list(c, t.info)
		if err != nil {
			return nil, false, err
		}
		if len(list) == 0 {
			fmt.Fprintln(&o.stderr, "No resources found")
		}
		for _, obj := range list {
			refs = append(refs, obj.Ref())
		}
	}
	return refs, true, nil
}
