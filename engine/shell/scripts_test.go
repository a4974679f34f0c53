package shell_test

import (
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// The script tests are chainsaw Tests under testdata, a folder per part of
// the shell as chainsaw lays out its operations (kubectl_VERB for each
// verb, interp, pipe, jq, run): each states what it expects in its scripts'
// checks and its assert and error operations, so the same files run with
// chainsaw against a cluster with Kyverno. Most start from
// testdata/setup.yaml, a step template (a ConfigMap cloned into every
// Namespace with synchronize, and the Namespace apps). TestScripts runs
// every one, with the CEL family as genplay test does, and requires it to
// pass unless `expect` says otherwise.

// scriptExpect is what a script test expects beyond passing.
type scriptExpect struct {
	// failure: the test fails, with this in a diagnostic; fails: it fails
	// (whatever the diagnostic says).
	failure string
	fails   bool
	// skipped: genplay cannot run it honestly, and says this.
	skipped string
	// notes: for each entry, a note of the timeline holds all its words.
	notes [][]string
	// check is a further check of the result.
	check func(t *testing.T, res *timeline.Result)
}

// expect names a test by its folder and metadata.name. Every key must name
// a test.
var expect = map[string]scriptExpect{
	"interp/the-same-if-fails-when-the-apply-succeeds":                 {failure: "exit status 1"},
	"interp/an-if-that-finds-what-should-be-absent-echoes-and-exits-1": {failure: "expected base-copy to be absent"},
	"interp/a-polling-loop-that-never-sees-the-update-fails": {failure: "downstream was not updated, got level=warn",
		// The loop polled 30 times, sleeping 2s each time: the clock moved.
		check: func(t *testing.T, res *timeline.Result) {
			last := res.Steps[len(res.Steps)-1]
			assert.Equal(t, "kubectl get configmap base-copy -n apps -o jsonpath='{.data.level}' 2>/dev/null", last.Summary)
		}},
	"interp/a-loop-that-never-ends-is-stopped":                       {failure: "loops ran more than"},
	"interp/a-substituted-command-genplay-cannot-run-skips-the-test": {skipped: "kubectl logs reads container logs"},
	"interp/a-variable-that-grows-without-bound-is-stopped":          {failure: "genplay stops"},
	"interp/output-that-grows-without-bound-is-stopped":              {failure: "genplay stops"},
	"jq/jq-e-fails-the-script-when-the-filter-is-false":              {fails: true},
	"kubectl_create/an-impersonated-create-reaches-kyverno-as-that-user": {
		// The cluster roles bound to the user are passed to Kyverno.
		notes: [][]string{{"--as nancy", "does not enforce RBAC", "ns-creator"}}},
	"kubectl_evict/the-evict-plugins-output-is-not-reproduced":           {skipped: "output of kubectl evict"},
	"kubectl_rollout/a-restart-of-the-background-controller-restarts-it": {notes: [][]string{{"the background controller restarts"}}},
	"kubectl_rollout/another-rollout-is-not-simulated":                   {skipped: "rollouts of running workloads"},
	"kubectl_run/run-notes-that-its-containers-never-run":                {notes: [][]string{{"genplay has no kubelet"}}},
	"kubectl/the-background-service-account-is-skipped-by-a-generating-policy": {notes: [][]string{
		{"kubectl --as system:serviceaccount:kyverno:kyverno-background-controller"},
		{"groups system:serviceaccounts, system:serviceaccounts:kyverno, system:authenticated"},
		// The timeline says why nothing was generated.
		{"unless they set skipBackgroundRequests: false"},
	}},
	"pipe/grep-q-without-a-match-fails-the-script":                       {failure: "exit status 1"},
	"run/a-script-without-check-fails-when-a-command-fails":              {failure: "the script failed (exit status 1)"},
	"run/a-check-that-does-not-hold-fails-the-test-and-shows-the-output": {failure: "stdout: namespace/apps"},
	"run/an-output-is-the-value-of-its-moment":                           {failure: "metadata.uid: expected"},
	"run/an-output-whose-match-does-not-hold-binds-nothing":              {failure: "variable $never is not defined"},
	"run/a-check-on-what-kubectl-exec-printed":                           {skipped: "output of kubectl exec"},
	"run/a-look-at-kyvernos-own-pods":                                    {skipped: "Kyverno's own pods"},
	"run/a-program-other-than-kubectl":                                   {skipped: "curl"},
	"run/a-table-whose-columns-a-kubelet-would-fill":                     {skipped: "table for Pod"},
	"run/waiting-for-a-condition-no-controller-sets":                     {skipped: "no controllers or kubelet"},
}

func TestScripts(t *testing.T) {
	fsys := os.DirFS("testdata")
	files, err := fs.Glob(fsys, "*/chainsaw-test.yaml")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	seen := map[string]bool{}
	for _, file := range files {
		tests, diags := scenario.Load(fsys, file)
		require.False(t, diags.HasErrors(), "%s: %v", file, diags)
		for _, test := range tests {
			name := path.Dir(file) + "/" + test.Name
			require.False(t, seen[name], "%s: two tests are named %s", file, test.Name)
			seen[name] = true
			t.Run(name, func(t *testing.T) {
				res := engine.RunTest(test, engine.Options{Scripts: shell.New, Files: fsys, Families: []engine.Family{controller.New}, Permissions: engine.PermissionsKyvernoE2E})
				if usesClientCertificates(test) && !shell.KubeconfigsAvailable {
					// The browser's builds leave them out.
					assert.Contains(t, res.Skipped, "genplay in the browser leaves out")
					assert.False(t, res.Passed && res.Skipped == "", "a skipped test never passes")
					return
				}
				checkScript(t, res, expect[name], usesJQ(test))
			})
		}
	}
	for name := range expect {
		assert.True(t, seen[name], "expect[%q] names no test under testdata", name)
	}
}

// checkScript checks a script test's result against what it expects.
func checkScript(t *testing.T, res *timeline.Result, want scriptExpect, jq bool) {
	if jq && !shell.JQAvailable {
		// The browser's build has no jq: such a script is skipped.
		assert.Contains(t, res.Skipped, "jq")
		assert.False(t, res.Passed && res.Skipped == "", "a skipped test never passes")
		return
	}
	switch {
	case want.skipped != "":
		assert.Contains(t, res.Skipped, want.skipped)
		assert.False(t, res.Passed && res.Skipped == "", "a skipped test never passes")
		return
	case want.failure != "" || want.fails:
		require.Empty(t, res.Skipped)
		assert.False(t, res.Passed, "the test must fail")
		assert.Contains(t, diagnostics(res), want.failure)
	default:
		require.Empty(t, res.Skipped)
		assert.True(t, res.Passed, diagnostics(res))
	}
	for _, words := range want.notes {
		assert.True(t, slices.ContainsFunc(notesOf(res), func(n string) bool {
			for _, w := range words {
				if !strings.Contains(n, w) {
					return false
				}
			}
			return true
		}), "no note says all of %q; the notes:\n%s", words, strings.Join(notesOf(res), "\n"))
	}
	if want.check != nil {
		want.check(t, res)
	}
}

// notesOf lists the reasons of the timeline's note events.
func notesOf(res *timeline.Result) []string {
	var out []string
	for _, st := range res.Steps {
		for _, e := range st.Events {
			if e.Action == timeline.ActionNote {
				out = append(out, e.Reason)
			}
		}
	}
	return out
}

// usesJQ reports whether a test's scripts pipe into jq.
// usesClientCertificates: the test makes or reads a kubeconfig's
// credentials (openssl, kubectl config, --context).
func usesClientCertificates(test *scenario.Test) bool {
	for _, st := range test.Steps {
		for _, op := range st.Try {
			if op.Script != nil && (strings.Contains(op.Script.Content, "openssl") || strings.Contains(op.Script.Content, "kubectl config")) {
				return true
			}
		}
	}
	return false
}

func usesJQ(test *scenario.Test) bool {
	for _, st := range test.Steps {
		for _, op := range st.Try {
			if op.Script != nil && strings.Contains(op.Script.Content, "| jq") {
				return true
			}
		}
	}
	return false
}
