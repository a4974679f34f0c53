//go:build !(js && wasm)

package shell

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
)

// kubectl config: the kubeconfig file $KUBECONFIG (or --kubeconfig) names,
// read and written in the scratch folder. It never reaches the API server.
// view prints it (secrets redacted without --raw; --minify, --flatten),
// current-context, get-contexts, get-clusters and get-users list it, and
// use-context, set-context, set-credentials, set-cluster, rename-context
// and delete-context, -user and -cluster change it as kubectl does.

// configVerbs are the subcommands genplay runs.
var configVerbs = []string{"view", "current-context", "get-contexts", "get-clusters", "get-users", "use-context", "use",
	"set-context", "set-credentials", "set-cluster", "rename-context", "delete-context", "delete-user", "delete-cluster"}

// checkConfig refuses, when the script is parsed, what genplay does not
// simulate of kubectl config.
func checkConfig(c *Command) error {
	if len(c.Targets) == 0 {
		return unsupported("runs kubectl config without a subcommand")
	}
	if !slices.Contains(configVerbs, c.Targets[0]) {
		return unsupported("runs kubectl config " + c.Targets[0] + ", which genplay does not simulate")
	}
	if c.Targets[0] == "view" || c.Targets[0] == "get-contexts" {
		if o := c.Output; o != "" && o != "json" && o != "yaml" && o != "name" && !simpleJSONPath.MatchString(o) {
			return unsupported("prints kubectl config " + c.Targets[0] + " -o " + o + ", which genplay does not reproduce")
		}
	}
	return nil
}

// dataOmitted is what kubectl config view shows for certificate data
// without --raw: the bytes whose base64 reads DATA+OMITTED.
var dataOmitted, _ = base64.StdEncoding.DecodeString("DATA+OMITTED")

func (r *runner) kubectlConfig(c *Command, o *kubectlOutput) error {
	k, file, err := r.loadKubeconfig(c)
	if err != nil {
		if e, ok := err.(kubectlError); ok {
			o.errorf("%s", e.msg)
			return nil
		}
		return err
	}
	e := &configEdit{r: r, c: c, k: k, file: file, o: o, args: c.Targets[1:]}
	if len(e.args) > 0 {
		e.name = e.args[0]
	}
	switch c.Targets[0] {
	case "view":
		return r.configView(c, k, o)
	case "current-context":
		if k.CurrentContext == "" {
			o.errorf("error: current-context is not set")
			return nil
		}
		fmt.Fprintln(&o.stdout, k.CurrentContext)
	case "get-contexts":
		r.configContexts(c, k, e.args, o)
	case "get-clusters":
		e.list(func(yield func(string)) {
			for _, cl := range k.Clusters {
				yield(cl.Name)
			}
		})
	case "get-users":
		e.list(func(yield func(string)) {
			for _, u := range k.Users {
				yield(u.Name)
			}
		})
	case "use-context", "use":
		return e.useContext()
	case "set-context":
		return e.setContext()
	case "set-credentials":
		return e.setCredentials()
	case "set-cluster":
		return e.setCluster()
	case "rename-context":
		return e.renameContext()
	case "delete-context":
		i := slices.IndexFunc(k.Contexts, func(x namedContext) bool { return x.Name == e.name })
		return e.delete("context", i >= 0, func() {
			k.Contexts = slices.Delete(k.Contexts, i, i+1)
			if k.CurrentContext == e.name {
				fmt.Fprintf(&o.stderr, "warning: this removed your active context, use \"kubectl config use-context\" to select a different one\n")
			}
		})
	case "delete-user":
		i := slices.IndexFunc(k.Users, func(x namedUser) bool { return x.Name == e.name })
		return e.delete("user", i >= 0, func() { k.Users = slices.Delete(k.Users, i, i+1) })
	case "delete-cluster":
		i := slices.IndexFunc(k.Clusters, func(x namedCluster) bool { return x.Name == e.name })
		return e.delete("cluster", i >= 0, func() { k.Clusters = slices.Delete(k.Clusters, i, i+1) })
	}
	return nil
}

