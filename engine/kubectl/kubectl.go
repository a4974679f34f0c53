package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// This file is kubectl for script steps: each verb (apply, create, get,
// delete, label, annotate, patch, run, scale, wait, exec) acts on the
// simulated cluster and writes what the real kubectl would print.

// kubectlOutput collects one kubectl call's output.
type kubectlOutput struct {
	stdout, stderr strings.Builder
	code           int
	// failed are the API errors, which kubectl prints after everything
	// else (cmdutil.CheckErr on the command's aggregate of errors).
	failed []serverFailure
}

// serverFailure is an API error and what kubectl was doing (`error when
// creating "policy.yaml"`).
type serverFailure struct {
	err     error
	context string
}

func (o *kubectlOutput) errorf(format string, args ...any) {
	fmt.Fprintf(&o.stderr, format+"\n", args...)
	o.code = 1
}

// serverError records an API error, printed when the call ends.
func (o *kubectlOutput) serverError(err error, context string) {
	o.failed = append(o.failed, serverFailure{err, context})
	o.code = 1
}

// printErrors prints the API errors as kubectl's CheckErr does: a single
// Invalid error from its details (`The ConfigMap "x" is invalid: ...`,
// one line per cause when there are several), any other error, or each of
// several, as `Error from server (Reason): ...`.
func (o *kubectlOutput) printErrors() {
	if len(o.failed) == 1 {
		var se *cluster.StatusError
		if errors.As(o.failed[0].err, &se) && se.Reason == cluster.ReasonInvalid {
			o.stderr.WriteString(invalidMessage(se))
			return
		}
	}
	for _, f := range o.failed {
		var se *cluster.StatusError
		prefix := "Error from server"
		if errors.As(f.err, &se) {
			prefix += " (" + string(se.Reason) + ")"
		}
		if f.context != "" {
			fmt.Fprintf(&o.stderr, "%s: %s: %v\n", prefix, f.context, f.err)
		} else {
			fmt.Fprintf(&o.stderr, "%s: %v\n", prefix, f.err)
		}
	}
}

// invalidMessage is kubectl's wording of an Invalid error: the kind and
// name of its details and its causes (deduplicated), not its message.
func invalidMessage(se *cluster.StatusError) string {
	s := "The request is invalid"
	if se.Kind != "" || se.Name != "" {
		s = fmt.Sprintf("The %s %q is invalid", se.Kind, se.Name)
	} else if len(se.Causes) == 0 {
		s += ": " + se.Message
	}
	var causes []string
	for _, c := range se.Causes {
		if msg := c.Error(); !slices.Contains(causes, msg) {
			causes = append(causes, msg)
		}
	}
	switch len(causes) {
	case 0:
		return s + "\n"
	case 1:
		return s + ": " + causes[0] + "\n"
	}
	var b strings.Builder
	b.WriteString(s + ": \n")
	for _, c := range causes {
		b.WriteString("* " + c + "\n")
	}
	return b.String()
}

// kubectl runs one kubectl call with stdin.
func (r *runner) kubectl(c *scenario.Command, stdin string) (stdout, stderr string, code int, err error) {
	if err := r.precheckOne(c); err != nil {
		return "", "", 0, err
	}
	o := &kubectlOutput{}
	user, err := r.impersonate(c)
	if err != nil {
		return "", "", 0, err
	}
	switch c.Verb {
	case "apply", "replace":
		err = r.kubectlApply(c, stdin, user, o)
	case "create":
		err = r.kubectlCreate(c, stdin, user, o)
	case "delete":
		err = r.kubectlDelete(c, stdin, user, o)
	case "get":
		err = r.kubectlGet(c, o)
	case "label", "annotate":
		err = r.kubectlLabel(c, user, o)
	case "patch":
		err = r.kubectlPatch(c, stdin, o)
	case "run":
		err = r.kubectlRun(c, o)
	case "scale":
		err = r.kubectlScale(c, o)
	case "wait":
		err = r.kubectlWait(c, o)
	case "exec":
		err = r.kubectlExec(c, o)
	case "evict":
		err = r.kubectlEvict(c, o)
	case "rollout":
		err = r.kubectlRollout(c, o)
	default:
		err = &scenario.UnsupportedError{Reason: "runs kubectl " + c.Verb + ", which genplay does not simulate"}
	}
	o.printErrors()
	return o.stdout.String(), o.stderr.String(), o.code, err
}

// impersonate returns the user of --as: genplay enforces no RBAC, but the
// user, groups and the roles bound to them reach Kyverno as in a real
// admission request.
func (r *runner) impersonate(c *scenario.Command) (*admission.UserInfo, error) {
	if c.As == "" {
		return nil, nil
	}
	u := &admission.UserInfo{Username: c.As, Groups: []string{"system:authenticated"}}
	if sa, ok := strings.CutPrefix(c.As, "system:serviceaccount:"); ok {
		ns, name, ok := strings.Cut(sa, ":")
		if !ok || ns == "" || name == "" || strings.Contains(name, ":") {
			return nil, &scenario.UnsupportedError{Reason: "impersonates " + c.As + ", which is not a service account's username (system:serviceaccount:NAMESPACE:NAME)"}
		}
		// The API server's impersonation gives a service account its
		// groups (k8s.io/apiserver serviceaccount.MakeGroupNames).
		u.Groups = []string{"system:serviceaccounts", "system:serviceaccounts:" + ns, "system:authenticated"}
	}
	u.Roles, u.ClusterRoles = r.boundRoles(u)
	return u, nil
}

