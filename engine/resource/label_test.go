package resource

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestLabelAndAnnotationAgreeWithTheCopies(t *testing.T) {
	o := Object{"metadata": map[string]any{
		"labels":      map[string]any{"app": "web", "empty": "", "count": float64(3), "flag": true, "gone": nil},
		"annotations": map[string]any{"note": "hi", "n": float64(1.5)},
	}}
	labels, annotations := o.Labels(), o.Annotations()
	for _, key := range []string{"app", "empty", "count", "flag", "gone", "missing"} {
		t.Run("label "+key+" reads as Labels()["+key+"]", func(t *testing.T) {
			want, wantOK := labels[key]
			got, ok := o.Label(key)
			assert.Equal(t, wantOK, ok)
			assert.Equal(t, want, got)
		})
	}
	for _, key := range []string{"note", "n", "missing"} {
		t.Run("annotation "+key+" reads as Annotations()["+key+"]", func(t *testing.T) {
			want, wantOK := annotations[key]
			got, ok := o.Annotation(key)
			assert.Equal(t, wantOK, ok)
			assert.Equal(t, want, got)
		})
	}
	t.Run("an object without metadata has no labels", func(t *testing.T) {
		_, ok := Object{}.Label("app")
		assert.False(t, ok)
	})
}