// configEdit is one kubectl config subcommand at work: the kubeconfig it
// read from file, its arguments (name is the first) and where it prints.
// Each subcommand that changes the kubeconfig ends with save, and reports
// a refusal on o with kubectl's message (and a nil error: the script goes
// on, with kubectl's exit status).
type configEdit struct {
	r    *runner
	c    *Command
	k    *kubeconfig
	file string
	o    *kubectlOutput
	args []string
	name string
}

// flag is the last value of a flag, and whether it was given.
func (e *configEdit) flag(name string) (string, bool) {
	v, ok := e.c.Flags[name]
	if !ok {
		return "", false
	}
	return last(v), true
}

// save writes the kubeconfig back to its file.
func (e *configEdit) save() error {
	if e.file == "" {
		e.o.errorf("error: no kubeconfig file to write: set KUBECONFIG or --kubeconfig")
		return nil
	}
	e.k.APIVersion, e.k.Kind = "v1", "Config"
	if e.k.Preferences == nil {
		e.k.Preferences = map[string]any{}
	}
	if err := e.r.scratch().Write(e.file, e.k.marshal(), false); err != nil {
		e.o.errorf("error: open %s: %v", e.file, err)
	}
	return nil
}

// list prints get-clusters' and get-users' table: NAME, then the names in
// order.
func (e *configEdit) list(names func(yield func(string))) {
	fmt.Fprintln(&e.o.stdout, "NAME")
	var sorted []string
	names(func(n string) { sorted = append(sorted, n) })
	slices.Sort(sorted)
	for _, n := range sorted {
		fmt.Fprintln(&e.o.stdout, n)
	}
}

// delete is delete-context, -user and -cluster: remove the entry named by
// the argument when found, and say so.
func (e *configEdit) delete(what string, found bool, remove func()) error {
	if !found {
		e.o.errorf("error: cannot delete %s %s, not in %s", what, e.name, e.file)
		return nil
	}
	remove()
	fmt.Fprintf(&e.o.stdout, "deleted %s %s from %s\n", what, e.name, e.file)
	return e.save()
}

func (e *configEdit) useContext() error {
	if e.k.context(e.name) == nil {
		e.o.errorf("error: no context exists with the name: %q", e.name)
		return nil
	}
	e.k.CurrentContext = e.name
	fmt.Fprintf(&e.o.stdout, "Switched to context %q.\n", e.name)
	return e.save()
}

func (e *configEdit) setContext() error {
	name, k := e.name, e.k
	if v, _ := e.flag("current"); v == "true" {
		if name != "" {
			e.o.errorf("error: you cannot specify both a context name and --current")
			return nil
		}
		if name = k.CurrentContext; name == "" {
			e.o.errorf("error: no current context is set")
			return nil
		}
	}
	if name == "" {
		e.o.errorf("error: you must specify a non-empty context name or --current")
		return nil
	}
	ctx, verb := k.context(name), "modified"
	if ctx == nil {
		k.Contexts = append(k.Contexts, namedContext{Name: name})
		ctx, verb = &k.Contexts[len(k.Contexts)-1].Context, "created"
	}
	for flag, field := range map[string]*string{"cluster": &ctx.Cluster, "user": &ctx.User, "namespace": &ctx.Namespace} {
		if v, ok := e.flag(flag); ok {
			*field = v
		}
	}
	fmt.Fprintf(&e.o.stdout, "Context %q %s.\n", name, verb)
	return e.save()
}

// readFile reads a file a flag names, for --embed-certs: the bytes, or
// false after printing kubectl's message (reading WHAT data).
func (e *configEdit) readFile(path, message string) ([]byte, bool) {
	b, err := e.r.scratch().Read(path)
	if err != nil {
		e.o.errorf("error: %s from %s: open %s: %v", message, path, path, err)
		return nil, false
	}
	return b, true
}