// boundRoles lists the Roles ("namespace:name") and ClusterRoles bound to
// a user, as Kyverno computes them for request.roles and
// request.clusterRoles.
func (r *runner) boundRoles(u *admission.UserInfo) (roles, clusterRoles []string) {
	subjectMatches := func(b resource.Object) bool {
		subjects, _ := b.Nested("subjects")
		list, _ := subjects.([]any)
		for _, s := range list {
			m, _ := s.(map[string]any)
			kind, _ := m["kind"].(string)
			name, _ := m["name"].(string)
			if kind == "User" && name == u.Username {
				return true
			}
			if kind == "Group" {
				for _, g := range u.Groups {
					if g == name {
						return true
					}
				}
			}
		}
		return false
	}
	for _, b := range r.s.Store().List(cluster.Query{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "ClusterRoleBinding"}) {
		if subjectMatches(b) {
			clusterRoles = append(clusterRoles, b.NestedString("roleRef", "name"))
		}
	}
	for _, b := range r.s.Store().List(cluster.Query{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"}) {
		if !subjectMatches(b) {
			continue
		}
		if b.NestedString("roleRef", "kind") == "ClusterRole" {
			clusterRoles = append(clusterRoles, b.NestedString("roleRef", "name"))
		} else {
			roles = append(roles, b.Namespace()+":"+b.NestedString("roleRef", "name"))
		}
	}
	sort.Strings(roles)
	sort.Strings(clusterRoles)
	return roles, clusterRoles
}

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

func (r *runner) namespace(c *scenario.Command) string {
	if c.Namespace != "" {
		return c.Namespace
	}
	return r.opts.Namespace
}

func (r *runner) refOf(c *scenario.Command, t target) resource.Ref {
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
func (r *runner) manifests(c *scenario.Command, stdin string, o *kubectlOutput) ([]manifest, bool) {
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
	if r.opts.Files == nil {
		return []string{p}, nil
	}
	full := path.Join(path.Dir(r.opts.File), p)
	if !fs.ValidPath(full) {
		return []string{p}, nil
	}
	info, err := fs.Stat(r.opts.Files, full)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := fs.ReadDir(r.opts.Files, full)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if ext := path.Ext(e.Name()); !e.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			out = append(out, path.Join(p, e.Name()))
		}
	}
	return out, nil
}

// readFile reads a file relative to the test's folder.
func (r *runner) readFile(p string) ([]byte, error) {
	if r.opts.Files == nil {
		return nil, fmt.Errorf("no files are available to scripts here")
	}
	if path.IsAbs(p) {
		return nil, fmt.Errorf("%s: absolute paths are not readable", p)
	}
	full := path.Join(path.Dir(r.opts.File), p)
	if !fs.ValidPath(full) {
		return nil, fmt.Errorf("%s: outside the tests' folder", p)
	}
	return fs.ReadFile(r.opts.Files, full)
}

// defaultNamespace puts a namespaced object without one in the command's
// namespace.
func (r *runner) defaultNamespace(c *scenario.Command, obj resource.Object) {
	if obj.Namespace() != "" {
		return
	}
	if namespaced, known := r.s.Store().Namespaced(obj.APIVersion(), obj.Kind()); namespaced || !known {
		obj.Metadata()["namespace"] = r.namespace(c)
	}
}

// kubectlWrite puts obj as the user (nil: the admin), recording warnings and
// rejections on the current step as the runner's write does.
func (r *runner) kubectlWrite(mode string, obj resource.Object, doc *source.Document, user *admission.UserInfo) (out resource.Object, existed bool, warnings []string, err error) {
	before, getErr := r.s.Store().Get(obj.Ref())
	existed = getErr == nil
	switch {
	case user == nil:
		out, warnings, err = r.s.Put(mode, obj, doc)
	case r.s.IsPolicy(obj):
		r.impersonationNote(obj.Ref(), *user)
		out, warnings, err = r.s.PutAs(*user, mode, obj, doc)
	default:
		out, err = r.putAs(mode, obj, before, *user)
	}
	ref := obj.Ref()
	cur := r.s.Current()
	cur.Warnings = append(cur.Warnings, warnings...)
	for _, w := range warnings {
		r.s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionWarned, Object: &ref, Reason: w})
	}
	if err != nil {
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionRejected, Object: &ref, Reason: err.Error()})
	}
	if err == nil && existed && out != nil && out.ResourceVersion() == before.ResourceVersion() {
		out = nil // unchanged
	}
	return out, existed, warnings, err
}

