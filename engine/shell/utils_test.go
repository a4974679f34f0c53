package shell_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/shell"
)

func TestUtilitiesWorkOverTheScratchFolder(t *testing.T) {
	runScriptCases(t, []scriptCase{
		{
			name: "a file written with a heredoc is applied, read back, and removed",
			ops: `- script:
    content: |
      set -e
      mkdir -p out/deep
      cat > out/deep/cm.yaml <<EOF
      apiVersion: v1
      kind: ConfigMap
      metadata:
        name: from-file
        namespace: apps
      data:
        level: debug
      EOF
      test -f out/deep/cm.yaml
      test -d out
      kubectl apply -f out/deep/cm.yaml
      kubectl get cm from-file -n apps -o jsonpath='{.data.level}' > level.txt
      cat level.txt
      rm -r out
      test ! -e out/deep/cm.yaml
      ls
    check:
      ($stdout): "configmap/from-file created\ndebuglevel.txt\n"`,
			pass: true,
		},
		{
			name: "base64, tr, sed, grep, head, tail, wc, cut, sort and uniq in pipes",
			ops: `- script:
    content: |
      echo -n hello | base64 > enc
      cat enc | base64 -d | tr a-z A-Z
      echo
      printf 'b\na\nb\n' | sort | uniq | head -n 1
      printf 'x:1\ny:2\n' | cut -d: -f2 | tail -1
      echo "name: web" | sed 's/web/api/; s/name/app/'
      printf 'a\nb\nc\n' | grep -v b | wc -l
      kubectl get ns apps -o name | sed -e 's|namespace/||'
    check:
      ($stdout): "HELLO\na\n2\napp: api\n2\napps\n"`,
			pass: true,
		},
		{
			name: "the scratch folder lasts the whole test, across steps",
			ops: `- script:
    content: echo first > note.txt
- script:
    content: |
      echo second >> note.txt
      cp note.txt copy.txt
      mv copy.txt moved.txt
      cat moved.txt
    check:
      ($stdout): "first\nsecond\n"`,
			pass: true,
		},
		{
			name: "utilities fail as coreutils do",
			ops: `- script:
    content: |
      rm missing.txt
      echo $?
      cat missing.txt || echo cat failed
      rm -f missing.txt && echo forced
      echo not-base64 | base64 -d
    check:
      ($error != null): true
      "(contains($stderr, 'rm: cannot remove'))": true
      "(contains($stderr, 'cat: missing.txt: No such file or directory'))": true
      "(contains($stderr, 'base64: invalid input'))": true
      "(contains($stdout, 'cat failed'))": true
      "(contains($stdout, 'forced'))": true`,
			pass: true,
		},
		{
			name: "kubectl output redirected to a file, then piped from the file into kubectl",
			ops: `- script:
    content: |
      kubectl get cm base -n default -o yaml > base.yaml
      sed -e 's/name: base$/name: edited/' -e 's/level: info/level: warn/' base.yaml | grep -v -e uid -e resourceVersion -e creationTimestamp > edited.yaml
      kubectl apply -n default -f edited.yaml
      kubectl get cm edited -n default -o jsonpath='{.data.level}'
    check:
      ($stdout): "configmap/edited created\nwarn"`,
			pass: true,
		},
	})
}

func TestTheScratchFolderNeverTouchesTheRealFileSystem(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.yaml")
	require.NoError(t, os.WriteFile(keep, []byte("kept: true\n"), 0o644))
	test := `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: scratch
spec:
  steps:
  - try:
    - script:
        content: |
          cat keep.yaml
          rm keep.yaml
          test -e keep.yaml || echo gone
          echo x > new.txt
          echo y > /tmp/genplay-scratch-test
          cat /etc/hostname || echo no-host-file
        check:
          ($stdout): "kept: true\ngone\nno-host-file\n"
`
	require.NoError(t, os.WriteFile(filepath.Join(dir, "chainsaw-test.yaml"), []byte(test), 0o644))
	res := engine.Run("chainsaw-test.yaml", []byte(test), engine.Options{Scripts: shell.New, Files: os.DirFS(dir)})
	require.Empty(t, res.Skipped)
	assert.True(t, res.Passed, diagnostics(res))
	_, err := os.Stat(keep)
	assert.NoError(t, err, "rm removed the file from the scratch folder only")
	_, err = os.Stat(filepath.Join(dir, "new.txt"))
	assert.ErrorIs(t, err, os.ErrNotExist, "writes stay in the scratch folder")
	_, err = os.Stat("/tmp/genplay-scratch-test")
	assert.ErrorIs(t, err, os.ErrNotExist, "an absolute path is the scratch folder's too")
}

func TestTheScratchFolderIsBounded(t *testing.T) {
	s := shell.NewScratch(nil, "t.yaml")
	big := []byte(strings.Repeat("x", shell.MaxScratchBytes/2+1))
	require.NoError(t, s.Write("a", big, false))
	assert.ErrorContains(t, s.Write("b", big, false), "No space left on device")
	require.NoError(t, s.Write("a", []byte("small"), false), "rewriting a file frees what it held")
	require.NoError(t, s.Write("b", big, false))
}