func (e *configEdit) setCredentials() error {
	if e.name == "" {
		e.o.errorf("error: you must specify a non-empty user name")
		return nil
	}
	u := e.k.user(e.name)
	if u == nil {
		e.k.Users = append(e.k.Users, namedUser{Name: e.name})
		u = &e.k.Users[len(e.k.Users)-1].User
	}
	embed, _ := e.flag("embed-certs")
	for _, f := range []struct {
		flag string
		path *string
		data *[]byte
	}{
		{"client-certificate", &u.ClientCertificate, &u.ClientCertificateData},
		{"client-key", &u.ClientKey, &u.ClientKeyData},
	} {
		p, ok := e.flag(f.flag)
		if !ok {
			continue
		}
		if embed != "true" {
			*f.path, *f.data = p, nil
			continue
		}
		b, ok := e.readFile(p, "error reading "+f.flag+" data")
		if !ok {
			return nil
		}
		*f.data, *f.path = b, ""
	}
	for flag, field := range map[string]*string{"token": &u.Token, "username": &u.Username, "password": &u.Password} {
		if v, ok := e.flag(flag); ok {
			*field = v
		}
	}
	fmt.Fprintf(&e.o.stdout, "User %q set.\n", e.name)
	return e.save()
}

func (e *configEdit) setCluster() error {
	if e.name == "" {
		e.o.errorf("error: you must specify a non-empty cluster name")
		return nil
	}
	cl := e.k.cluster(e.name)
	if cl == nil {
		e.k.Clusters = append(e.k.Clusters, namedCluster{Name: e.name})
		cl = &e.k.Clusters[len(e.k.Clusters)-1].Cluster
	}
	if v, ok := e.flag("server"); ok {
		cl.Server = v
	}
	if v, ok := e.flag("insecure-skip-tls-verify"); ok {
		cl.InsecureSkipTLSVerify = v == "true"
	}
	if p, ok := e.flag("certificate-authority"); ok {
		if v, _ := e.flag("embed-certs"); v == "true" {
			b, ok := e.readFile(p, "could not read certificate-authority data")
			if !ok {
				return nil
			}
			cl.CertificateAuthorityData, cl.CertificateAuthority = b, ""
		} else {
			cl.CertificateAuthority, cl.CertificateAuthorityData = p, nil
		}
	}
	fmt.Fprintf(&e.o.stdout, "Cluster %q set.\n", e.name)
	return e.save()
}

func (e *configEdit) renameContext() error {
	args, k := e.args, e.k
	if len(args) != 2 {
		e.o.errorf("error: unexpected args: %v", args)
		return nil
	}
	if k.context(args[0]) == nil {
		e.o.errorf("error: cannot rename the context %q, it's not in %s", args[0], e.file)
		return nil
	}
	if k.context(args[1]) != nil {
		e.o.errorf("error: cannot rename the context %q, the context %q already exists in %s", args[0], args[1], e.file)
		return nil
	}
	for i := range k.Contexts {
		if k.Contexts[i].Name == args[0] {
			k.Contexts[i].Name = args[1]
		}
	}
	if k.CurrentContext == args[0] {
		k.CurrentContext = args[1]
	}
	fmt.Fprintf(&e.o.stdout, "Context %q renamed to %q.\n", args[0], args[1])
	return e.save()
}

