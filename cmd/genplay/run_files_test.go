package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const fileTest = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: files
spec:
  steps:
  - try:
    - apply:
        file: ns.yaml
    - script:
        content: kubectl get ns from-file -o name
        check:
          ($stdout): |
            namespace/from-file
  - use:
      template: ../templates/step.yaml
`

const fileTemplate = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: StepTemplate
metadata:
  name: step
spec:
  try:
  - error:
      file: absent.yaml
`

func TestGenplayRunReadsTheFilesATestNames(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"t/chainsaw-test.yaml": fileTest,
		"t/ns.yaml":            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: from-file\n",
		"t/absent.yaml":        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: absent\n  namespace: default\n",
		"templates/step.yaml":  fileTemplate,
	})
	path := filepath.Join(relToCwd(t, dir), "t", "chainsaw-test.yaml")
	var out, errOut bytes.Buffer
	code := run([]string{"run", path}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 0, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "apply Namespace from-file")
	assert.Contains(t, out.String(), "error ConfigMap", "the template's operation ran")
	assert.Contains(t, out.String(), "PASSED 3 steps")

	// A missing file is an error that names the test file as the user gave it.
	broken := writeFiles(t, map[string]string{"chainsaw-test.yaml": fileTest})
	path = filepath.Join(relToCwd(t, broken), "chainsaw-test.yaml")
	out.Reset()
	errOut.Reset()
	code = run([]string{"run", path}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, out.String(), "error: "+filepath.ToSlash(path)+":8:")
	shown := filepath.ToSlash(filepath.Join(filepath.Dir(path), "ns.yaml"))
	assert.Contains(t, out.String(), "read "+shown+": ", "the message names the file as the user reaches it")

	// Given as an absolute path, the test's files are absolute paths too
	// (not the path inside the root file system, without its leading /).
	abs := filepath.Join(broken, "chainsaw-test.yaml")
	out.Reset()
	errOut.Reset()
	code = run([]string{"run", abs}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, out.String(), "read "+filepath.ToSlash(filepath.Join(broken, "ns.yaml"))+": ")

	// genplay test shows them relative to the test's folder.
	out.Reset()
	errOut.Reset()
	code = run([]string{"test", abs}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 1, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "chainsaw-test.yaml:8:7: read ns.yaml: stat ns.yaml: ")

	// Standard input has no folder: the operation is an error at its line.
	out.Reset()
	errOut.Reset()
	code = run([]string{"run", "-"}, strings.NewReader(fileTest), &out, &errOut)
	assert.Equal(t, 2, code)
	assert.Contains(t, out.String(), "<stdin>:8:")
	assert.Contains(t, out.String(), "no files can be read here")
}

// generate.orphaned is not a Kyverno field: genplay run shows the policy
// refused as a real API server refuses it (strict field validation, what
// chainsaw uses), at the field's line, and names the field the author meant;
// the apply fails, so the run fails (exit 1), as chainsaw's would.
func TestGenplayRunRefusesGenerateOrphaned(t *testing.T) {
	body, err := os.ReadFile("../../site/examples/default-deny-netpol.yaml")
	require.NoError(t, err)
	text := strings.Replace(string(body), "                synchronize: true\n", "                synchronize: true\n                orphaned: true\n", 1)
	require.NotEqual(t, string(body), text)
	line := strings.Count(text[:strings.Index(text, "orphaned: true")], "\n") + 1
	dir := writeFiles(t, map[string]string{"orphaned.yaml": text})
	path := filepath.Join(relToCwd(t, dir), "orphaned.yaml")
	var out, errOut bytes.Buffer
	code := run([]string{"run", path}, strings.NewReader(""), &out, &errOut)
	assert.Equal(t, 1, code, out.String()+errOut.String())
	assert.Contains(t, out.String(), "kube-apiserver rejected ClusterPolicy default-deny")
	assert.Contains(t, out.String()+errOut.String(), fmt.Sprintf(`%s:%d:17: strict decoding error: unknown field "spec.rules[0].generate.orphaned"; did you mean "orphanDownstreamOnPolicyDelete"?`, filepath.ToSlash(path), line))
}
