package variables

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestImageNormalizeAsKyverno(t *testing.T) {
	e := New(Options{})
	const dg = "sha256:dead07b4d8ed7e29e98de0f4504d87e8880d4347859d839686a31da35a3b532f"
	for in, want := range map[string]string{
		"nginx":                     "docker.io/nginx:latest",
		"nginx:1.2":                 "docker.io/nginx:1.2",
		"library/nginx":             "docker.io/library/nginx:latest",
		"ghcr.io/a/b@" + dg:         "ghcr.io/a/b@" + dg,
		"ghcr.io/a/b:v1@" + dg:      "ghcr.io/a/b@" + dg,
		"localhost:5000/x":          "localhost:5000/x:latest",
		"registry.k8s.io/pause:3.9": "registry.k8s.io/pause:3.9",
	} {
		got, err := e.Search("image_normalize(`\""+in+"\"`)", nil)
		if assert.NoError(t, err, in) {
			assert.Equal(t, want, got, in)
		}
	}
	_, err := e.Search("image_normalize('NGINX')", nil)
	assert.EqualError(t, err, "JMESPath query failed: JMESPath function 'image_normalize': bad image: docker.io/NGINX, "+
		"defaultRegistry: docker.io, enableDefaultRegistryMutation: true: repository name must be lowercase")
}
