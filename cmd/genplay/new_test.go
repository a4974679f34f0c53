package main

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/scaffold"
)

func newRun(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(append([]string{"new"}, args...), nil, &out, &errb)
	return code, out.String(), errb.String()
}

func TestNewCommand(t *testing.T) {
	t.Run("no file prints the template, which runs green", func(t *testing.T) {
		code, out, errs := newRun()
		require.Equal(t, 0, code, errs)
		assert.Equal(t, scaffold.Template, out)
		p := writeTemp(t, "chainsaw-test.yaml", out)
		var rout, rerr bytes.Buffer
		assert.Equal(t, 0, run([]string{"run", p}, nil, &rout, &rerr), rerr.String())
	})
	t.Run("a bare policy prints a scenario that generates its downstream", func(t *testing.T) {
		code, out, errs := newRun(writeTemp(t, "p.yaml", migratePolicy))
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, "kind: Test")
		p := writeTemp(t, "chainsaw-test.yaml", out)
		var rout, rerr bytes.Buffer
		require.Equal(t, 0, run([]string{"run", "--no-color", p}, nil, &rout, &rerr), rerr.String())
		assert.Contains(t, rout.String(), "NetworkPolicy demo/default-deny")
	})
	t.Run("several files are wrapped together", func(t *testing.T) {
		cm := writeTemp(t, "cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  namespace: shared\n")
		code, out, errs := newRun(writeTemp(t, "p.yaml", migratePolicy), cm)
		require.Equal(t, 0, code, errs)
		assert.Less(t, strings.Index(out, "name: c\n"), strings.Index(out, "kind: ClusterPolicy"))
	})
	t.Run("a rule with no trigger exits 1 with a note at its line, the scenario still printed", func(t *testing.T) {
		text := strings.Replace(migratePolicy, "kinds: [Namespace]", "kinds: [Namespace]\n          operations: [DELETE]", 1)
		p := writeTemp(t, "p.yaml", text)
		code, out, errs := newRun(p)
		assert.Equal(t, 1, code)
		assert.Contains(t, out, "kind: Test")
		assert.Contains(t, errs, p+":8:5: warning: rule add-netpol: no trigger derived")
	})
	t.Run("-o json prints the scenario and its notes", func(t *testing.T) {
		code, out, errs := newRun("-o", "json", writeTemp(t, "p.yaml", migratePolicy))
		require.Equal(t, 0, code, errs)
		var res scaffold.Result
		require.NoError(t, json.Unmarshal([]byte(out), &res))
		assert.Equal(t, 1, res.Triggers)
		assert.Contains(t, res.Scenario, "kind: Test")
	})
	t.Run("a kyverno-test.yaml reads its files next to it", func(t *testing.T) {
		code, out, errs := newRun(filepath.Join("..", "..", "engine", "suite", "testdata", "kyverno-test", "add-quota", "kyverno-test.yaml"))
		require.Equal(t, 0, code, errs)
		assert.Contains(t, out, "create the test's resources")
	})
	t.Run("bad input exits 2 at its line", func(t *testing.T) {
		p := writeTemp(t, "p.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n")
		code, _, errs := newRun(p)
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, p+":1:1: no policy to wrap")
	})
	t.Run("bad usage exits 2", func(t *testing.T) {
		code, _, errs := newRun("-o", "xml")
		assert.Equal(t, 2, code)
		assert.Contains(t, errs, `-o "xml"`)
		code, _, _ = newRun(filepath.Join(t.TempDir(), "missing.yaml"))
		assert.Equal(t, 2, code)
	})
}
