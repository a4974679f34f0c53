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
	args := c.Targets[1:]
	flag := func(name string) (string, bool) {
		v, ok := c.Flags[name]
		if !ok {
			return "", false
		}
		return last(v), true
	}
	save := func() error {
		if file == "" {
			o.errorf("error: no kubeconfig file to write: set KUBECONFIG or --kubeconfig")
			return nil
		}
		k.APIVersion, k.Kind = "v1", "Config"
		if k.Preferences == nil {
			k.Preferences = map[string]any{}
		}
		if err := r.scratch().Write(file, k.marshal(), false); err != nil {
			o.errorf("error: open %s: %v", file, err)
		}
		return nil
	}
	name := ""
	if len(args) > 0 {
		name = args[0]
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
		r.configContexts(c, k, args, o)
	case "get-clusters", "get-users":
		fmt.Fprintln(&o.stdout, "NAME")
		var names []string
		for _, cl := range k.Clusters {
			if c.Targets[0] == "get-clusters" {
				names = append(names, cl.Name)
			}
		}
		for _, u := range k.Users {
			if c.Targets[0] == "get-users" {
				names = append(names, u.Name)
			}
		}
		slices.Sort(names)
		for _, n := range names {
			fmt.Fprintln(&o.stdout, n)
		}
	case "use-context", "use":
		if k.context(name) == nil {
			o.errorf("error: no context exists with the name: %q", name)
			return nil
		}
		k.CurrentContext = name
		fmt.Fprintf(&o.stdout, "Switched to context %q.\n", name)
		return save()
	case "set-context":
		if v, _ := flag("current"); v == "true" {
			if name != "" {
				o.errorf("error: you cannot specify both a context name and --current")
				return nil
			}
			if name = k.CurrentContext; name == "" {
				o.errorf("error: no current context is set")
				return nil
			}
		}
		if name == "" {
			o.errorf("error: you must specify a non-empty context name or --current")
			return nil
		}
		ctx, verb := k.context(name), "modified"
		if ctx == nil {
			k.Contexts = append(k.Contexts, namedContext{Name: name})
			ctx, verb = &k.Contexts[len(k.Contexts)-1].Context, "created"
		}
		if v, ok := flag("cluster"); ok {
			ctx.Cluster = v
		}
		if v, ok := flag("user"); ok {
			ctx.User = v
		}
		if v, ok := flag("namespace"); ok {
			ctx.Namespace = v
		}
		fmt.Fprintf(&o.stdout, "Context %q %s.\n", name, verb)
		return save()
	case "set-credentials":
		if name == "" {
			o.errorf("error: you must specify a non-empty user name")
			return nil
		}
		u := k.user(name)
		if u == nil {
			k.Users = append(k.Users, namedUser{Name: name})
			u = &k.Users[len(k.Users)-1].User
		}
		embed, _ := flag("embed-certs")
		for _, f := range []struct {
			flag       string
			path       *string
			data       *[]byte
			readFailed string
		}{
			{"client-certificate", &u.ClientCertificate, &u.ClientCertificateData, "client-certificate"},
			{"client-key", &u.ClientKey, &u.ClientKeyData, "client-key"},
		} {
			p, ok := flag(f.flag)
			if !ok {
				continue
			}
			if embed == "true" {
				b, err := r.scratch().Read(p)
				if err != nil {
					o.errorf("error: error reading %s data from %s: open %s: %v", f.readFailed, p, p, err)
					return nil
				}
				*f.data, *f.path = b, ""
			} else {
				*f.path, *f.data = p, nil
			}
		}
		if v, ok := flag("token"); ok {
			u.Token = v
		}
		if v, ok := flag("username"); ok {
			u.Username = v
		}
		if v, ok := flag("password"); ok {
			u.Password = v
		}
		fmt.Fprintf(&o.stdout, "User %q set.\n", name)
		return save()
	case "set-cluster":
		if name == "" {
			o.errorf("error: you must specify a non-empty cluster name")
			return nil
		}
		cl := k.cluster(name)
		if cl == nil {
			k.Clusters = append(k.Clusters, namedCluster{Name: name})
			cl = &k.Clusters[len(k.Clusters)-1].Cluster
		}
		if v, ok := flag("server"); ok {
			cl.Server = v
		}
		if v, ok := flag("insecure-skip-tls-verify"); ok {
			cl.InsecureSkipTLSVerify = v == "true"
		}
		if p, ok := flag("certificate-authority"); ok {
			if v, _ := flag("embed-certs"); v == "true" {
				b, err := r.scratch().Read(p)
				if err != nil {
					o.errorf("error: could not read certificate-authority data from %s: open %s: %v", p, p, err)
					return nil
				}
				cl.CertificateAuthorityData, cl.CertificateAuthority = b, ""
			} else {
				cl.CertificateAuthority, cl.CertificateAuthorityData = p, nil
			}
		}
		fmt.Fprintf(&o.stdout, "Cluster %q set.\n", name)
		return save()
	case "rename-context":
		if len(args) != 2 {
			o.errorf("error: unexpected args: %v", args)
			return nil
		}
		ctx := k.context(args[0])
		if ctx == nil {
			o.errorf("error: cannot rename the context %q, it's not in %s", args[0], file)
			return nil
		}
		if k.context(args[1]) != nil {
			o.errorf("error: cannot rename the context %q, the context %q already exists in %s", args[0], args[1], file)
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
		fmt.Fprintf(&o.stdout, "Context %q renamed to %q.\n", args[0], args[1])
		return save()
	case "delete-context":
		i := slices.IndexFunc(k.Contexts, func(x namedContext) bool { return x.Name == name })
		if i < 0 {
			o.errorf("error: cannot delete context %s, not in %s", name, file)
			return nil
		}
		k.Contexts = slices.Delete(k.Contexts, i, i+1)
		if k.CurrentContext == name {
			fmt.Fprintf(&o.stderr, "warning: this removed your active context, use \"kubectl config use-context\" to select a different one\n")
		}
		fmt.Fprintf(&o.stdout, "deleted context %s from %s\n", name, file)
		return save()
	case "delete-user":
		i := slices.IndexFunc(k.Users, func(x namedUser) bool { return x.Name == name })
		if i < 0 {
			o.errorf("error: cannot delete user %s, not in %s", name, file)
			return nil
		}
		k.Users = slices.Delete(k.Users, i, i+1)
		fmt.Fprintf(&o.stdout, "deleted user %s from %s\n", name, file)
		return save()
	case "delete-cluster":
		i := slices.IndexFunc(k.Clusters, func(x namedCluster) bool { return x.Name == name })
		if i < 0 {
			o.errorf("error: cannot delete cluster %s, not in %s", name, file)
			return nil
		}
		k.Clusters = slices.Delete(k.Clusters, i, i+1)
		fmt.Fprintf(&o.stdout, "deleted cluster %s from %s\n", name, file)
		return save()
	}
	return nil
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
