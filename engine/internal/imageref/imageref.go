package imageref

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
)

// Info is what Kyverno knows of an image reference (its ImageInfo).
type Info struct {
	Registry         string // docker.io
	Name             string // the last path segment: busybox
	Path             string // the repository path: library/busybox
	Tag              string // "latest" when neither tag nor digest is given
	Digest           string // sha256:...
	Reference        string // docker.io/busybox:latest, or ...@digest
	ReferenceWithTag string // docker.io/busybox:latest (":" and an empty tag with only a digest)
}

// DefaultRegistry is the registry of a reference that names none.
const DefaultRegistry = "docker.io"

// maxPath is distribution's RepositoryNameTotalLengthMax.
const maxPath = 255

// Errors of distribution/reference and go-digest, with their messages.
var (
	ErrInvalidFormat     = errors.New("invalid reference format")
	ErrUppercase         = errors.New("repository name must be lowercase")
	ErrNameEmpty         = errors.New("repository name must have at least one component")
	ErrNameTooLong       = errors.New("repository name must not be more than 255 characters")
	ErrDigestFormat      = errors.New("invalid checksum digest format")
	ErrDigestLength      = errors.New("invalid checksum digest length")
	ErrDigestUnsupported = errors.New("unsupported digest algorithm")
)

// The reference grammar's regular expressions, compiled on first use
// (most runs parse no image).
var (
	compileOnce                      sync.Once
	referenceRE, nameRE, digestHexRE *regexp.Regexp
)

func compile() {
	const (
		alnum     = `[a-z0-9]+`
		separator = `(?:[._]|__|[-]+)`
		component = `(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])`
		host      = `(?:` + component + `(?:\.` + component + `)*|\[(?:[a-fA-F0-9:]+)\])`
		domain    = host + `(?::[0-9]+)?`
		pathPart  = alnum + `(?:` + separator + alnum + `)*`
		remote    = pathPart + `(?:/` + pathPart + `)*`
		name      = `(?:` + domain + `/)?` + remote
		tag       = `[\w][\w.-]{0,127}`
		digest    = `[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][[:xdigit:]]{32,}`
	)
	referenceRE = regexp.MustCompile(`^(` + name + `)(?::(` + tag + `))?(?:@(` + digest + `))?$`)
	nameRE = regexp.MustCompile(`^(?:(` + domain + `)/)?(` + remote + `)$`)
	digestHexRE = regexp.MustCompile(`^[a-f0-9]+$`)
}

// digestSizes are the hex lengths of the algorithms go-digest knows.
var digestSizes = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}

// Parse returns what Kyverno's GetImageInfo returns for image, with the
// same error message on failure.
func Parse(image string) (Info, error) {
	full := withDefaultRegistry(image)
	domain, path, tag, digest, err := parse(full)
	if err != nil {
		return Info{}, fmt.Errorf("bad image: %s, defaultRegistry: %s, enableDefaultRegistryMutation: true: %w", full, DefaultRegistry, err)
	}
	if tag == "" && digest == "" {
		tag = "latest"
	}
	i := Info{Registry: domain, Path: path, Name: path[strings.LastIndexByte(path, '/')+1:], Tag: tag, Digest: digest}
	if domain != "" {
		i.ReferenceWithTag = domain + "/" + path + ":" + tag
	} else {
		i.ReferenceWithTag = path + ":" + tag
	}
	i.Reference = i.String()
	return i, nil
}

// String is the normalized reference: registry/path, then @digest or :tag.
func (i Info) String() string {
	image := i.Path
	if i.Registry != "" {
		image = i.Registry + "/" + i.Path
	}
	if i.Digest != "" {
		return image + "@" + i.Digest
	}
	return image + ":" + i.Tag
}

// Value is the JSON value Kyverno's images context holds for one
// container: the ImageInfo's fields (empty ones left out, as its JSON tags
// say) and the JSON pointer of the image in the resource.
func (i Info) Value(pointer string) map[string]any {
	m := map[string]any{"name": i.Name, "path": i.Path, "jsonPointer": pointer,
		"reference": i.Reference, "referenceWithTag": i.ReferenceWithTag}
	put := func(k, v string) {
		if v != "" {
			m[k] = v
		}
	}
	put("registry", i.Registry)
	put("tag", i.Tag)
	put("digest", i.Digest)
	return m
}

// withDefaultRegistry puts the default registry in front of a reference
// whose first segment is not a registry host (Kyverno's addDefaultRegistry).
func withDefaultRegistry(name string) string {
	i := strings.IndexByte(name, '/')
	if i == -1 || (!strings.ContainsAny(name[:i], ".:") && name[:i] != "localhost" && strings.ToLower(name[:i]) == name[:i]) {
		return DefaultRegistry + "/" + name
	}
	return name
}

// parse is distribution/reference's Parse.
func parse(s string) (domain, path, tag, digest string, err error) {
	compileOnce.Do(compile)
	m := referenceRE.FindStringSubmatch(s)
	if m == nil {
		switch {
		case s == "":
			return "", "", "", "", ErrNameEmpty
		case referenceRE.MatchString(strings.ToLower(s)):
			return "", "", "", "", ErrUppercase
		}
		return "", "", "", "", ErrInvalidFormat
	}
	path = m[1]
	if n := nameRE.FindStringSubmatch(m[1]); n != nil {
		domain, path = n[1], n[2]
	}
	if len(path) > maxPath {
		return "", "", "", "", ErrNameTooLong
	}
	if m[3] != "" {
		if err := validDigest(m[3]); err != nil {
			return "", "", "", "", err
		}
	}
	return domain, path, m[2], m[3], nil
}

// validDigest is go-digest's Digest.Validate for the algorithms it knows.
func validDigest(d string) error {
	alg, hex, _ := strings.Cut(d, ":")
	size, ok := digestSizes[alg]
	if !ok {
		if strings.ToLower(alg) != alg {
			return ErrDigestFormat // go-digest's algorithm grammar is lowercase
		}
		return ErrDigestUnsupported
	}
	if len(hex) != size {
		return ErrDigestLength
	}
	if !digestHexRE.MatchString(hex) {
		return ErrDigestFormat
	}
	return nil
}
