package shell

import (
	"fmt"
	"strings"
)

// kubectl flags: long name by short letter, flags that take a value, flags
// whose value is optional (with their default), and boolean flags.
var (
	kubectlShort = map[byte]string{
		'n': "namespace", 'f': "filename", 'o': "output", 'l': "selector", 'p': "patch", 'c': "container",
		'A': "all-namespaces", 'i': "stdin", 't': "tty", 'w': "watch", 'R': "recursive", 'q': "quiet", 'k': "kustomize",
		'L': "label-columns",
	}
	kubectlValued = setOf("namespace", "filename", "output", "selector", "patch", "type", "patch-file", "as",
		"as-group", "field-manager", "image", "for", "timeout", "context", "kubeconfig", "container",
		"subresource", "grace-period", "replicas", "current-replicas", "field-selector", "sort-by", "template",
		"from-literal", "from-file", "restart", "labels", "env", "port", "overrides", "kustomize", "raw",
		"server", "token", "user", "cluster", "resource-version", "label-columns", "chunk-size",
		"request-timeout", "serviceaccount", "image-pull-policy", "annotations", "client-certificate", "client-key",
		"certificate-authority", "username", "password")
	kubectlOptional = map[string]string{"dry-run": "client", "wait": "true", "validate": "strict",
		"cascade": "background", "record": "true", "overwrite": "true", "all": "true", "force": "true",
		"ignore-not-found": "true", "server-side": "true", "force-conflicts": "true", "show-labels": "true",
		"no-headers": "true", "local": "true", "recursive": "true", "save-config": "true", "rm": "true",
		"show-kind": "true", "now": "true", "all-namespaces": "true", "stdin": "true", "tty": "true",
		"watch": "true", "quiet": "true", "prune": "true", "insecure-skip-tls-verify": "true",
		"show-managed-fields": "true", "privileged": "true", "embed-certs": "true", "current": "true", "minify": "true",
		"flatten": "true", "merge": "true"}
	// kubectlVerbs are the subcommands whose effect genplay can simulate.
	kubectlVerbs = setOf("apply", "create", "delete", "get", "label", "annotate", "patch", "replace", "scale",
		"run", "exec", "wait", "evict", "describe", "rollout", "config", "certificate")
	kubectlUnsupportedVerbs = map[string]string{
		"logs":         "reads container logs",
		"port-forward": "forwards a port to a pod",
		"proxy":        "runs an API server proxy",
		"cp":           "copies files into a container",
		"attach":       "attaches to a container",
		"top":          "reads resource usage metrics",
		"auth":         "asks the API server's authorizer",
		"drain":        "drains a node",
		"cordon":       "cordons a node",
		"uncordon":     "uncordons a node",
		"debug":        "starts a debug container",
		"edit":         "opens an editor",
	}
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// parseKubectl reads kubectl's arguments (after "kubectl").
func parseKubectl(args []string) (*Command, error) {
	cmd := &Command{Args: append([]string{}, args...), Flags: map[string][]string{}}
	set := func(name, value string) { cmd.Flags[name] = append(cmd.Flags[name], value) }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			cmd.ExecArgs = append([]string{}, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(a, "--"):
			name, value, hasValue := strings.Cut(a[2:], "=")
			switch {
			case name == "raw" && cmd.Verb == "config": // config view --raw is a flag
				if !hasValue {
					value = "true"
				}
			case kubectlValued[name]:
				if !hasValue {
					if i+1 >= len(args) {
						return nil, fmt.Errorf("kubectl --%s needs a value", name)
					}
					i++
					value = args[i]
				}
			case kubectlOptional[name] != "":
				if !hasValue {
					value = kubectlOptional[name]
				}
			default:
				return nil, unsupported("uses the kubectl flag --" + name + ", which genplay does not interpret")
			}
			set(name, value)
		case strings.HasPrefix(a, "-") && len(a) > 1:
			for j := 1; j < len(a); j++ {
				name, ok := kubectlShort[a[j]]
				if !ok {
					return nil, unsupported("uses the kubectl flag -" + string(a[j]) + ", which genplay does not interpret")
				}
				if !kubectlValued[name] {
					set(name, "true")
					continue
				}
				value := strings.TrimPrefix(a[j+1:], "=")
				if value == "" {
					if i+1 >= len(args) {
						return nil, fmt.Errorf("kubectl -%c needs a value", a[j])
					}
					i++
					value = args[i]
				}
				set(name, value)
				break
			}
		case cmd.Verb == "":
			cmd.Verb = a
		default:
			cmd.Targets = append(cmd.Targets, a)
		}
	}
	last := func(name string) string {
		if v := cmd.Flags[name]; len(v) > 0 {
			return v[len(v)-1]
		}
		return ""
	}
	cmd.Namespace = last("namespace")
	cmd.AllNamespaces = last("all-namespaces") == "true"
	// -f is a list flag: kubectl splits each value on commas.
	for _, f := range cmd.Flags["filename"] {
		cmd.Files = append(cmd.Files, strings.Split(f, ",")...)
	}
	cmd.Output = last("output")
	cmd.Selector = last("selector")
	cmd.DryRun = last("dry-run")
	if cmd.DryRun == "none" || cmd.DryRun == "false" {
		cmd.DryRun = ""
	}
	cmd.PatchType = last("type")
	cmd.Patch = last("patch")
	cmd.PatchFile = last("patch-file")
	cmd.As = last("as")
	return cmd, nil
}

// checkKubectl rejects calls genplay cannot simulate honestly.
func checkKubectl(cmd *Command) error {
	if cmd.Verb == "" {
		return fmt.Errorf("kubectl needs a subcommand")
	}
	if reason, ok := kubectlUnsupportedVerbs[cmd.Verb]; ok {
		return unsupported("kubectl " + cmd.Verb + " " + reason + ", which genplay does not simulate")
	}
	if !kubectlVerbs[cmd.Verb] {
		return unsupported("kubectl " + cmd.Verb + " is not simulated")
	}
	for _, f := range []string{"context", "kubeconfig", "cluster", "user"} {
		if _, ok := cmd.Flags[f]; ok && kubeconfigMissing != "" {
			return unsupported("uses kubectl --" + f + ", a kubeconfig's context or credentials, " + kubeconfigMissing)
		}
	}
	if cmd.Verb != "config" {
		if _, ok := cmd.Flags["server"]; ok {
			return unsupported("kubectl --server targets another API server; genplay simulates one")
		}
		if _, ok := cmd.Flags["token"]; ok {
			return unsupported("kubectl --token authenticates with a bearer token, which genplay does not simulate (only client certificates)")
		}
	}
	if _, ok := cmd.Flags["kustomize"]; ok {
		return unsupported("kubectl -k builds a kustomization, which genplay does not do")
	}
	if _, ok := cmd.Flags["raw"]; ok && cmd.Verb != "config" {
		return unsupported("kubectl --raw calls API paths directly")
	}
	for _, f := range cmd.Files {
		if strings.Contains(f, "://") {
			return unsupported("kubectl -f " + f + " fetches a URL")
		}
	}
	if cmd.Flags["watch"] != nil {
		return unsupported("kubectl --watch never ends")
	}
	return nil
}
