package cluster

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// writtenNames renders what TakeWritten lists as "ref: before -> after"
// resourceVersions ("-" for absent).
func writtenNames(ws []Written) []string {
	rv := func(o resource.Object) string {
		if o == nil {
			return "-"
		}
		return o.ResourceVersion()
	}
	var out []string
	for _, w := range ws {
		o := w.After
		if o == nil {
			o = w.Before
		}
		out = append(out, o.Ref().String()+": "+rv(w.Before)+" -> "+rv(w.After))
	}
	return out
}

func TestTakeWrittenListsWhatChangedSinceTheLastTake(t *testing.T) {
	s := NewStore(nil)
	assert.Nil(t, s.TakeWritten(), "off until RecordWrites")
	mustCreate(t, s, namespace("a"))
	s.RecordWrites()
	assert.Empty(t, s.TakeWritten(), "what was written before it is not listed")

	mustCreate(t, s, configMap("a", "x", nil), configMap("a", "y", nil))
	cm, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "x"})
	require.NoError(t, err)
	cm["data"] = map[string]any{"key": "changed"}
	_, err = s.Update(cm)
	require.NoError(t, err)
	assert.Equal(t, []string{"ConfigMap a/x: - -> 4", "ConfigMap a/y: - -> 3"}, writtenNames(s.TakeWritten()),
		"a created and updated object once, with its latest version, sorted")

	same, err := s.Get(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "y"})
	require.NoError(t, err)
	_, err = s.Update(same)
	require.NoError(t, err)
	assert.Empty(t, s.TakeWritten(), "an update that changes nothing writes nothing")

	mustCreate(t, s, configMap("a", "z", nil))
	_, err = s.Delete(resource.Ref{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "z"})
	require.NoError(t, err)
	assert.Empty(t, s.TakeWritten(), "created and deleted in between: nothing changed")

	_, err = s.Delete(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "a"})
	require.NoError(t, err)
	assert.Equal(t, []string{"ConfigMap a/x: 4 -> -", "ConfigMap a/y: 3 -> -", "Namespace a: 1 -> -"}, writtenNames(s.TakeWritten()),
		"a namespace's deletion takes its contents")

	mustCreate(t, s, namespace("a"))
	w := s.TakeWritten()
	require.Len(t, w, 1)
	assert.Nil(t, w[0].Before)
	got, err := s.View(resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: "a"})
	require.NoError(t, err)
	assert.True(t, resource.Same(got, w[0].After), "the store's own object, not a copy")
}
