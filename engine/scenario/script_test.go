package scenario_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scenario"
)

func TestParseScript(t *testing.T) {
	t.Run("apply piped into grep keeps the pipeline", func(t *testing.T) {
		cmds, err := scenario.ParseScript(`kubectl apply -f update-name.yaml 2>&1 | grep -q "Warning: no synchronization"` + "\n")
		require.NoError(t, err)
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
		cmds, err := scenario.ParseScript("kubectl -n src get configmap owner -o json | jq '{\n  \"uid\": .metadata.uid\n}' | kubectl patch -n src secret s --patch-file=/dev/stdin\n")
		require.NoError(t, err)
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
		cmds, err := scenario.ParseScript("kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NAMESPACE-x\nEOF\nkubectl label ns foo a=b --overwrite\n")
		require.Error(t, err, "$NAMESPACE is not set by ParseScript")
		cmds, err = scenario.ParseScriptEnv("kubectl apply -f - <<EOF\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: $NAMESPACE-x\nEOF\nkubectl label ns foo a=b --overwrite\n",
			map[string]string{"NAMESPACE": "chainsaw-1"})
		require.NoError(t, err)
		require.Len(t, cmds, 2)
		assert.Equal(t, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: chainsaw-1-x\n", cmds[0].Stdin)
		assert.Equal(t, 1, cmds[0].Line)
		assert.Equal(t, "label", cmds[1].Verb)
		assert.Equal(t, []string{"ns", "foo", "a=b"}, cmds[1].Targets)
		assert.Equal(t, 7, cmds[1].Line)
	})
	t.Run("cat into kubectl passes the heredoc", func(t *testing.T) {
		cmds, err := scenario.ParseScript("cat <<'EOF' | kubectl create -f -\nkind: X\nEOF")
		require.NoError(t, err)
		assert.Equal(t, "kind: X\n", cmds[0].Stdin)
	})
	t.Run("&& and || true are recorded", func(t *testing.T) {
		cmds, err := scenario.ParseScript("set -e\nkubectl delete ns a || true; kubectl create ns a && kubectl get ns a --as nancy")
		require.NoError(t, err)
		require.Len(t, cmds, 3)
		assert.True(t, cmds[0].IgnoreError)
		assert.True(t, cmds[0].ExitOnError)
		assert.False(t, cmds[1].AndThen)
		assert.True(t, cmds[2].AndThen)
		assert.Equal(t, "nancy", cmds[2].As)
		assert.Equal(t, "kubectl get ns a --as nancy", cmds[2].Text)
	})

	unsupported := []struct {
		name, script, reason string
	}{
		{"inspecting Kyverno's pods is unsupported", "kubectl get po -A | awk '$5>0' | grep -q 'kyverno-admission-controller'", "inspects Kyverno's own pods"},
		{"control flow is unsupported", `if true; then kubectl get ns; fi`, "shell control flow (if)"},
		{"awk is unsupported", "kubectl get cm | awk '{print $1}'", "pipes into awk"},
		{"writing files is unsupported", "kubectl get cm > out.txt", "writes to the file out.txt"},
		{"other programs are unsupported", "curl http://x", "runs curl"},
		{"logs are unsupported", "kubectl logs deploy/x", "reads container logs"},
		{"command substitution is unsupported", "kubectl get cm $(cat name)", "command substitution"},
		{"unknown flags are unsupported", "kubectl get cm --frobnicate", "--frobnicate"},
	}
	for _, tt := range unsupported {
		t.Run(tt.name, func(t *testing.T) {
			_, err := scenario.ParseScript(tt.script)
			var u *scenario.UnsupportedError
			require.True(t, errors.As(err, &u), "got %v", err)
			assert.Contains(t, u.Reason, tt.reason)
		})
	}
}

func TestParseCommand(t *testing.T) {
	t.Run("a kubectl command is structured", func(t *testing.T) {
		c, err := scenario.ParseCommand("kubectl", []string{"exec", "-n", "ns", "nginx", "-it", "--", "ls"})
		require.NoError(t, err)
		assert.Equal(t, "exec", c.Verb)
		assert.Equal(t, []string{"nginx"}, c.Targets)
		assert.Equal(t, "ns", c.Namespace)
		assert.Equal(t, []string{"ls"}, c.ExecArgs)
	})
	t.Run("optional-value flags take no argument", func(t *testing.T) {
		c, err := scenario.ParseCommand("kubectl", []string{"delete", "ur", "-A", "--all", "--wait=false"})
		require.NoError(t, err)
		assert.True(t, c.AllNamespaces)
		assert.Equal(t, []string{"ur"}, c.Targets)
		assert.Equal(t, []string{"false"}, c.Flags["wait"])
	})
	t.Run("another program is unsupported", func(t *testing.T) {
		_, err := scenario.ParseCommand("helm", []string{"install"})
		var u *scenario.UnsupportedError
		require.ErrorAs(t, err, &u)
	})
}

func FuzzParseScript(f *testing.F) {
	f.Add("kubectl apply -f x.yaml 2>&1 | grep -q \"Warning\"\n")
	f.Add("cat <<EOF | kubectl apply -f -\nkind: X\nEOF\n")
	f.Add("kubectl -n a get cm b -o json | jq -e '.data == null' && kubectl delete ns a || true")
	f.Fuzz(func(t *testing.T, script string) {
		cmds, err := scenario.ParseScriptEnv(script, map[string]string{"NAMESPACE": "ns"})
		if err == nil && len(cmds) == 0 {
			t.Fatal("no command and no error")
		}
	})
}
