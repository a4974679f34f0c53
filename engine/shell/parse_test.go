package shell_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/shell"
)

// commands parses a script that must parse and returns its kubectl calls.
func commands(t *testing.T, script string, env map[string]string) []*shell.Command {
	t.Helper()
	list, err := shell.ParseScriptEnv(script, env)
	require.NoError(t, err)
	return list.Commands()
}

func TestParseScript(t *testing.T) {
	t.Run("apply piped into grep keeps the pipeline", func(t *testing.T) {
		cmds := commands(t, `kubectl apply -f update-name.yaml 2>&1 | grep -q "Warning: no synchronization"`+"\n", nil)
		require.Len(t, cmds, 1)
		c := cmds[0]
		assert.Equal(t, "apply", c.Verb)
		assert.Equal(t, []string{"update-name.yaml"}, c.Files)
		assert.True(t, c.MergeStderr)
		require.Len(t, c.Pipe, 1)
		assert.Equal(t, "grep", c.Pipe[0].Program)
		assert.True(t, c.Pipe[0].Options["q"])
		assert.Equal(t, "Warning: no synchronization", c.Pipe[0].Expr)
	})
	t.Run("get piped through jq into patch reads the pipe", func(t *testing.T) {
		cmds := commands(t, "kubectl -n src get configmap owner -o json | jq '{\n  \"uid\": .metadata.uid\n}' | kubectl patch -n src secret s --patch-file=/dev/stdin\n", nil)
		require.Len(t, cmds, 1)
		c := cmds[0]
		assert.Equal(t, "get", c.Verb)
		assert.Equal(t, []string{"configmap", "owner"}, c.Targets)
		assert.Equal(t, "src", c.Namespace)
		assert.Equal(t, "json", c.Output)
		require.Len(t, c.Pipe, 2)
		assert.Equal(t, "{\n  \"uid\": .metadata.uid\n}", c.Pipe[0].Expr)
		patch := c.Pipe[1].Kubectl
		require.NotNil(t, patch)
		assert.Equal(t, "patch", patch.Verb)
		assert.Equal(t, "/dev/stdin", patch.PatchFile)
		assert.True(t, patch.StdinFromPipe)
	})
	t.Run("a heredoc becomes stdin", func(t *testing.T) {
		_, err := shell.ParseScriptEnv("kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NAMESPACE-x\nEOF\nkubectl label ns foo a=b --overwrite\n", nil)
		require.Error(t, err, "$NAMESPACE is not set without an environment")
		cmds := commands(t, "kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NAMESPACE-x\nEOF\nkubectl label ns foo a=b --overwrite\n",
			map[string]string{"NAMESPACE": "chainsaw-1"})
		require.Len(t, cmds, 2)
		assert.Equal(t, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: chainsaw-1-x\n", cmds[0].Stdin)
		assert.Equal(t, 1, cmds[0].Line)
		assert.Equal(t, "label", cmds[1].Verb)
		assert.Equal(t, []string{"ns", "foo", "a=b"}, cmds[1].Targets)
		assert.Equal(t, 7, cmds[1].Line)
	})
	t.Run("cat into kubectl passes the heredoc", func(t *testing.T) {
		cmds := commands(t, "cat <<'EOF' | kubectl create -f -\nkind: X\nEOF", nil)
		assert.Equal(t, "kind: X\n", cmds[0].Stdin)
	})
	t.Run("set, && and || build the statement list", func(t *testing.T) {
		list, err := shell.ParseScriptEnv("set -e\nkubectl delete ns a || true; kubectl create ns a && kubectl get ns a --as nancy", nil)
		require.NoError(t, err)
		require.Len(t, list, 3)
		assert.Equal(t, "set", list[0].Pipelines[0].Builtin.Name)
		assert.Equal(t, []string{"||"}, list[1].Ops)
		assert.Equal(t, "true", list[1].Pipelines[1].Builtin.Name)
		assert.Equal(t, "kubectl delete ns a", list[1].Pipelines[0].Kubectl.Text)
		assert.Equal(t, []string{"&&"}, list[2].Ops)
		get := list[2].Pipelines[1].Kubectl
		assert.Equal(t, "nancy", get.As)
		assert.Equal(t, "kubectl get ns a --as nancy", get.Text)
		assert.Equal(t, 2, get.Line)
	})
	t.Run("if, elif, else and ! nest", func(t *testing.T) {
		list, err := shell.ParseScriptEnv("if ! kubectl get ns a; then\n  echo absent >&2\n  exit 1\nelif kubectl get ns b\nthen exit 2\nelse true; fi\nkubectl get ns c", nil)
		require.NoError(t, err)
		require.Len(t, list, 2)
		f := list[0].Pipelines[0].If
		require.NotNil(t, f)
		require.Len(t, f.Conds, 2)
		assert.True(t, f.Conds[0][0].Pipelines[0].Negate)
		echo := f.Bodies[0][0].Pipelines[0].Builtin
		assert.Equal(t, []string{"absent"}, echo.Args)
		assert.True(t, echo.ToStderr)
		assert.Equal(t, []string{"1"}, f.Bodies[0][1].Pipelines[0].Builtin.Args)
		assert.Equal(t, "true", f.Else[0].Pipelines[0].Builtin.Name)
		assert.Len(t, list.Commands(), 3, "every kubectl call, in branches too")
	})
	for name, script := range map[string]string{
		"an if without fi":        "if kubectl get ns a; then exit 1",
		"an if without then":      "if kubectl get ns a; fi",
		"a then without a body":   "if kubectl get ns a; then fi",
		"fi without if":           "kubectl get ns a; fi",
		"&& at the end":           "kubectl get ns a &&",
		"an exit that is no code": "exit twice",
	} {
		t.Run(name+" is an error", func(t *testing.T) {
			_, err := shell.ParseScriptEnv(script, nil)
			var u *scenario.UnsupportedError
			require.Error(t, err)
			assert.False(t, errors.As(err, &u), "a syntax error, not something genplay cannot run: %v", err)
		})
	}

	unsupported := []struct {
		name, script, reason string
	}{
		{"inspecting Kyverno's pods is unsupported", "kubectl get po -A | awk '$5>0' | grep -q 'kyverno-admission-controller'", "inspects Kyverno's own pods"},
		{"case is unsupported", "case x in\nx) kubectl get ns;;\nesac", "shell control flow"},
		{"[[ is unsupported", `if [[ -n x ]]; then kubectl get ns; fi`, "shell control flow ([[)"},
		{"a variable set for one command is unsupported", `FOO=bar kubectl get ns`, "for one command"},
		{"a variable the script never sets is unsupported", `kubectl get ns $nope`, "$nope, which is not set"},
		{"awk is unsupported", "kubectl get cm | awk '{print $1}'", "pipes into awk"},
		{"writing what a piped kubectl prints to a file is unsupported", "kubectl get cm -o yaml | kubectl apply -f - > out.txt", "writes its output to the file out.txt"},
		{"a utility's option genplay does not read is unsupported", "rm -i x", "rm option -i"},
		{"a sed command other than s is unsupported", "sed -e '1d' f", "genplay interprets s/RE/REPLACEMENT/[g] only"},
		{"other programs are unsupported", "curl http://x", "runs curl"},
		{"logs are unsupported", "kubectl logs deploy/x", "reads container logs"},
		{"backquoted command substitution is unsupported", "kubectl get cm `cat name`", "command substitution"},
		{"a substitution runs what genplay interprets only", "kubectl get cm $(curl name)", "runs curl"},
		{"unknown flags are unsupported", "kubectl get cm --frobnicate", "--frobnicate"},
	}
	for _, tt := range unsupported {
		t.Run(tt.name, func(t *testing.T) {
			_, err := shell.ParseScriptEnv(tt.script, nil)
			var u *scenario.UnsupportedError
			require.True(t, errors.As(err, &u), "got %v", err)
			assert.Contains(t, u.Reason, tt.reason)
		})
	}
}

func TestParseCommand(t *testing.T) {
	t.Run("a kubectl command is structured", func(t *testing.T) {
		c, err := shell.ParseCommand("kubectl", []string{"exec", "-n", "ns", "nginx", "-it", "--", "ls"})
		require.NoError(t, err)
		assert.Equal(t, "exec", c.Verb)
		assert.Equal(t, []string{"nginx"}, c.Targets)
		assert.Equal(t, "ns", c.Namespace)
		assert.Equal(t, []string{"ls"}, c.ExecArgs)
	})
	t.Run("optional-value flags take no argument", func(t *testing.T) {
		c, err := shell.ParseCommand("kubectl", []string{"delete", "ur", "-A", "--all", "--wait=false"})
		require.NoError(t, err)
		assert.True(t, c.AllNamespaces)
		assert.Equal(t, []string{"ur"}, c.Targets)
		assert.Equal(t, []string{"false"}, c.Flags["wait"])
	})
	t.Run("another program is unsupported", func(t *testing.T) {
		_, err := shell.ParseCommand("helm", []string{"install"})
		var u *scenario.UnsupportedError
		require.ErrorAs(t, err, &u)
	})
}

func FuzzParseScript(f *testing.F) {
	f.Add("kubectl apply -f x.yaml 2>&1 | grep -q \"Warning\"\n")
	f.Add("cat <<EOF | kubectl apply -f -\nkind: X\nEOF\n")
	f.Add("kubectl -n a get cm b -o json | jq -e '.data == null' && kubectl delete ns a || true")
	f.Fuzz(func(t *testing.T, script string) {
		cmds, err := shell.ParseScriptEnv(script, map[string]string{"NAMESPACE": "ns"})
		if err == nil && len(cmds) == 0 {
			t.Fatal("no command and no error")
		}
	})
}

func TestDeepNestingIsAnError(t *testing.T) {
	for _, script := range []string{
		strings.Repeat("if true; then ", 100000) + "true" + strings.Repeat("; fi", 100000),
		strings.Repeat("while true; do ", 100000) + "true" + strings.Repeat("; done", 100000),
		"echo " + strings.Repeat("$(echo ", 100000) + "x" + strings.Repeat(")", 100000),
	} {
		_, err := shell.ParseScriptEnv(script, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "nested more than")
	}
}

func TestParseScriptVariablesAndLoops(t *testing.T) {
	list, err := shell.ParseScriptEnv("set -e\nuid=\"$(kubectl get cm a -o jsonpath='{.metadata.uid}')\"\nfor i in $(seq 1 3) x; do\n  kubectl get cm \"a-$i\" -n $ns || break\ndone\nns=default", nil)
	require.NoError(t, err, "ns is set by the script (later, which sh allows)")
	require.Len(t, list, 4)
	a := list[1].Pipelines[0].Assign
	require.NotNil(t, a)
	assert.Equal(t, "uid", a.Name)
	require.Len(t, a.Value, 1)
	require.NotNil(t, a.Value[0].Sub)
	assert.Equal(t, "kubectl get cm a -o jsonpath='{.metadata.uid}'", a.Value[0].Sub[0].Pipelines[0].Kubectl.Text)
	assert.Equal(t, 2, a.Value[0].Sub[0].Pipelines[0].Kubectl.Line)
	f := list[2].Pipelines[0].For
	require.NotNil(t, f)
	assert.Equal(t, "i", f.Name)
	require.Len(t, f.Words, 2)
	d := f.Body[0].Pipelines[0].Deferred
	require.NotNil(t, d, "a command with the script's variables is resolved when it runs")
	assert.Equal(t, 4, d.Line)
	require.NotNil(t, d.Provisional)
	assert.Equal(t, []string{"cm", "a-x"}, d.Provisional.Targets, "checked before running with x for each variable")
	pl, err := d.Resolve([][]string{{"kubectl", "get", "cm", "a-1", "-n", "default"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, "default", pl.Kubectl.Namespace)
	assert.Equal(t, "break", f.Body[0].Pipelines[1].Builtin.Name)
	assert.Len(t, list.Commands(), 2, "the substitution's kubectl, and the loop's checked with x")
}

func TestSetTakesCombinedOptions(t *testing.T) {
	for _, script := range []string{"set -euo pipefail\ntrue", "set -e -o pipefail\ntrue", "set -x\ntrue"} {
		_, err := shell.ParseScriptEnv(script, nil)
		assert.NoError(t, err, script)
	}
	_, err := shell.ParseScriptEnv("set -o posix\ntrue", nil)
	assert.Error(t, err)
}

func TestHeredocsAndRedirectTargetsWithTheScriptsVariablesExpandWhenTheyRun(t *testing.T) {
	list, err := shell.ParseScriptEnv("U=alice\ncat <<EOF | kubectl apply -f -\nname: $U\nrequest: $(cat $U.csr | base64)\nkept: \\$U\nEOF\nkubectl get csr $U -o yaml > $U.yaml\n", nil)
	require.NoError(t, err)
	require.Len(t, list, 3)
	d := list[1].Pipelines[0].Deferred
	require.NotNil(t, d, "a heredoc with the script's variables is known only when it runs")
	require.NotNil(t, d.Provisional)
	assert.Equal(t, "name: x\nrequest: x\nkept: $U\n", d.Provisional.Stdin, "checked with x for each part; \\$ stays literal")
	texts := d.Texts()
	require.Len(t, texts, 1)
	require.Len(t, list.Commands(), 2, "the heredoc's substitution holds no kubectl; the second line's is checked with x")
	pl, err := d.Resolve([][]string{{"cat"}, {"kubectl", "apply", "-f", "-"}}, []string{"name: alice\n"})
	require.NoError(t, err)
	require.NotNil(t, pl.Kubectl)
	assert.Equal(t, "name: alice\n", pl.Kubectl.Stdin)

	r := list[2].Pipelines[0].Deferred
	require.NotNil(t, r, "a redirection to $U.yaml is known only when it runs")
	require.Len(t, r.Texts(), 1)
	pl, err = r.Resolve([][]string{{"kubectl", "get", "csr", "alice", "-o", "yaml"}}, []string{"alice.yaml"})
	require.NoError(t, err)
	assert.Equal(t, "alice.yaml", pl.Kubectl.Out)
	_, err = r.Resolve([][]string{{"kubectl", "get", "csr", "alice", "-o", "yaml"}}, []string{""})
	assert.ErrorContains(t, err, "ambiguous redirect")
}
