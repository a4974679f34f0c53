package oracle

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/shell"
)

// selfRecording is a recording made from genplay's own run of a gallery
// example: the comparison's own test material (a real recording never
// comes from genplay).
func selfRecording(t *testing.T, file string) *Recording {
	t.Helper()
	b, err := os.ReadFile("../../site/examples/" + file)
	require.NoError(t, err)
	prepared, err := Prepare(string(b), time.Minute)
	require.NoError(t, err)
	rec := &Recording{Format: Format, Name: file, Scenario: prepared, Evidence: Evidence{Permissions: "kyverno-e2e"}}
	run := engine.Run("chainsaw-test.yaml", []byte(prepared), engine.Options{Permissions: engine.PermissionsKyvernoE2E, Families: []engine.Family{controller.New}, Scripts: shell.New})
	require.Empty(t, run.Skipped)
	var prev []Object
	for i, objs := range genplaySteps(rec, run, baseline()) {
		rec.Runs = append(rec.Runs, Run{})
		st := Step{Index: i, Objects: objs, Changes: Changes(prev, objs), Settled: true}
		rec.Runs[0].Steps = append(rec.Runs[0].Steps, st)
		prev = objs
	}
	rec.Runs = rec.Runs[:1]
	require.NotEmpty(t, rec.Runs[0].Steps)
	return rec
}

func TestCompareAgreesWithTheSameRun(t *testing.T) {
	for _, f := range []string{"default-deny-netpol.yaml", "clone-registry-secret-cel.yaml"} {
		res := Compare(selfRecording(t, f), Options{})
		assert.Equal(t, Agree, res.Verdict, "%s: %v", f, res.Diffs)
	}
}

// The comparison can fail: a label, an object, a fate and a field that
// differ are each a defect; a field only the real object has is the API
// server's defaulting.
func TestCompareFindsEachKindOfDifference(t *testing.T) {
	rec := selfRecording(t, "default-deny-netpol.yaml")
	steps := rec.Runs[0].Steps
	last := len(steps) - 1
	var netpol int = -1
	for i, o := range steps[last].Objects {
		if kindOf(o.Key) == "NetworkPolicy" {
			netpol = i
		}
	}
	require.GreaterOrEqual(t, netpol, 0, "the example generates a NetworkPolicy")
	o := &steps[last].Objects[netpol]
	labels := o.View["labels"].(map[string]any)
	labels["generate.kyverno.io/rule-name"] = "other"
	o.View["spec"].(map[string]any)["extra"] = "set by the API server"
	res := Compare(rec, Options{})
	require.Equal(t, Defect, res.Verdict)
	var whats []string
	for _, d := range res.Diffs {
		whats = append(whats, d.What+" "+d.Path+" "+d.Known)
	}
	assert.Contains(t, whats, "field labels.generate.kyverno.io/rule-name ")
	assert.Contains(t, whats, "defaulted spec.extra The API server's defaulting is limited")

	rec = selfRecording(t, "default-deny-netpol.yaml")
	steps = rec.Runs[0].Steps
	steps[last].Objects = append(steps[last].Objects[:netpol:netpol], steps[last].Objects[netpol+1:]...)
	res = Compare(rec, Options{})
	require.Equal(t, Defect, res.Verdict)
	assert.Equal(t, "extra", res.Diffs[0].What, "genplay has an object real Kyverno did not leave: %v", res.Diffs)

	rec = selfRecording(t, "default-deny-netpol.yaml")
	rec.Runs[0].Steps = rec.Runs[0].Steps[:1]
	res = Compare(rec, Options{})
	assert.Equal(t, "steps", res.Diffs[0].What, "real chainsaw stopped after the first step: %v", res.Diffs)
}
