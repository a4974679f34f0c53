package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// cm is a ConfigMap "c" in namespace "ns" with data and optional
// annotations.
func cm(data map[string]any, annotations map[string]any) resource.Object {
	o := obj("v1", "ConfigMap", "ns", "c", nil)
	if data != nil {
		o["data"] = data
	}
	if annotations != nil {
		o.Metadata()["annotations"] = annotations
	}
	return o
}

// write is one write of a table case: a server-side apply by a field
// manager, or a Create or Update by another writer.
type write struct {
	apply  string // the field manager; "" for Create (first) or Update
	object resource.Object
}

func TestServerSideApplyKeepsWhatOtherWritersOwn(t *testing.T) {
	const kyverno, other = "kyverno-generate", "other-apply"
	tests := []struct {
		name    string
		writes  []write
		data    map[string]any
		annots  map[string]any
		comment string
	}{
		{
			name:   "an apply creates a missing object",
			writes: []write{{kyverno, cm(map[string]any{"a": "1"}, nil)}},
			data:   map[string]any{"a": "1"},
		},
		{
			name: "a field the manager applied and no longer applies goes",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1", "b": "2"}, nil)},
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
			},
			data: map[string]any{"a": "1"},
		},
		{
			name: "another writer's field beside the manager's stays when the manager drops its own",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
				{"", cm(map[string]any{"a": "1", "theirs": "x"}, nil)},
				{kyverno, cm(nil, map[string]any{"k": "v"})},
			},
			data:    map[string]any{"theirs": "x"},
			annots:  map[string]any{"k": "v"},
			comment: "structured-merge-diff removes only the fields no manager owns any more, not the map they are in",
		},
		{
			name: "a field another writer changed is theirs: the manager's dropping it leaves it",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1", "b": "2"}, nil)},
				{"", cm(map[string]any{"a": "1", "b": "changed"}, nil)},
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
			},
			data: map[string]any{"a": "1", "b": "changed"},
		},
		{
			name: "a field its creator set is still the creator's after the manager applied the same value",
			writes: []write{
				{"", cm(map[string]any{"a": "1", "b": "2"}, nil)},
				{kyverno, cm(map[string]any{"a": "1", "b": "2"}, nil)},
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
			},
			data: map[string]any{"a": "1", "b": "2"},
		},
		{
			name: "a forced apply takes a field another writer changed back",
			writes: []write{
				{kyverno, cm(map[string]any{"key": "original"}, nil)},
				{"", cm(map[string]any{"key": "drifted"}, map[string]any{"other-controller-managed": "true"})},
				{kyverno, cm(map[string]any{"key": "original"}, nil)},
				{kyverno, cm(map[string]any{"other": "x"}, nil)},
			},
			data:    map[string]any{"other": "x"},
			annots:  map[string]any{"other-controller-managed": "true"},
			comment: "taken back, the field is the manager's again, and goes when it drops it (Kyverno's ssa/update test)",
		},
		{
			name: "a map the removal empties goes",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1"}, map[string]any{"k": "v"})},
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
			},
			data: map[string]any{"a": "1"},
		},
		{
			name: "another apply manager's fields stay",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
				{other, cm(map[string]any{"o": "2"}, nil)},
				{kyverno, cm(map[string]any{"b": "3"}, nil)},
			},
			data: map[string]any{"o": "2", "b": "3"},
		},
		{
			name: "a field both apply managers set stays when one drops it",
			writes: []write{
				{kyverno, cm(map[string]any{"a": "1"}, nil)},
				{other, cm(map[string]any{"a": "1"}, nil)},
				{kyverno, cm(map[string]any{"b": "2"}, nil)},
			},
			data: map[string]any{"a": "1", "b": "2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewStore(nil)
			mustCreate(t, s, namespace("ns"))
			for i, w := range tt.writes {
				var err error
				switch {
				case w.apply != "":
					_, _, err = s.Apply(w.object, w.apply, false)
				case i == 0:
					_, err = s.Create(w.object)
				default:
					_, err = s.Update(w.object)
				}
				require.NoError(t, err, "write %d", i)
			}
			got, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"})
			require.NoError(t, err)
			assert.Equal(t, tt.data, got["data"], tt.comment)
			annots, _ := got.Nested("metadata", "annotations")
			if tt.annots == nil {
				assert.Nil(t, annots)
			} else {
				assert.Equal(t, tt.annots, annots)
			}
		})
	}
}

