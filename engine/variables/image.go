package variables

import "github.com/genplay/genplay/engine/internal/imageref"

// jpImageNormalize is Kyverno's image_normalize: the reference with the
// default registry and tag filled in ("nginx" is
// "docker.io/nginx:latest"), or @digest in place of the tag.
func jpImageNormalize(s string) (any, error) {
	info, err := imageref.Parse(s)
	if err != nil {
		return nil, fnError("image_normalize", err.Error())
	}
	return info.String(), nil
}
