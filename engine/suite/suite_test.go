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
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/suite"
)

// run finds and runs the tests under dir in fsys, as genplay test does.
func run(t *testing.T, fsys fs.FS, dir string) *suite.Report {
	t.Helper()
	files, err := suite.Find(fsys, []suite.Root{{Name: dir, Path: dir, Display: dir}}, nil)
	require.NoError(t, err)
	return suite.Run(files, suite.Options{FS: fsys, Permissions: engine.PermissionsKyvernoE2E,
		Families: []engine.Family{controller.New}, Scripts: shell.New})
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

// Kyverno's CLI matches a result's policy by the last segment of its name
// (commands/test/output.go): a namespaced Policy is "name" or
// "namespace/name" in results.
func TestKyvernoCLITestsNameANamespacedPolicyAsTheCLIMatchesIt(t *testing.T) {
	for name, policy := range map[string]string{"its name alone": "copy-settings", "namespace/name": "team-x/copy-settings"} {
		t.Run(name, func(t *testing.T) {
			fsys := cliTestFiles(t, "namespaced-policy")
			edit(fsys, "t/kyverno-test.yaml", "policy: team-x/copy-settings", "policy: "+policy)
			report := run(t, fsys, "t")
			require.Len(t, report.Tests, 1)
			assert.Equal(t, suite.Pass, report.Tests[0].Status, report.Tests[0].Reason)
		})
	}
	fsys := cliTestFiles(t, "namespaced-policy")
	edit(fsys, "t/kyverno-test.yaml", "policy: team-x/copy-settings", "policy: other-policy")
	report := run(t, fsys, "t")
	assert.Equal(t, suite.Fail, report.Tests[0].Status, "a policy the test does not hold is still an error")
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

// The CLI compares a generated resource with its file as text: a value
// written "(( ... ))" or "(expr)" is not one of chainsaw's expressions.
func TestKyvernoCLITestsCompareExpectedValuesAsText(t *testing.T) {
	fsys := cliTestFiles(t, "add-quota")
	for _, f := range []string{"t/policy.yaml", "t/generated.yaml"} {
		edit(fsys, f, "hard:\n", "scopeSelector: {matchExpressions: [{scopeName: PriorityClass, operator: In, values: [\"(( kept ))\", \"(x)\"]}]}\n          hard:\n")
	}
	edit(fsys, "t/generated.yaml", "          hard:\n", "  hard:\n")
	report := run(t, fsys, "t")
	require.Len(t, report.Tests, 1)
	assert.Equal(t, suite.Pass, report.Tests[0].Status, report.Tests[0].Reason)

	edit(fsys, "t/generated.yaml", `"(x)"`, `"(y)"`)
	report = run(t, fsys, "t")
	assert.Equal(t, suite.Fail, report.Tests[0].Status, "the text still has to match")
}

func TestAKyvernoTestFolderWithOnlyResourcesSaysWhatItIs(t *testing.T) {
	fsys := cliTestFiles(t, "add-quota")
	fsys["p/.kyverno-test/resource.yaml"] = &fstest.MapFile{Data: []byte("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: a\n")}
	fsys["p/.kyverno-test/generatedResource.yaml"] = &fstest.MapFile{Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")}
	files, err := suite.Find(fsys, []suite.Root{{Name: ".", Path: ".", Display: "."}}, nil)
	require.NoError(t, err)
	report := suite.Run(files, suite.Options{FS: fsys})
	var folder *suite.Outcome
	for i, o := range report.Tests {
		if o.Path == "p/.kyverno-test" {
			folder = &report.Tests[i]
		}
	}
	require.NotNil(t, folder, "the folder is reported: %+v", report.Tests)
	assert.Equal(t, suite.Skip, folder.Status)
	assert.Contains(t, folder.Reason, "a .kyverno-test folder with no kyverno-test.yaml")
	assert.Contains(t, folder.Reason, "generatedResource.yaml, resource.yaml")
	assert.Equal(t, 1, report.Passed, "the test beside it still runs")
}

// Kyverno's CLI keeps a test resource's metadata.uid: what the policy
// makes of it (an ownerReference's uid, a label) matches the expected file.
func TestKyvernoCLITestsKeepTheResourcesUID(t *testing.T) {
	fsys := cliTestFiles(t, "add-quota")
	edit(fsys, "t/resources.yaml", "  name: team-a\n", "  name: team-a\n  uid: 6f1c0e2a-0000-4000-8000-000000000001\n")
	edit(fsys, "t/policy.yaml", "      data:\n", "      data:\n        metadata:\n          labels:\n            owner-uid: '{{request.object.metadata.uid}}'\n")
	edit(fsys, "t/generated.yaml", "  namespace: team-a\n", "  namespace: team-a\n  labels:\n    owner-uid: 6f1c0e2a-0000-4000-8000-000000000001\n")
	report := run(t, fsys, "t")
	require.Len(t, report.Tests, 1)
	assert.Equal(t, suite.Pass, report.Tests[0].Status, "%s %v", report.Tests[0].Reason, report.Tests[0].Detail)
}

// A values file stands in for context data as in Kyverno's CLI: a rule's
// value replaces the apiCall it names, a resource's value sets the context.
func TestKyvernoCLITestsUseTheirValuesFile(t *testing.T) {
	fsys := cliTestFiles(t, "add-quota")
	edit(fsys, "t/policy.yaml", "    generate:\n", `    context:
    - name: pods
      apiCall:
        urlPath: /api/v1/namespaces
        jmesPath: items | length(@)
    generate:
`)
	edit(fsys, "t/policy.yaml", `pods: "20"`, `pods: "{{ pods }}"`+"\n            configmaps: '{{ request.namespace }}'")
	edit(fsys, "t/generated.yaml", `pods: "20"`, `pods: "33"`+"\n    configmaps: from-values")
	fsys["t/values.yaml"] = &fstest.MapFile{Data: []byte(`apiVersion: cli.kyverno.io/v1alpha1
kind: Values
policies:
- name: add-quota
  rules:
  - name: quota
    values:
      pods: "33"
  resources:
  - name: team-a
    values:
      request.namespace: from-values
`)}
	edit(fsys, "t/kyverno-test.yaml", "results:\n", "variables: values.yaml\nresults:\n")
	report := run(t, fsys, "t")
	require.Len(t, report.Tests, 1)
	assert.Equal(t, suite.Pass, report.Tests[0].Status, "%s %v", report.Tests[0].Reason, report.Tests[0].Detail)
}
