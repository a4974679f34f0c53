// Package imageref parses container image references as Kyverno does
// (pkg/utils/image GetImageInfo, over the grammar of
// github.com/distribution/reference), with Kyverno's default configuration:
// docker.io is the default registry and default-registry mutation is on.
// The engine's images context variable and the image_normalize JMESPath
// function share it.
//
// A reference whose first path segment is not a host (no "." or ":", not
// "localhost", lowercase) gets "docker.io/" in front before it is parsed,
// so "nginx" is registry docker.io, path nginx, name nginx and tag latest.
// Kyverno parses without distribution's normalisation: there is no
// "library/" prefix, and the path of "nginx" is "nginx".
package imageref