// impersonationNote says on the timeline how a request as an impersonated
// user is simulated.
func (r *runner) impersonationNote(ref resource.Ref, user admission.UserInfo) {
	reason := "kubectl --as " + user.Username + ": genplay does not enforce RBAC; the request reaches Kyverno as this user (groups " +
		strings.Join(user.Groups, ", ") + "; cluster roles bound: " + orNone(user.ClusterRoles) + "; roles: " + orNone(user.Roles) + ")"
	if user.Username == admission.BackgroundUser {
		reason += "; it is Kyverno's background controller, whose requests generate policies skip unless they set skipBackgroundRequests: false"
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref, Reason: reason})
}

// putAs writes an object other than a policy as an impersonated user.
func (r *runner) putAs(mode string, obj, live resource.Object, user admission.UserInfo) (resource.Object, error) {
	r.impersonationNote(obj.Ref(), user)
	var out resource.Object
	var err error
	switch {
	case live == nil:
		out, err = r.s.CreateAs(user, obj.DeepCopy())
	case mode == scenario.OpCreate:
		_, err = r.s.Store().Create(obj.DeepCopy())
	default:
		next := obj.DeepCopy()
		if mode == scenario.OpApply {
			next = live.DeepCopy()
			resource.MergePatch(map[string]any(next), map[string]any(obj))
		}
		next.Metadata()["resourceVersion"] = live.ResourceVersion()
		out, err = r.s.UpdateAs(user, next)
	}
	if err != nil {
		return nil, err
	}
	verb := timeline.ActionCreated
	if live != nil {
		verb = timeline.ActionUpdated
	}
	r.userEvent(verb, out.Ref(), "by "+user.Username+" (kubectl --as, "+mode+")")
	return out, nil
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

func (r *runner) kubectlApply(c *scenario.Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	mode, verb := scenario.OpApply, "configured"
	if c.Verb == "replace" {
		mode, verb = scenario.OpUpdate, "replaced"
	}
	ms, ok := r.manifests(c, stdin, o)
	if !ok {
		return nil
	}
	for _, m := range ms {
		obj := m.obj.DeepCopy()
		r.defaultNamespace(c, obj)
		info := r.kindInfo(obj)
		if c.DryRun != "" {
			fmt.Fprintf(&o.stdout, "%s %s (%s dry run)\n", typeName(info, obj.Name()), "configured", c.DryRun)
			continue
		}
		out, existed, warnings, err := r.kubectlWrite(mode, obj, m.doc, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		switch {
		case err != nil && !existed:
			o.serverError(err, fmt.Sprintf("error when creating %q", m.file))
		case err != nil && mode == scenario.OpUpdate:
			o.serverError(err, fmt.Sprintf("error when replacing %q", m.file))
		case err != nil:
			o.serverError(err, fmt.Sprintf("error when patching %q", m.file))
		case !existed && mode == scenario.OpUpdate:
			o.serverError(err, "")
		case !existed:
			fmt.Fprintf(&o.stdout, "%s created\n", typeName(info, obj.Name()))
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s unchanged\n", typeName(info, obj.Name()))
		default:
			fmt.Fprintf(&o.stdout, "%s %s\n", typeName(info, obj.Name()), verb)
		}
	}
	return nil
}

func (r *runner) kubectlCreate(c *scenario.Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	var objs []manifest
	if len(c.Files) > 0 {
		ms, ok := r.manifests(c, stdin, o)
		if !ok {
			return nil
		}
		objs = ms
	} else {
		obj, err := r.generator(c)
		if err != nil {
			return err
		}
		if obj == nil {
			o.errorf("error: genplay cannot build this object from kubectl create's arguments")
			return nil
		}
		objs = []manifest{{file: "", obj: obj}}
	}
	for _, m := range objs {
		obj := m.obj.DeepCopy()
		r.defaultNamespace(c, obj)
		info := r.kindInfo(obj)
		if c.DryRun != "" {
			if c.Output != "" {
				return r.printObjects(c, []resource.Object{obj}, true, o)
			}
			fmt.Fprintf(&o.stdout, "%s created (%s dry run)\n", typeName(info, obj.Name()), c.DryRun)
			continue
		}
		_, existed, warnings, err := r.kubectlWrite(scenario.OpCreate, obj, m.doc, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		switch {
		case err != nil && m.file != "":
			o.serverError(err, fmt.Sprintf("error when creating %q", m.file))
		case err != nil:
			o.serverError(err, "")
		case existed:
			o.serverError(fmt.Errorf("%s %q already exists", info.Resource, obj.Name()), "")
		default:
			fmt.Fprintf(&o.stdout, "%s created\n", typeName(info, obj.Name()))
		}
	}
	return nil
}

// generator builds the object of `kubectl create TYPE NAME ...`.
func (r *runner) generator(c *scenario.Command) (resource.Object, error) {
	if len(c.Targets) < 2 {
		return nil, nil
	}
	kind, name := c.Targets[0], c.Targets[1]
	md := map[string]any{"name": name}
	switch kind {
	case "namespace", "ns":
		if len(c.Targets) != 2 {
			return nil, nil
		}
		return resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": md}, nil
	case "configmap", "cm":
		data := map[string]any{}
		for _, lit := range c.Flags["from-literal"] {
			k, v, ok := strings.Cut(lit, "=")
			if !ok {
				return nil, nil
			}
			data[k] = v
		}
		if c.Flags["from-file"] != nil {
			return nil, &scenario.UnsupportedError{Reason: "creates a ConfigMap --from-file, which genplay does not simulate"}
		}
		obj := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md}
		if len(data) > 0 {
			obj["data"] = data
		}
		return obj, nil
	case "serviceaccount", "sa":
		return resource.Object{"apiVersion": "v1", "kind": "ServiceAccount", "metadata": md}, nil
	}
	return nil, &scenario.UnsupportedError{Reason: "runs kubectl create " + kind + ", whose object genplay does not build (use -f)"}
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
func (r *runner) list(c *scenario.Command, info cluster.KindInfo) ([]resource.Object, error) {
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

func (r *runner) noResources(c *scenario.Command, info cluster.KindInfo) string {
	if info.Namespaced && !c.AllNamespaces {
		return fmt.Sprintf("No resources found in %s namespace.", r.namespace(c))
	}
	return "No resources found"
}

func (r *runner) kubectlGet(c *scenario.Command, o *kubectlOutput) error {
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	var objs []resource.Object
	single := len(ts) == 1 && ts[0].name != ""
	for _, t := range ts {
		if t.name == "" {
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			objs = append(objs, list...)
			if len(list) == 0 && len(ts) == 1 {
				if c.Output == "json" || c.Output == "yaml" {
					return r.printObjects(c, nil, false, o)
				}
				fmt.Fprintln(&o.stderr, r.noResources(c, t.info))
				return nil
			}
			continue
		}
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			if c.Flags["ignore-not-found"] != nil && last(c.Flags["ignore-not-found"]) == "true" && errors.Is(err, cluster.ErrNotFound) {
				continue
			}
			o.serverError(err, "")
			continue
		}
		objs = append(objs, obj)
	}
	if len(objs) == 0 {
		return nil
	}
	return r.printObjects(c, objs, single, o)
}

// printObjects prints objects in the command's -o format.
func (r *runner) printObjects(c *scenario.Command, objs []resource.Object, single bool, o *kubectlOutput) error {
	var v any
	if single && len(objs) == 1 {
		v = map[string]any(objs[0])
	} else {
		items := make([]any, len(objs))
		for i, obj := range objs {
			items[i] = map[string]any(obj)
		}
		v = map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}}
	}
	switch c.Output {
	case "json":
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "    ")
		if err := enc.Encode(v); err != nil {
			return fmt.Errorf("print json: %w", err)
		}
		o.stdout.Write(buf.Bytes())
	case "yaml":
		b, err := source.Marshal(v)
		if err != nil {
			return fmt.Errorf("print yaml: %w", err)
		}
		o.stdout.Write(b)
	case "name":
		for _, obj := range objs {
			fmt.Fprintln(&o.stdout, typeName(r.kindInfo(obj), obj.Name()))
		}
	case "jsonpath=" + strings.TrimPrefix(c.Output, "jsonpath="):
		if !single || len(objs) != 1 {
			return &scenario.UnsupportedError{Reason: "prints -o " + c.Output + " for a list, which genplay does not reproduce (only for one named object)"}
		}
		// kubectl get allows missing keys: they print nothing.
		v, _ := objs[0].Nested(strings.Split(strings.Trim(strings.TrimPrefix(c.Output, "jsonpath="), "{}."), ".")...)
		switch x := v.(type) {
		case nil:
		case string:
			o.stdout.WriteString(x)
		default:
			b, err := json.Marshal(x)
			if err != nil {
				return fmt.Errorf("print jsonpath: %w", err)
			}
			o.stdout.Write(b)
		}
	default:
		return r.printTable(c, objs, o)
	}
	return nil
}

