package oracle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing/fstest"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/gpol/controller"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/shell"
	"github.com/genplay/genplay/engine/timeline"
)

// Diff is one way genplay's run of a recorded scenario differs from real
// Kyverno's.
type Diff struct {
	Step int    `json:"step"` // the chainsaw step, from 0
	Key  string `json:"key,omitempty"`
	// What differs: "missing" (real Kyverno has the object, genplay not),
	// "extra" (genplay has it, real Kyverno not), "lifecycle" (created,
	// recreated, deleted differently), "field" (a value differs), "defaulted"
	// (a field only the real API server set), "steps" (the run stopped at
	// another step).
	What    string `json:"what"`
	Path    string `json:"path,omitempty"`
	Real    string `json:"real,omitempty"`
	Genplay string `json:"genplay,omitempty"`
	// Known names the known difference that explains it (engine/doc.go),
	// empty for a defect.
	Known string `json:"known,omitempty"`
}

func (d Diff) String() string {
	s := fmt.Sprintf("step %d: %s %s", d.Step, d.What, d.Key)
	if d.Path != "" {
		s += " " + d.Path
	}
	if d.Real != "" || d.Genplay != "" {
		s += fmt.Sprintf(": real %s, genplay %s", d.Real, d.Genplay)
	}
	if d.Known != "" {
		s += " [known: " + d.Known + "]"
	}
	return s
}

// Verdicts of a comparison.
const (
	Agree   = "agree"   // no difference
	Known   = "known"   // every difference is a known one
	Defect  = "defect"  // a difference nothing explains
	Skipped = "skipped" // genplay did not run it (it says why)
)

// Result is the comparison of one recording.
type Result struct {
	Name    string
	Verdict string
	Reason  string // why it was skipped
	Diffs   []Diff
}

// Options of a comparison.
type Options struct {
	// Version is the Kyverno version the recording is of; genplay
	// simulates that release ("" the latest).
	Version string
}

// Compare runs genplay on a recording's scenario and compares its cluster,
// step by step, with the one real Kyverno left.
func Compare(rec *Recording, opts Options) Result {
	res := Result{Name: rec.Name}
	files := fstest.MapFS{}
	for p, text := range rec.Files {
		files[p] = &fstest.MapFile{Data: []byte(text)}
	}
	run := engine.Run("chainsaw-test.yaml", []byte(rec.Scenario), engine.Options{
		Files:          files,
		Permissions:    permissions(rec.Evidence.Permissions),
		Families:       []engine.Family{controller.New},
		Scripts:        shell.New,
		KyvernoVersion: opts.Version,
	})
	if run.Skipped != "" {
		res.Verdict, res.Reason = Skipped, run.Skipped
		return res
	}
	base := baseline()
	gen := genplaySteps(rec, run, base)
	real := rec.Runs[0].Steps
	n := min(len(real), len(gen))
	if len(real) != len(gen) {
		res.Diffs = append(res.Diffs, Diff{Step: n, What: "steps", Real: fmt.Sprintf("%d steps ran", len(real)), Genplay: fmt.Sprintf("%d steps ran", len(gen))})
	}
	var prevGen []Object
	for i := 0; i < n; i++ {
		res.Diffs = append(res.Diffs, compareStep(i, real[i], gen[i], Changes(prevGen, gen[i]))...)
		prevGen = gen[i]
	}
	for i := range res.Diffs {
		res.Diffs[i].Known = explain(res.Diffs[i], rec, opts)
	}
	res.Verdict = Agree
	for _, d := range res.Diffs {
		if d.Known == "" {
			res.Verdict = Defect
			break
		}
		res.Verdict = Known
	}
	return res
}

func permissions(name string) engine.Permissions {
	p, err := engine.ParsePermissions(name)
	if err != nil {
		return engine.PermissionsChart
	}
	return p
}

// baseline is what genplay's cluster holds before a scenario's first
// operation (its default namespaces), by key: out of scope, as the
// pristine cluster's objects are for the recorder.
func baseline() map[string]bool {
	run := engine.Run("baseline.yaml", []byte("apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata:\n  name: baseline\nspec:\n  steps:\n  - try:\n    - sleep:\n        duration: 1ms\n"), engine.Options{})
	out := map[string]bool{}
	if len(run.Steps) > 0 {
		for _, o := range run.Final().Objects() {
			out[Key(o)] = true
		}
	}
	return out
}

// genplaySteps is genplay's cluster after each chainsaw step of the
// prepared scenario (whose steps are named "sNN ..."), as recorded
// objects. A step that left no timeline step (only waits) has the
// cluster of the step before.
func genplaySteps(rec *Recording, run *timeline.Result, base map[string]bool) [][]Object {
	// Every object the run held: at the start, or as a change made it.
	uids := map[string]string{}
	for _, o := range run.Initial {
		uids[o.UID()] = Key(o)
	}
	for _, st := range run.Steps {
		for _, ch := range st.Changes {
			if ch.After != nil {
				uids[ch.After.UID()] = Key(ch.After)
			}
		}
	}
	last := map[int]int{} // chainsaw step -> index of its last timeline step
	maxStep := -1
	for i, st := range run.Steps {
		var n int
		if _, err := fmt.Sscanf(st.StepName, "s%d ", &n); err != nil || n < 1 {
			continue
		}
		last[n-1] = i
		maxStep = max(maxStep, n-1)
	}
	after := map[int][]Object{} // the cluster after each chainsaw step's last timeline step
	wanted := map[int]bool{}
	for _, i := range last {
		wanted[i] = true
	}
	for st, cluster := range run.Clusters() {
		if wanted[st.Index] {
			after[st.Index] = objects(cluster.Objects(), base, uids)
		}
	}
	var out [][]Object
	var prev []Object
	for s := 0; s <= maxStep; s++ {
		if i, ok := last[s]; ok {
			prev = after[i]
		}
		out = append(out, prev)
	}
	return out
}

