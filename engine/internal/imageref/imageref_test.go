package imageref

import (
	"strings"
	"testing"
)

func TestParseAsKyverno(t *testing.T) {
	const dg = "sha256:dead07b4d8ed7e29e98de0f4504d87e8880d4347859d839686a31da35a3b532f"
	for _, c := range []struct {
		image string
		want  Info
	}{
		{"nginx", Info{Registry: "docker.io", Path: "nginx", Name: "nginx", Tag: "latest",
			Reference: "docker.io/nginx:latest", ReferenceWithTag: "docker.io/nginx:latest"}},
		{"nginx:1.2", Info{Registry: "docker.io", Path: "nginx", Name: "nginx", Tag: "1.2",
			Reference: "docker.io/nginx:1.2", ReferenceWithTag: "docker.io/nginx:1.2"}},
		{"test/nginx", Info{Registry: "docker.io", Path: "test/nginx", Name: "nginx", Tag: "latest",
			Reference: "docker.io/test/nginx:latest", ReferenceWithTag: "docker.io/test/nginx:latest"}},
		{"ghcr.io/a/b@" + dg, Info{Registry: "ghcr.io", Path: "a/b", Name: "b", Digest: dg,
			Reference: "ghcr.io/a/b@" + dg, ReferenceWithTag: "ghcr.io/a/b:"}},
		{"ghcr.io/a/b:v1@" + dg, Info{Registry: "ghcr.io", Path: "a/b", Name: "b", Tag: "v1", Digest: dg,
			Reference: "ghcr.io/a/b@" + dg, ReferenceWithTag: "ghcr.io/a/b:v1"}},
		{"localhost:5000/x", Info{Registry: "localhost:5000", Path: "x", Name: "x", Tag: "latest",
			Reference: "localhost:5000/x:latest", ReferenceWithTag: "localhost:5000/x:latest"}},
		{"localhost/x:2", Info{Registry: "localhost", Path: "x", Name: "x", Tag: "2",
			Reference: "localhost/x:2", ReferenceWithTag: "localhost/x:2"}},
		// An uppercase first segment is a host, as in Kyverno.
		{"Registry/app", Info{Registry: "Registry", Path: "app", Name: "app", Tag: "latest",
			Reference: "Registry/app:latest", ReferenceWithTag: "Registry/app:latest"}},
		{"[::1]:5000/app:v2", Info{Registry: "[::1]:5000", Path: "app", Name: "app", Tag: "v2",
			Reference: "[::1]:5000/app:v2", ReferenceWithTag: "[::1]:5000/app:v2"}},
	} {
		got, err := Parse(c.image)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.image, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q) =\n %+v, want\n %+v", c.image, got, c.want)
		}
	}
}

func TestParseErrorsAsKyverno(t *testing.T) {
	for image, want := range map[string]string{
		"":               "bad image: docker.io/, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: invalid reference format",
		"NGINX":          "bad image: docker.io/NGINX, defaultRegistry: docker.io, enableDefaultRegistryMutation: true: repository name must be lowercase",
		"nginx:":         "invalid reference format",
		"a/b@sha256:abc": "invalid reference format",
		"a@sha256:" + strings.Repeat("a", 63) + "b0": "invalid checksum digest length",
		"a@md5:" + strings.Repeat("a", 32):           "unsupported digest algorithm",
		"a@sha256:" + strings.Repeat("A", 64):        "invalid checksum digest format",
		"a/" + strings.Repeat("b", 254):              "repository name must not be more than 255 characters",
	} {
		_, err := Parse(image)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error containing %q", image, err, want)
		}
	}
}

func TestValueLeavesEmptyFieldsOut(t *testing.T) {
	i, err := Parse("ghcr.io/a/b@sha256:" + strings.Repeat("0", 64))
	if err != nil {
		t.Fatal(err)
	}
	v := i.Value("/spec/containers/0/image")
	if _, ok := v["tag"]; ok {
		t.Errorf("tag is empty and must be left out: %v", v)
	}
	if v["jsonPointer"] != "/spec/containers/0/image" || v["registry"] != "ghcr.io" || v["name"] != "b" || v["path"] != "a/b" {
		t.Errorf("Value = %v", v)
	}
}