// printTable prints kubectl's default table for the kinds whose columns
// genplay reproduces (Namespace, ConfigMap, Secret, ServiceAccount); other
// kinds have columns filled by controllers or printer definitions genplay
// does not have, so asking for their table is not simulated.
func (r *runner) printTable(c *scenario.Command, objs []resource.Object, o *kubectlOutput) error {
	kinds := map[string][]string{
		"Namespace":      {"STATUS"},
		"ConfigMap":      {"DATA"},
		"Secret":         {"TYPE", "DATA"},
		"ServiceAccount": {"SECRETS"},
	}
	kind := objs[0].Kind()
	extra, ok := kinds[kind]
	for _, obj := range objs {
		if obj.Kind() != kind {
			ok = false
		}
	}
	if !ok {
		return &scenario.UnsupportedError{Reason: "prints kubectl's table for " + kind + ", whose columns genplay does not reproduce (use -o json, yaml or name)"}
	}
	w := tabwriter.NewWriter(&o.stdout, 0, 8, 3, ' ', 0)
	header := append(append([]string{"NAME"}, extra...), "AGE")
	if c.AllNamespaces && kind != "Namespace" {
		header = append([]string{"NAMESPACE"}, header...)
	}
	fmt.Fprintln(w, strings.Join(header, "\t"))
	now := r.s.Now()
	for _, obj := range objs {
		age := "<unknown>"
		if t, err := time.Parse(time.RFC3339, obj.NestedString("metadata", "creationTimestamp")); err == nil {
			age = shortDuration(now.Sub(t))
		}
		row := []string{obj.Name()}
		switch kind {
		case "Namespace":
			row = append(row, orDefault(obj.NestedString("status", "phase"), "Active"))
		case "ConfigMap":
			data, _ := obj["data"].(map[string]any)
			bin, _ := obj["binaryData"].(map[string]any)
			row = append(row, strconv.Itoa(len(data)+len(bin)))
		case "Secret":
			data, _ := obj["data"].(map[string]any)
			row = append(row, orDefault(stringValue(obj["type"]), "Opaque"), strconv.Itoa(len(data)))
		case "ServiceAccount":
			secrets, _ := obj["secrets"].([]any)
			row = append(row, strconv.Itoa(len(secrets)))
		}
		row = append(row, age)
		if c.AllNamespaces && kind != "Namespace" {
			row = append([]string{obj.Namespace()}, row...)
		}
		fmt.Fprintln(w, strings.Join(row, "\t"))
	}
	return w.Flush()
}

