package timeline

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func ns(name, rv string, labels map[string]any) resource.Object {
	md := map[string]any{"name": name, "resourceVersion": rv}
	if labels != nil {
		md["labels"] = labels
	}
	return resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": md}
}

func ref(apiVersion, kind, namespace, name string) resource.Ref {
	return resource.Ref{APIVersion: apiVersion, Kind: kind, Namespace: namespace, Name: name}
}

func TestPatchOf(t *testing.T) {
	tests := []struct {
		name          string
		before, after resource.Object
		want          map[string]any
		exact         bool
	}{
		{"a changed field is the patch", ns("a", "1", nil), ns("a", "2", nil),
			map[string]any{"metadata": map[string]any{"resourceVersion": "2"}}, true},
		{"a removed field is null", ns("a", "1", map[string]any{"x": "1"}), ns("a", "2", nil),
			map[string]any{"metadata": map[string]any{"labels": nil, "resourceVersion": "2"}}, true},
		{"a list is replaced whole", resource.Object{"spec": map[string]any{"l": []any{"a", "b"}}}, resource.Object{"spec": map[string]any{"l": []any{"a"}}},
			map[string]any{"spec": map[string]any{"l": []any{"a"}}}, true},
		{"a map emptied deletes its keys", resource.Object{"data": map[string]any{"k": "v"}}, resource.Object{"data": map[string]any{}},
			map[string]any{"data": map[string]any{"k": nil}}, true},
		{"a null value cannot be patched", resource.Object{"spec": map[string]any{"x": "1"}}, resource.Object{"spec": map[string]any{"x": nil}},
			nil, false},
		{"a null inside a new map cannot be patched", resource.Object{}, resource.Object{"spec": map[string]any{"x": nil}},
			nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, exact := PatchOf(tt.before, tt.after)
			assert.Equal(t, tt.exact, exact)
			if tt.exact {
				assert.Equal(t, tt.want, p)
				assert.True(t, resource.Equal(map[string]any(tt.after), applyPatch(map[string]any(tt.before), p)))
			}
		})
	}
	before := ns("a", "1", map[string]any{"x": "1"})
	_ = applyPatch(map[string]any(before), map[string]any{"metadata": map[string]any{"labels": nil}})
	assert.Equal(t, ns("a", "1", map[string]any{"x": "1"}), before, "applying a patch changes neither side")
}

// result is a small timeline: a Namespace created, labelled (a patch),
// a ConfigMap created through one version of its kind and deleted
// through another, and a Secret recorded whole.
func result() *Result {
	a1 := ns("a", "6", nil)
	a2 := ns("a", "7", map[string]any{"team": "x"})
	patch, _ := PatchOf(a1, a2)
	cm := resource.Object{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "a"}}
	return &Result{Format: FormatVersion, Initial: []resource.Object{ns("default", "1", nil)}, Steps: []Step{
		{Index: 0, Changes: []Change{{Object: a1.Ref(), Change: ChangeCreated, Whole: a1, After: a1}, {Object: cm.Ref(), Change: ChangeCreated, Whole: cm, After: cm}}},
		{Index: 1, Changes: []Change{{Object: a2.Ref(), Change: ChangeUpdated, Patch: patch, After: a2}}},
		{Index: 2, Changes: []Change{{Object: ref("v1", "ConfigMap", "a", "c"), Change: ChangeDeleted}}},
	}}
}

func names(objs []resource.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.Ref().String())
	}
	return out
}

func TestTheClusterAfterEachStepIsInitialWithTheChangesApplied(t *testing.T) {
	r := result()
	assert.Equal(t, []string{"Namespace default"}, names(r.ClusterAfter(-1).Objects()))
	assert.Equal(t, []string{"ConfigMap a/c", "Namespace a", "Namespace default"}, names(r.ClusterAfter(0).Objects()), "sorted by group, kind, namespace, name")
	after1 := r.ClusterAfter(1)
	assert.Equal(t, "x", after1.Get(ref("v1", "Namespace", "", "a")).Labels()["team"])
	assert.Equal(t, []string{"Namespace a", "Namespace default"}, names(r.Final().Objects()))
	var seen []int
	for st, c := range r.Clusters() {
		seen = append(seen, c.Len())
		if st.Index == 1 {
			break
		}
	}
	assert.Equal(t, []int{3, 3}, seen, "Clusters stops when asked")
}

func TestDecodeReadsWhatMarshalWrites(t *testing.T) {
	r := result()
	r.Diagnostics = []Diagnostic{}
	data, err := Marshal(r)
	require.NoError(t, err)
	assert.NotContains(t, string(data), `"team": "x",`, "the update is a patch, not the object again")
	back, err := Decode(data)
	require.NoError(t, err)
	require.Len(t, back.Steps, 3)
	assert.Equal(t, map[string]any(r.Steps[1].Changes[0].After), map[string]any(back.Steps[1].Changes[0].After), "Decode makes After from the patch")
	assert.Equal(t, names(r.Final().Objects()), names(back.Final().Objects()))

	var plain Result
	require.NoError(t, json.Unmarshal(data, &plain))
	assert.Equal(t, "x", plain.ClusterAfter(1).Get(ref("v1", "Namespace", "", "a")).Labels()["team"], "Cluster applies patches itself")

	_, err = Decode([]byte(`{"format": "genplay.timeline/v1", "steps": []}`))
	assert.ErrorContains(t, err, `the timeline's format is "genplay.timeline/v1"`)
}

func TestV1HasTheClusterAndADiffInEveryStep(t *testing.T) {
	v1 := V1(result())
	assert.Equal(t, FormatV1, v1.Format)
	require.Len(t, v1.Steps, 3)
	assert.Equal(t, []string{"ConfigMap a/c", "Namespace a", "Namespace default"}, names(v1.Steps[0].Cluster))
	assert.Contains(t, v1.Steps[0].Changes[0].Diff, "+++ Namespace a (after)\n@@ -0,0 +1,5 @@\n+apiVersion: v1")
	assert.Contains(t, v1.Steps[1].Changes[0].Diff, "+  labels:\n+    team: x\n")
	assert.Contains(t, v1.Steps[2].Changes[0].Diff, "-apiVersion: v1\n-kind: ConfigMap")
	assert.Equal(t, []string{"Namespace a", "Namespace default"}, names(v1.Steps[2].Cluster))
}
