package suite_test

import (
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/generate"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/suite"
)

// run finds and runs the tests under dir in fsys, as genplay test does.
func run(t *testing.T, fsys fs.FS, dir string) *suite.Report {
	t.Helper()
	files, err := suite.Find(fsys, []suite.Root{{Name: dir, Path: dir, Display: dir}}, nil)
	require.NoError(t, err)
	return suite.Run(files, suite.Options{FS: fsys, Permissions: engine.PermissionsKyvernoE2E,
		Families: []generate.NewFamily{controller.New}})
}

// cliTestFiles reads the files of testdata/kyverno-test/name into a map
// the cases change.
func cliTestFiles(t *testing.T, name string) fstest.MapFS {
	t.Helper()
	sub, err := fs.Sub(os.DirFS("testdata/kyverno-test"), name)
	require.NoError(t, err)
	out := fstest.MapFS{}
	require.NoError(t, fs.WalkDir(sub, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(sub, p)
		out["t/"+p] = &fstest.MapFile{Data: data}
		return err
	}))
	return out
}

func edit(fsys fstest.MapFS, file, old, new string) {
	fsys[file] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys[file].Data), old, new, 1))}
}

func TestKyvernoCLITestsRun(t *testing.T) {
	report := run(t, os.DirFS("testdata"), "kyverno-test")
	byName := map[string]suite.Outcome{}
	for _, o := range report.Tests {
		byName[o.Name] = o
	}
	assert.Equal(t, suite.Pass, byName["add-quota"].Status, byName["add-quota"].Reason)
	// A namespaced Policy is named namespace/name in results, as Kyverno's
	// CLI requires.
	assert.Equal(t, suite.Pass, byName["namespaced-policy"].Status, byName["namespaced-policy"].Reason)
	assert.Equal(t, suite.Skip, byName["require-team"].Status)
	assert.Contains(t, byName["require-team"].Reason, "generate rules only")
	assert.Equal(t, suite.Pass, byName["gpol-registry"].Status, "a GeneratingPolicy's results (isGeneratingPolicy), with a context file: %s",
		byName["gpol-registry"].Reason)
	assert.Equal(t, 3, report.Passed)
	assert.Equal(t, 1, report.Skipped)
}

func TestKyvernoCLITestsCanFail(t *testing.T) {
	cases := []struct {
		name, file, old, new, reason string
	}{
		{"the generated resource differs", "t/generated.yaml", `pods: "20"`, `pods: "21"`, "generated.yaml"},
		{"a resource expected to be skipped generates", "t/resources.yaml", "  name: team-b\n", "  name: team-b\n  labels:\n    quota: \"on\"\n",
			"results[1]: expected skip, but rule add-quota/quota generated"},
		{"a resource the results name is missing", "t/kyverno-test.yaml", "  - team-a\n  generatedResource: generated.yaml\n", "  - team-c\n",
			"results[0]: no Namespace team-c among the resources"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fsys := cliTestFiles(t, "add-quota")
			edit(fsys, c.file, c.old, c.new)
			report := run(t, fsys, "t")
			require.Len(t, report.Tests, 1)
			assert.Equal(t, suite.Fail, report.Tests[0].Status)
			assert.Contains(t, report.Tests[0].Reason, c.reason)
		})
	}
}

func TestKyvernoCLITestsNameANamespacedPolicyWithItsNamespace(t *testing.T) {
	fsys := cliTestFiles(t, "namespaced-policy")
	edit(fsys, "t/kyverno-test.yaml", "policy: team-x/copy-settings", "policy: copy-settings")
	report := run(t, fsys, "t")
	require.Len(t, report.Tests, 1)
	assert.Equal(t, suite.Fail, report.Tests[0].Status)
	assert.Contains(t, report.Tests[0].Reason, "named team-x/copy-settings in results")
}

func TestFindClassifiesTheFilesOfAFolder(t *testing.T) {
	chainsaw := "apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: x\nspec:\n  steps: []\n"
	fsys := fstest.MapFS{
		"s/a/chainsaw-test.yaml":       {Data: []byte("not even YAML: [")},
		"s/b/other-name.yml":           {Data: []byte(chainsaw)},
		"s/c/kyverno-test.yaml":        {Data: []byte("apiVersion: cli.kyverno.io/v1alpha1\nkind: Test\n")},
		"s/d/policy.yaml":              {Data: []byte("apiVersion: kyverno.io/v1\nkind: ClusterPolicy\n")},
		"s/d/notes.txt":                {Data: []byte(chainsaw)},
		"s/.git/x.yaml":                {Data: []byte(chainsaw)},
		"s/node_modules/m/x.yaml":      {Data: []byte(chainsaw)},
		"s/e/step-template.yaml":       {Data: []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: StepTemplate\n")},
		"s/f/chainsaw-test.yaml/x.txt": {Data: []byte("a folder named like a test")},
	}
	files, err := suite.Find(fsys, []suite.Root{{Name: "./s", Path: "s", Display: "s"}}, nil)
	require.NoError(t, err)
	assert.Equal(t, []suite.File{
		{Display: "s/a/chainsaw-test.yaml", Path: "s/a/chainsaw-test.yaml"},
		{Display: "s/b/other-name.yml", Path: "s/b/other-name.yml"},
		{Display: "s/c/kyverno-test.yaml", Path: "s/c/kyverno-test.yaml", CLI: true},
	}, files, "a test by its name or content, not a template, a policy, a text file, nor what .git and node_modules hold")

	_, err = suite.Find(fsys, []suite.Root{{Name: "./s/d/policy.yaml", Path: "s/d/policy.yaml"}}, nil)
	assert.EqualError(t, err, "./s/d/policy.yaml: neither a chainsaw Test nor a Kyverno CLI test (kyverno-test.yaml)")
	_, err = suite.Find(fsys, []suite.Root{{Name: "./missing", Path: "missing"}}, nil)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	assert.EqualError(t, err, "./missing: file does not exist", "named as the user gave it, not by its path in the file system")
}