func shortDuration(d time.Duration) string {
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return strconv.Itoa(int(d.Seconds())) + "s"
	case d < 2*time.Hour:
		return strconv.Itoa(int(d.Minutes())) + "m"
	case d < 48*time.Hour:
		return strconv.Itoa(int(d.Hours())) + "h"
	}
	return strconv.Itoa(int(d.Hours()/24)) + "d"
}

func (r *runner) kubectlDelete(c *scenario.Command, stdin string, user *admission.UserInfo, o *kubectlOutput) error {
	ignore := last(c.Flags["ignore-not-found"]) == "true"
	var refs []resource.Ref
	if len(c.Files) > 0 {
		var ok bool
		if refs, ok = r.manifestRefs(c, stdin, o); !ok {
			return nil
		}
	} else {
		ts, _, ok := r.targets(c.Targets, o)
		if !ok {
			return nil
		}
		for _, t := range ts {
			if t.name != "" {
				refs = append(refs, r.refOf(c, t))
				continue
			}
			if c.Selector == "" && last(c.Flags["all"]) != "true" {
				o.errorf("error: resource(s) were provided, but no name was specified")
				return nil
			}
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			if len(list) == 0 {
				fmt.Fprintln(&o.stderr, "No resources found")
			}
			for _, obj := range list {
				refs = append(refs, obj.Ref())
			}
		}
	}
	for _, ref := range refs {
		info, _ := r.s.Store().KindInfo(ref.APIVersion, ref.Kind)
		if c.DryRun != "" {
			fmt.Fprintf(&o.stdout, "%s %q deleted (%s dry run)\n", strings.ToLower(ref.Kind), ref.Name, c.DryRun)
			continue
		}
		var err error
		if user != nil {
			err = r.removeAs(ref, *user)
		} else {
			err = r.s.Remove(ref)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		if err != nil {
			r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionRejected, Object: &ref, Reason: err.Error()})
			if ignore && errors.Is(err, cluster.ErrNotFound) {
				continue
			}
			o.serverError(err, "")
			continue
		}
		kind := strings.ToLower(ref.Kind)
		if info.Group != "" {
			kind += "." + info.Group
		}
		fmt.Fprintf(&o.stdout, "%s %q deleted\n", kind, ref.Name)
	}
	return nil
}

// removeAs deletes an object as an impersonated user.
func (r *runner) removeAs(ref resource.Ref, user admission.UserInfo) error {
	live, err := r.s.Store().Get(ref)
	if err != nil {
		return err
	}
	if r.s.IsPolicy(live) {
		return &scenario.UnsupportedError{Reason: "deletes a Kyverno policy as an impersonated user, which genplay does not simulate"}
	}
	if err := r.s.DeleteAs(user, ref); err != nil {
		return err
	}
	r.userEvent(timeline.ActionDeleted, ref, "by "+user.Username+" (kubectl --as; genplay does not enforce RBAC)")
	return nil
}