func TestServerSideApplyLeavesStatusAlone(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("ns"))
	withStatus := func(st string) resource.Object {
		o := obj("example.com/v1", "Widget", "ns", "w", nil)
		o["spec"] = map[string]any{"size": float64(1)}
		o["status"] = map[string]any{"phase": st}
		return o
	}
	created, wrote, err := s.Apply(withStatus("applied"), "kyverno-generate", false)
	require.NoError(t, err)
	assert.True(t, wrote)
	assert.NotContains(t, created, "status", "an apply sets no status, even on create")

	_, err = s.Update(withStatus("Ready"))
	require.NoError(t, err)
	after, _, err := s.Apply(withStatus("applied"), "kyverno-generate", false)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"phase": "Ready"}, after["status"], "the live status stays, the applied one is ignored")
}

func TestServerSideApplyWritesOnlyWhatChanges(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("ns"))

	planned, wrote, err := s.Apply(cm(map[string]any{"a": "1"}, nil), "m", true)
	require.NoError(t, err)
	assert.Nil(t, planned, "a dry run of a create has nothing to show yet")
	assert.True(t, wrote)
	assert.Equal(t, 1, s.Len(), "a dry run stores nothing")

	first, _, err := s.Apply(cm(map[string]any{"a": "1"}, nil), "m", false)
	require.NoError(t, err)
	again, wrote, err := s.Apply(cm(map[string]any{"a": "1"}, nil), "m", false)
	require.NoError(t, err)
	assert.False(t, wrote, "an apply that changes nothing writes nothing")
	assert.Equal(t, first.ResourceVersion(), again.ResourceVersion())

	planned, wrote, err = s.Apply(cm(map[string]any{"a": "2"}, nil), "m", true)
	require.NoError(t, err)
	assert.True(t, wrote)
	assert.Equal(t, map[string]any{"a": "2"}, planned["data"], "a dry run shows what it would store")
	live, err := s.Get(first.Ref())
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "1"}, live["data"], "and stores nothing")
}

func TestDeletingAnObjectForgetsWhoOwnedItsFields(t *testing.T) {
	s := NewStore(nil)
	mustCreate(t, s, namespace("ns"))
	_, _, err := s.Apply(cm(map[string]any{"a": "1"}, nil), "m", false)
	require.NoError(t, err)
	_, err = s.Delete(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"})
	require.NoError(t, err)
	_, err = s.Create(cm(map[string]any{"a": "1"}, nil))
	require.NoError(t, err)
	_, _, err = s.Apply(cm(map[string]any{"b": "2"}, nil), "m", false)
	require.NoError(t, err)
	got, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "c"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "1", "b": "2"}, got["data"], "the new object's a is its creator's")
}

func TestFieldSets(t *testing.T) {
	set := fieldSet{"data": {"a": nil}, "metadata": {"labels": nil}}
	for _, tt := range []struct {
		path []string
		want bool
	}{
		{[]string{"data", "a"}, true},
		{[]string{"data"}, true},
		{[]string{"data", "b"}, false},
		{[]string{"metadata", "labels"}, true},
		{[]string{"metadata", "labels", "x"}, false},
		{[]string{"spec"}, false},
	} {
		assert.Equal(t, tt.want, set.covers(tt.path), "%v", tt.path)
	}
	changed := fieldsChanged(cm(map[string]any{"a": "1", "b": "2"}, nil), cm(map[string]any{"a": "1", "b": "3", "c": "4"}, nil))
	assert.Equal(t, fieldSet{"data": {"b": nil, "c": nil}}, changed)
	s2 := fieldSet{"data": {"a": nil, "b": nil}}
	s2.remove(changed)
	assert.Equal(t, fieldSet{"data": {"a": nil}}, s2)
	s2.add(fieldSet{"data": {"c": nil}, "spec": nil})
	assert.Equal(t, fieldSet{"data": {"a": nil, "c": nil}, "spec": nil}, s2)
	assert.Equal(t, fieldSet{"data": {"c": nil}}, s2.within(changed))
	assert.Equal(t, fieldSet{"metadata": {"labels": {"l": nil}}},
		fieldsOf(resource.Object{"apiVersion": "v1", "kind": "X", "status": map[string]any{"s": 1.0},
			"metadata": map[string]any{"name": "n", "uid": "u", "resourceVersion": "1", "labels": map[string]any{"l": "v"}}}),
		"identity, server metadata and status are nobody's")
}