// configView prints the configuration as kubectl config view does.
func (r *runner) configView(c *Command, k *kubeconfig, o *kubectlOutput) error {
	v := *k
	v.APIVersion, v.Kind = "v1", "Config"
	if v.Preferences == nil {
		v.Preferences = map[string]any{}
	}
	v.Clusters = slices.Clone(k.Clusters)
	v.Users = slices.Clone(k.Users)
	v.Contexts = slices.Clone(k.Contexts)
	if last(c.Flags["minify"]) == "true" {
		if v.CurrentContext == "" {
			o.errorf("error: current-context must exist in order to minify")
			return nil
		}
		ctx := v.context(v.CurrentContext)
		if ctx == nil {
			o.errorf("error: cannot locate context %s", v.CurrentContext)
			return nil
		}
		v.Contexts = []namedContext{{Name: v.CurrentContext, Context: *ctx}}
		v.Clusters = slices.DeleteFunc(v.Clusters, func(x namedCluster) bool { return x.Name != ctx.Cluster })
		v.Users = slices.DeleteFunc(v.Users, func(x namedUser) bool { return x.Name != ctx.User })
	}
	if last(c.Flags["flatten"]) == "true" {
		for i := range v.Clusters {
			cl := &v.Clusters[i].Cluster
			if cl.CertificateAuthority != "" {
				b, err := r.scratch().Read(cl.CertificateAuthority)
				if err != nil {
					o.errorf("error: open %s: %v", cl.CertificateAuthority, err)
					return nil
				}
				cl.CertificateAuthorityData, cl.CertificateAuthority = b, ""
			}
		}
		for i := range v.Users {
			u := &v.Users[i].User
			for _, f := range []struct {
				path *string
				data *[]byte
			}{{&u.ClientCertificate, &u.ClientCertificateData}, {&u.ClientKey, &u.ClientKeyData}} {
				if *f.path != "" {
					b, err := r.scratch().Read(*f.path)
					if err != nil {
						o.errorf("error: open %s: %v", *f.path, err)
						return nil
					}
					*f.data, *f.path = b, ""
				}
			}
		}
	}
	if last(c.Flags["raw"]) != "true" {
		for i := range v.Clusters {
			if len(v.Clusters[i].Cluster.CertificateAuthorityData) > 0 {
				v.Clusters[i].Cluster.CertificateAuthorityData = dataOmitted
			}
		}
		for i := range v.Users {
			u := &v.Users[i].User
			if len(u.ClientCertificateData) > 0 {
				u.ClientCertificateData = dataOmitted
			}
			if len(u.ClientKeyData) > 0 {
				u.ClientKeyData = dataOmitted
			}
			if u.Token != "" {
				u.Token = "REDACTED"
			}
		}
	}
	switch out := c.Output; {
	case out == "" || out == "yaml":
		o.stdout.Write(v.marshal())
	case out == "json":
		b, err := json.MarshalIndent(&v, "", "    ")
		if err != nil {
			return fmt.Errorf("print json: %w", err)
		}
		o.stdout.Write(append(b, '\n'))
	default:
		b, err := json.Marshal(&v)
		if err != nil {
			return fmt.Errorf("print jsonpath: %w", err)
		}
		var generic any
		if err := json.Unmarshal(b, &generic); err != nil {
			return fmt.Errorf("print jsonpath: %w", err)
		}
		return printJSONPath(generic, out, o)
	}
	return nil
}

// configContexts prints kubectl config get-contexts' table (or -o name).
func (r *runner) configContexts(c *Command, k *kubeconfig, names []string, o *kubectlOutput) {
	list := slices.Clone(k.Contexts)
	slices.SortFunc(list, func(a, b namedContext) int { return strings.Compare(a.Name, b.Name) })
	if len(names) > 0 {
		var picked []namedContext
		for _, n := range names {
			i := slices.IndexFunc(list, func(x namedContext) bool { return x.Name == n })
			if i < 0 {
				o.errorf("error: context %s not found", n)
				return
			}
			picked = append(picked, list[i])
		}
		list = picked
	}
	if c.Output == "name" {
		for _, x := range list {
			fmt.Fprintln(&o.stdout, x.Name)
		}
		return
	}
	w := tabwriter.NewWriter(&o.stdout, 10, 4, 3, ' ', 0)
	if last(c.Flags["no-headers"]) != "true" {
		fmt.Fprintln(w, "CURRENT\tNAME\tCLUSTER\tAUTHINFO\tNAMESPACE")
	}
	for _, x := range list {
		cur := ""
		if x.Name == k.CurrentContext {
			cur = "*"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\n", cur, x.Name, x.Context.Cluster, x.Context.User, x.Context.Namespace)
	}
	_ = w.Flush()
}