// kubectlLabel runs kubectl label and annotate.
func (r *runner) kubectlLabel(c *scenario.Command, user *admission.UserInfo, o *kubectlOutput) error {
	field, done := "labels", "labeled"
	if c.Verb == "annotate" {
		field, done = "annotations", "annotated"
	}
	ts, pairs, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	if len(pairs) == 0 {
		o.errorf("error: at least one %s update is required", strings.TrimSuffix(field, "s"))
		return nil
	}
	overwrite := last(c.Flags["overwrite"]) == "true"
	var objs []resource.Object
	for _, t := range ts {
		if t.name == "" {
			list, err := r.list(c, t.info)
			if err != nil {
				return err
			}
			if c.Selector == "" && last(c.Flags["all"]) != "true" {
				o.errorf("error: resource(s) were provided, but no name was specified")
				return nil
			}
			objs = append(objs, list...)
			continue
		}
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			o.serverError(err, "")
			return nil
		}
		objs = append(objs, obj)
	}
	for _, obj := range objs {
		next := obj.DeepCopy()
		md := next.Metadata()
		m, _ := md[field].(map[string]any)
		if m == nil {
			m = map[string]any{}
		}
		for _, p := range pairs {
			if k, ok := strings.CutSuffix(p, "-"); ok && !strings.Contains(p, "=") {
				delete(m, k)
				continue
			}
			k, v, _ := strings.Cut(p, "=")
			if old, exists := m[k]; exists && !overwrite && old != v {
				o.errorf("error: '%s' already has a value (%v), and --overwrite is false", k, old)
				return nil
			}
			m[k] = v
		}
		if len(m) == 0 {
			delete(md, field)
		} else {
			md[field] = m
		}
		out, _, warnings, err := r.kubectlWrite(scenario.OpUpdate, next, nil, user)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			return err
		}
		name := typeName(r.kindInfo(obj), obj.Name())
		switch {
		case err != nil:
			o.serverError(err, "")
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s not %s\n", name, done)
		default:
			fmt.Fprintf(&o.stdout, "%s %s\n", name, done)
		}
	}
	return nil
}

func (r *runner) kubectlPatch(c *scenario.Command, stdin string, o *kubectlOutput) error {
	patchText := c.Patch
	if c.PatchFile != "" {
		if c.PatchFile == "/dev/stdin" || c.PatchFile == "-" {
			patchText = stdin
		} else {
			b, err := r.readFile(c.PatchFile)
			if err != nil {
				o.errorf("error: unable to read patch file: %v", err)
				return nil
			}
			patchText = string(b)
		}
	}
	if strings.TrimSpace(patchText) == "" {
		o.errorf("error: must specify -p to patch")
		return nil
	}
	var refs []resource.Ref
	if len(c.Files) > 0 {
		var ok bool
		if refs, ok = r.manifestRefs(c, stdin, o); !ok {
			return nil
		}
	} else {
		ts, _, ok := r.targets(c.Targets, o)
		if !ok {
			return nil
		}
		for _, t := range ts {
			if t.name == "" {
				o.errorf("error: resource(s) were provided, but no name was specified")
				return nil
			}
			refs = append(refs, r.refOf(c, t))
		}
	}
	docs, diags := source.Parse("patch", []byte(patchText))
	if diags.HasErrors() || len(docs) != 1 {
		o.errorf("error: unable to parse %q: the patch is not JSON or YAML", strings.TrimSpace(patchText))
		return nil
	}
	patch := docs[0].Value
	for _, ref := range refs {
		live, err := r.s.Store().Get(ref)
		if err != nil {
			o.serverError(err, "")
			continue
		}
		next, err := applyPatch(c.PatchType, live, patch)
		if err != nil {
			var u *scenario.UnsupportedError
			if errors.As(err, &u) {
				return err
			}
			o.errorf("error: %v", err)
			continue
		}
		out, _, warnings, err := r.kubectlWrite(scenario.OpUpdate, next, nil, nil)
		for _, w := range warnings {
			fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
		}
		name := typeName(r.kindInfo(live), live.Name())
		switch {
		case err != nil:
			o.serverError(err, "")
		case out == nil:
			fmt.Fprintf(&o.stdout, "%s patched (no change)\n", name)
		default:
			fmt.Fprintf(&o.stdout, "%s patched\n", name)
		}
	}
	return nil
}

// kubectlRun creates the Pod of `kubectl run NAME --image=IMAGE`. Its
// containers never run: genplay has no kubelet.
func (r *runner) kubectlRun(c *scenario.Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 {
		o.errorf("error: NAME is required for run")
		return nil
	}
	name := c.Targets[0]
	image := last(c.Flags["image"])
	if image == "" {
		o.errorf("error: --image is required")
		return nil
	}
	labels := map[string]any{"run": name}
	if l := last(c.Flags["labels"]); l != "" {
		labels = map[string]any{}
		for _, kv := range strings.Split(l, ",") {
			k, v, _ := strings.Cut(kv, "=")
			labels[k] = v
		}
	}
	pod := resource.Object{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "namespace": r.namespace(c), "labels": labels},
		"spec": map[string]any{
			"containers":    []any{map[string]any{"name": name, "image": image, "resources": map[string]any{}}},
			"restartPolicy": orDefault(last(c.Flags["restart"]), "Always"),
		},
	}
	if c.DryRun != "" {
		return r.printObjects(c, []resource.Object{pod}, true, o)
	}
	_, existed, warnings, err := r.kubectlWrite(scenario.OpCreate, pod, nil, nil)
	for _, w := range warnings {
		fmt.Fprintf(&o.stderr, "Warning: %s\n", w)
	}
	switch {
	case err != nil:
		o.serverError(err, "")
	case existed:
		o.serverError(fmt.Errorf("pods %q already exists", name), "")
	default:
		ref := pod.Ref()
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
			Reason: "genplay has no kubelet: the pod exists but its containers never run"})
		fmt.Fprintf(&o.stdout, "pod/%s created\n", name)
	}
	return nil
}

