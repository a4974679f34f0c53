package shell

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// kubectl for script steps: each verb (kubectl_VERB.go) acts on the
// simulated cluster and writes what the real kubectl would print. This file
// dispatches a call, checks it before the script runs, prints kubectl's
// errors and writes as the user of --as.

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

// kubectlError is what kubectl prints on stderr before exiting 1, for
// errors of the client (its configuration, its credentials).
type kubectlError struct{ msg string }

func (e kubectlError) Error() string { return e.msg }

// kubectl runs one kubectl call with stdin.
func (r *runner) kubectl(c *Command, stdin string) (stdout, stderr string, code int, err error) {
	if err := r.precheckOne(c); err != nil {
		return "", "", 0, err
	}
	o := &kubectlOutput{}
	var user *admission.UserInfo
	r.contextNamespace = ""
	if c.Verb != "config" {
		var ke kubectlError
		user, r.contextNamespace, err = r.credentials(c)
		if errors.As(err, &ke) {
			return "", ke.msg + "\n", 1, nil
		}
		if err != nil {
			return "", "", 0, err
		}
		if user != nil && !slices.Contains(userVerbs, c.Verb) {
			return "", "", 0, &scenario.UnsupportedError{Reason: "runs kubectl " + c.Verb + " as " + user.Username +
				" (its kubeconfig's user), which genplay simulates only for " + strings.Join(userVerbs, ", ")}
		}
	}
	r.identity = ""
	if user != nil {
		r.identity = "the client certificate of the kubeconfig's user (subject CN " + user.Username + ")"
	}
	if c.As != "" {
		if user, err = r.impersonate(c); err != nil {
			return "", "", 0, err
		}
		r.identity = "kubectl --as " + user.Username
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
	case "config":
		err = r.kubectlConfig(c, o)
	case "certificate":
		err = r.kubectlCertificate(c, user, o)
	default:
		err = &scenario.UnsupportedError{Reason: "runs kubectl " + c.Verb + ", which genplay does not simulate"}
	}
	o.printErrors()
	return o.stdout.String(), o.stderr.String(), o.code, err
}

// impersonate returns the user of --as: genplay enforces no RBAC, but the
// user, groups and the roles bound to them reach Kyverno as in a real
// admission request.
func (r *runner) impersonate(c *Command) (*admission.UserInfo, error) {
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

// kubectlWrite puts obj as the user (nil: the admin), recording warnings and
// rejections on the current step as the runner's write does.
func (r *runner) kubectlWrite(mode string, obj resource.Object, doc *source.Document, user *admission.UserInfo) (out resource.Object, existed bool, warnings []string, err error) {
	before, getErr := r.s.Store().Get(obj.Ref())
	existed = getErr == nil
	if user == nil {
		out, warnings, err = r.s.Put(mode, obj, doc)
	} else {
		r.impersonationNote(obj.Ref(), *user)
		out, warnings, err = r.s.PutAs(*user, mode, obj, doc)
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
	reason := r.identity + ": genplay does not enforce RBAC; the request reaches Kyverno as this user (groups " +
		strings.Join(user.Groups, ", ") + "; cluster roles bound: " + orNone(user.ClusterRoles) + "; roles: " + orNone(user.Roles) + ")"
	if user.Username == admission.BackgroundUser {
		reason += "; it is Kyverno's background controller, whose requests generate policies skip unless they set skipBackgroundRequests: false"
	}
	r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref, Reason: reason})
}

func orNone(s []string) string {
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}

// precheck rejects, before anything runs, the commands genplay cannot
// simulate honestly, so a skipped test has no half-run script.
func (r *runner) precheck(c *Command) error {
	if err := r.precheckOne(c); err != nil {
		return err
	}
	if err := r.canRead(c); err != nil {
		return err
	}
	for _, st := range c.Pipe {
		if st.Kubectl != nil {
			if err := r.precheckOne(st.Kubectl); err != nil {
				return err
			}
			if err := r.canRead(st.Kubectl); err != nil {
				return err
			}
		}
		if st.Program == "jq" && !jqAvailable {
			return &scenario.UnsupportedError{Reason: "pipes into jq, which this build of genplay (the browser one) does not include; run it with the genplay CLI"}
		}
	}
	return nil
}

// canRead fails a command that reads a file (-f, --patch-file) where no
// files can be read: kubectl would print an error, and a check expecting
// one would pass without anything having been tried.
func (r *runner) canRead(c *Command) error {
	if r.opts.Files != nil || r.writesFiles {
		return nil
	}
	files := c.Files
	if c.PatchFile != "" {
		files = append(files[:len(files):len(files)], c.PatchFile)
	}
	for _, f := range files {
		if f != "-" && f != "/dev/stdin" {
			return fmt.Errorf("kubectl %s reads %s: %s", c.Verb, f, scenario.NoFiles)
		}
	}
	return nil
}

func (r *runner) precheckOne(c *Command) error {
	switch c.Verb {
	case "exec":
		if len(c.Pipe) > 0 {
			return &scenario.UnsupportedError{Reason: "pipes the output of kubectl exec, which genplay cannot produce (it runs no containers)"}
		}
	case "evict":
		if len(c.Pipe) > 0 {
			return &scenario.UnsupportedError{Reason: "pipes the output of kubectl evict (a plugin), which genplay does not reproduce"}
		}
	case "rollout":
		if err := r.rolloutTarget(c); err != nil {
			return err
		}
	case "describe":
		return &scenario.UnsupportedError{Reason: "runs kubectl describe, whose output genplay does not reproduce"}
	case "config":
		return checkConfig(c)
	case "certificate":
		return checkCertificate(c)
	case "wait":
		if f := last(c.Flags["for"]); !strings.HasPrefix(f, "delete") && !strings.HasPrefix(f, "jsonpath=") {
			return &scenario.UnsupportedError{Reason: "waits for " + f + ": simulated objects have no controllers or kubelet to set status conditions"}
		}
	case "run":
		if len(c.ExecArgs) > 0 || c.Flags["rm"] != nil || c.Flags["stdin"] != nil || c.Flags["attach"] != nil {
			return &scenario.UnsupportedError{Reason: "runs a command in a container with kubectl run, which genplay cannot do (it runs no containers)"}
		}
	}
	if c.DryRun == "server" {
		return &scenario.UnsupportedError{Reason: "uses --dry-run=server, which genplay does not simulate"}
	}
	if c.As != "" && !slices.Contains(userVerbs, c.Verb) {
		return &scenario.UnsupportedError{Reason: "impersonates " + c.As + " with kubectl " + c.Verb + ", which genplay simulates only for " + strings.Join(userVerbs, ", ")}
	}
	if c.Flags["as-group"] != nil {
		return &scenario.UnsupportedError{Reason: "impersonates groups (--as-group), which genplay does not simulate"}
	}
	if o := c.Output; o != "" && o != "json" && o != "yaml" && o != "name" && o != "wide" && !simpleJSONPath.MatchString(o) {
		return &scenario.UnsupportedError{Reason: "prints -o " + o + ", which genplay does not reproduce (only json, yaml, name and jsonpath={.a.b})"}
	}
	return nil
}

// userVerbs are the kubectl verbs genplay runs as a user other than the
// admin (kubectl --as, or a kubeconfig's user): the others would write as
// the admin.
var userVerbs = []string{"create", "apply", "delete", "get", "label", "annotate", "certificate"}

func last(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}
