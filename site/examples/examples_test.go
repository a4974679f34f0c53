package examples

import (
	"io/fs"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

func TestAll(t *testing.T) {
	list, err := All()
	require.NoError(t, err)
	require.NotEmpty(t, list)

	t.Run("every yaml file is listed in examples.json", func(t *testing.T) {
		files, err := fs.Glob(FS, "*.yaml")
		require.NoError(t, err)
		var listed []string
		for _, e := range list {
			listed = append(listed, e.File)
		}
		assert.ElementsMatch(t, files, listed)
	})

	for _, e := range list {
		t.Run(e.File+" is a chainsaw Test with inline resources", func(t *testing.T) {
			assert.NotEmpty(t, e.Title)
			var test struct {
				APIVersion string `json:"apiVersion"`
				Kind       string `json:"kind"`
				Metadata   struct {
					Name string `json:"name"`
				} `json:"metadata"`
				Spec struct {
					Description string `json:"description"`
					Steps       []struct {
						Name string           `json:"name"`
						Try  []map[string]any `json:"try"`
					} `json:"steps"`
				} `json:"spec"`
			}
			require.NoError(t, yaml.UnmarshalStrict(e.Text, &test))
			assert.Equal(t, "chainsaw.kyverno.io/v1alpha1", test.APIVersion)
			assert.Equal(t, "Test", test.Kind)
			assert.Equal(t, e.File, test.Metadata.Name+".yaml", "the file is named after the test")
			assert.NotEmpty(t, test.Spec.Description)
			require.NotEmpty(t, test.Spec.Steps)
			for _, step := range test.Spec.Steps {
				assert.NotEmpty(t, step.Name)
				for _, op := range step.Try {
					for kind, body := range op {
						m, ok := body.(map[string]any)
						require.True(t, ok, "%s in step %q", kind, step.Name)
						assert.NotContains(t, m, "file", "%s in step %q must be inline", kind, step.Name)
					}
				}
			}
		})
	}
}