func (r *runner) kubectlScale(c *scenario.Command, o *kubectlOutput) error {
	n, err := strconv.Atoi(last(c.Flags["replicas"]))
	if err != nil {
		o.errorf("error: --replicas=COUNT is required")
		return nil
	}
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	for _, t := range ts {
		live, err := r.s.Store().Get(r.refOf(c, t))
		if err != nil {
			o.serverError(err, "")
			continue
		}
		next := live.DeepCopy()
		spec, _ := next["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			next["spec"] = spec
		}
		spec["replicas"] = float64(n)
		if _, _, _, err := r.kubectlWrite(scenario.OpUpdate, next, nil, nil); err != nil {
			o.serverError(err, "")
			continue
		}
		fmt.Fprintf(&o.stdout, "%s scaled\n", typeName(t.info, t.name))
	}
	return nil
}

// kubectlWait handles --for=delete (the simulation has converged, so the
// object is gone or never will be) and --for=jsonpath=... equality.
func (r *runner) kubectlWait(c *scenario.Command, o *kubectlOutput) error {
	ts, _, ok := r.targets(c.Targets, o)
	if !ok {
		return nil
	}
	cond := last(c.Flags["for"])
	for _, t := range ts {
		obj, err := r.s.Store().Get(r.refOf(c, t))
		if strings.HasPrefix(cond, "delete") {
			if err == nil {
				o.errorf("error: timed out waiting for the condition on %s", typeName(t.info, t.name))
			} else {
				fmt.Fprintf(&o.stdout, "%s condition met\n", typeName(t.info, t.name))
			}
			continue
		}
		if err != nil {
			o.serverError(err, "")
			continue
		}
		expr, want, _ := strings.Cut(strings.TrimPrefix(cond, "jsonpath="), "=")
		got, ok := jsonPath(obj, expr)
		if !ok || got != want {
			o.errorf("error: timed out waiting for the condition on %s", typeName(t.info, t.name))
			continue
		}
		fmt.Fprintf(&o.stdout, "%s condition met\n", typeName(t.info, t.name))
	}
	return nil
}

// simpleJSONPath is the -o jsonpath form genplay prints: one dotted path.
var simpleJSONPath = regexp.MustCompile(`^jsonpath=\{(\.[A-Za-z0-9_-]+)+\}$`)

// jsonPath evaluates the simple dotted form of a kubectl JSONPath,
// "{.status.phase}".
func jsonPath(obj resource.Object, expr string) (string, bool) {
	expr = strings.TrimSuffix(strings.TrimPrefix(expr, "{"), "}")
	expr = strings.TrimPrefix(expr, ".")
	if strings.ContainsAny(expr, "[]*@?") {
		return "", false
	}
	v, ok := obj.Nested(strings.Split(expr, ".")...)
	if !ok {
		return "", false
	}
	return fmt.Sprint(v), true
}

// usesOutputOf reports whether an operation that runs kubectl verb checks
// what it printed.
func usesOutputOf(verb string, op *scenario.Operation, cmds []*scenario.Command) bool {
	uses := false
	for _, c := range cmds {
		uses = uses || c.Verb == verb
	}
	if !uses || op.Script.Check == nil {
		return false
	}
	b, err := json.Marshal(op.Script.Check)
	return err != nil || strings.Contains(string(b), "$stdout") || strings.Contains(string(b), "$stderr")
}

// kubectlExec simulates what Kyverno sees of kubectl exec: the API server
// sends a CONNECT admission request for the pods/exec subresource, whose
// object is a PodExecOptions. The command itself does not run (genplay has
// no containers), so it prints nothing.
func (r *runner) kubectlExec(c *scenario.Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 {
		o.errorf("error: expected 'exec POD_NAME COMMAND [ARG1] [ARG2] ... [ARGN]'")
		return nil
	}
	name := strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/")
	if strings.Contains(name, "/") {
		return &scenario.UnsupportedError{Reason: "runs kubectl exec on " + c.Targets[0] + "; genplay simulates exec on pods only"}
	}
	ref := resource.Ref{APIVersion: "v1", Kind: "Pod", Namespace: r.namespace(c), Name: name}
	pod, err := r.s.Store().Get(ref)
	if err != nil {
		o.serverError(err, "")
		return nil
	}
	container := last(c.Flags["container"])
	if container == "" {
		containers, _ := pod.Nested("spec", "containers")
		if list, _ := containers.([]any); len(list) > 0 {
			if m, _ := list[0].(map[string]any); m != nil {
				container, _ = m["name"].(string)
			}
		}
	}
	command := make([]any, len(c.ExecArgs))
	for i, a := range c.ExecArgs {
		command[i] = a
	}
	opts := resource.Object{
		"apiVersion": "v1", "kind": "PodExecOptions",
		// Kyverno reads request.name and request.namespace from the
		// admission request; genplay carries them in metadata.
		"metadata":  map[string]any{"name": name, "namespace": ref.Namespace},
		"container": container, "command": command,
		"stdin": c.Flags["stdin"] != nil, "tty": c.Flags["tty"] != nil,
		"stdout": true, "stderr": true,
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
		Reason: "kubectl exec: the API server sends Kyverno a CONNECT admission request for pods/exec (a PodExecOptions); genplay runs no containers, so the command does not run and prints nothing"})
	r.s.Admit(admission.Request{Operation: admission.OpConnect, Object: opts, User: r.opts.Admin,
		SubResource: "exec", Resource: resource.GVK{Version: "v1", Kind: "Pod"}})
	return nil
}