func objects(cluster []resource.Object, base map[string]bool, uids map[string]string) []Object {
	var out []Object
	for _, o := range cluster {
		m := map[string]any(o)
		if base[Key(m)] || !InScope(m) {
			continue
		}
		v := View(m, uids)
		out = append(out, Object{Key: Key(m), UID: o.UID(), ResourceVersion: o.ResourceVersion(), View: v, Digest: Digest(v)})
	}
	SortObjects(out)
	return out
}

// chainsawNamespace is the namespace chainsaw creates for every test, and
// genplay only when the test puts something in it.
var chainsawNamespace = keyOf("v1", "Namespace", "", engine.TestNamespace)

// policyKinds are compared by their fate only: the API server defaults
// their specs and Kyverno writes their status.
var policyKinds = map[string]bool{"ClusterPolicy": true, "Policy": true, "GeneratingPolicy": true,
	"NamespacedGeneratingPolicy": true, "CustomResourceDefinition": true, "PolicyException": true}

func kindOf(key string) string {
	parts := strings.Split(key, "/")
	if len(parts) < 4 {
		return ""
	}
	return parts[len(parts)-3]
}

func compareStep(i int, real Step, gen []Object, genChanges []Change) []Diff {
	var out []Diff
	g := map[string]Object{}
	for _, o := range gen {
		g[o.Key] = o
	}
	r := map[string]Object{}
	for _, o := range real.Objects {
		r[o.Key] = o
	}
	for _, o := range real.Objects {
		if _, ok := g[o.Key]; !ok && o.Key != chainsawNamespace {
			out = append(out, Diff{Step: i, Key: o.Key, What: "missing"})
		}
	}
	for _, o := range gen {
		ro, ok := r[o.Key]
		if !ok {
			out = append(out, Diff{Step: i, Key: o.Key, What: "extra"})
			continue
		}
		if policyKinds[kindOf(o.Key)] {
			continue
		}
		out = append(out, compareView(i, o.Key, ro.View, o.View)...)
	}
	// Fates: created, recreated, deleted (an update is a change of view,
	// compared above).
	fate := func(l []Change) map[string]string {
		m := map[string]string{}
		for _, c := range l {
			if c.Action != Updated {
				m[c.Key] = c.Action
			}
		}
		return m
	}
	rf, gf := fate(real.Changes), fate(genChanges)
	keys := map[string]bool{}
	for k := range rf {
		keys[k] = true
	}
	for k := range gf {
		keys[k] = true
	}
	for _, k := range sortedKeys(keys) {
		if rf[k] != gf[k] && (rf[k] == Recreated || gf[k] == Recreated) {
			// missing/extra already say the rest.
			out = append(out, Diff{Step: i, Key: k, What: "lifecycle", Real: orNone(rf[k]), Genplay: orNone(gf[k])})
		}
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "kept"
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// compareView compares one object: labels, annotations and owners exactly;
// the other fields as genplay wrote them, where the real object may hold
// more (what the API server defaults: "defaulted").
func compareView(step int, key string, real, gen map[string]any) []Diff {
	var out []Diff
	for _, f := range []string{"labels", "annotations", "ownerReferences"} {
		if !reflect.DeepEqual(real[f], gen[f]) {
			out = append(out, diffValues(step, key, f, real[f], gen[f], true)...)
		}
	}
	for _, f := range sortedKeys(union(real, gen)) {
		switch f {
		case "labels", "annotations", "ownerReferences":
			continue
		}
		out = append(out, diffValues(step, key, f, real[f], gen[f], false)...)
	}
	return out
}

func union(a, b map[string]any) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// diffValues walks two values; exact makes a field only the real object
// has a "field" difference rather than "defaulted".
func diffValues(step int, key, path string, real, gen any, exact bool) []Diff {
	if resource.Equal(real, gen) {
		return nil
	}
	rm, rok := real.(map[string]any)
	gm, gok := gen.(map[string]any)
	if rok && gok {
		var out []Diff
		for _, k := range sortedKeys(union(rm, gm)) {
			out = append(out, diffValues(step, key, path+"."+k, rm[k], gm[k], exact)...)
		}
		return out
	}
	rl, rlok := real.([]any)
	gl, glok := gen.([]any)
	if rlok && glok && len(rl) == len(gl) {
		var out []Diff
		for i := range rl {
			out = append(out, diffValues(step, key, fmt.Sprintf("%s[%d]", path, i), rl[i], gl[i], exact)...)
		}
		return out
	}
	what := "field"
	if gen == nil && !exact {
		what = "defaulted"
	}
	return []Diff{{Step: step, Key: key, What: what, Path: path, Real: short(real), Genplay: short(gen)}}
}

func short(v any) string {
	if v == nil {
		return "absent"
	}
	s := fmt.Sprintf("%v", v)
	if len(s) > 120 {
		s = s[:117] + "..."
	}
	return s
}

// Load reads every recording of a version's folder, sorted by name.
func Load(dir string) ([]*Recording, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*Recording
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var r Recording
		if err := json.Unmarshal(b, &r); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		if r.Format != Format {
			return nil, fmt.Errorf("%s: format %d, want %d", f, r.Format, Format)
		}
		out = append(out, &r)
	}
	return out, nil
}

// UID is an object's metadata.uid.
func UID(o map[string]any) string {
	m, _ := o["metadata"].(map[string]any)
	s, _ := m["uid"].(string)
	return s
}