// manifestRefs names the objects of a command's -f manifests, in the
// command's namespace when they name none.
func (r *runner) manifestRefs(c *scenario.Command, stdin string, o *kubectlOutput) ([]resource.Ref, bool) {
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

// backgroundController is the Deployment of Kyverno's background
// controller, the one rollout kubectl rollout can ask genplay for.
var backgroundController = resource.Ref{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "kyverno", Name: "kyverno-background-controller"}

// rolloutTarget reads the Deployment of kubectl rollout restart|status
// (deployment/NAME or deployment NAME) and reports whether it is Kyverno's
// background controller; other rollouts cannot be simulated.
func (r *runner) rolloutTarget(c *scenario.Command) error {
	args := c.Targets
	if len(args) > 0 && (args[0] == "restart" || args[0] == "status") {
		args = args[1:]
		kind, name := "", ""
		switch {
		case len(args) == 1 && strings.Contains(args[0], "/"):
			kind, name, _ = strings.Cut(args[0], "/")
		case len(args) == 2:
			kind, name = args[0], args[1]
		}
		info, ok := r.resolveType(kind)
		if ok && info.Kind == "Deployment" && info.Group == "apps" && name == backgroundController.Name && r.namespace(c) == backgroundController.Namespace {
			return nil
		}
	}
	return &scenario.UnsupportedError{Reason: "runs kubectl rollout " + strings.Join(c.Targets, " ") + " -n " + r.namespace(c) +
		": genplay manages no rollouts of running workloads; it simulates only a restart of Kyverno's background controller " +
		"(kubectl rollout restart|status deployment/kyverno-background-controller -n kyverno)"}
}

// kubectlRollout restarts Kyverno's background controller (rollout
// restart), or reports its rollout done (rollout status): its in-memory
// state is lost and rebuilt at once (Session.RestartBackgroundController),
// so the new pod is ready when the restart returns.
func (r *runner) kubectlRollout(c *scenario.Command, o *kubectlOutput) error {
	if err := r.rolloutTarget(c); err != nil {
		return err
	}
	ref := backgroundController
	if c.Targets[0] == "status" {
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
			Reason: "kubectl rollout status: genplay restarts the background controller at once, so its rollout is complete"})
		fmt.Fprintf(&o.stdout, "deployment %q successfully rolled out\n", ref.Name)
		return nil
	}
	r.s.RestartBackgroundController()
	fmt.Fprintf(&o.stdout, "deployment.apps/%s restarted\n", ref.Name)
	return nil
}

// kubectlEvict is the kubectl-evict plugin (kubectl evict POD): the API
// server sends Kyverno a CREATE admission request for the pods/eviction
// subresource, whose object is an Eviction, then deletes the pod (which
// never runs here, so it goes at once, with the pod's DELETE admission
// request). The plugin's own output is not reproduced.
func (r *runner) kubectlEvict(c *scenario.Command, o *kubectlOutput) error {
	if len(c.Targets) != 1 || strings.Contains(strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/"), "/") {
		return &scenario.UnsupportedError{Reason: "runs kubectl evict " + strings.Join(c.Targets, " ") + "; genplay simulates the eviction of one pod (kubectl evict POD)"}
	}
	name := strings.TrimPrefix(strings.TrimPrefix(c.Targets[0], "pod/"), "pods/")
	ref := resource.Ref{APIVersion: "v1", Kind: "Pod", Namespace: r.namespace(c), Name: name}
	if _, err := r.s.Store().Get(ref); err != nil {
		o.serverError(err, "")
		return nil
	}
	user := r.opts.Admin
	eviction := resource.Object{
		"apiVersion": "policy/v1", "kind": "Eviction",
		"metadata": map[string]any{"name": name, "namespace": ref.Namespace},
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref,
		Reason: "kubectl evict: the API server sends Kyverno a CREATE admission request for pods/eviction (an Eviction), then deletes the pod; " +
			"genplay's pods never run, so it goes at once"})
	r.s.Admit(admission.Request{Operation: admission.OpCreate, Object: eviction, User: user,
		SubResource: "eviction", Resource: resource.GVK{Version: "v1", Kind: "Pod"}})
	if err := r.s.DeleteAs(user, ref); err != nil {
		o.serverError(err, "")
		return nil
	}
	r.userEvent(timeline.ActionDeleted, ref, "evicted (kubectl evict)")
	return nil
}
