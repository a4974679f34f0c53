package compiler

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
)

// The image library (S:extensions/cel/libs/image): references parsed as
// go-containerregistry's name.ParseReference does with its default options
// (Docker Hub is index.docker.io, single-component repositories get
// library/, a missing tag is latest).

var imageRefType = cel.OpaqueType("kyverno.image")

type imageRef struct {
	original   string
	registry   string
	repository string
	tag        string
	digest     string
}

const defaultRegistry = "index.docker.io"

var (
	tagRE      = regexp.MustCompile(`^[\w][\w.-]{0,127}$`)
	digestRE   = regexp.MustCompile(`^sha256:[a-f0-9]{64}$`)
	repoPartRE = regexp.MustCompile(`^[a-z0-9]+(?:(?:[._]|__|[-]*)[a-z0-9]+)*$`)
	registryRE = regexp.MustCompile(`^[a-zA-Z0-9.-]+(:[0-9]+)?$`)
)

// parseImageReference mirrors name.ParseReference: a digest reference
// (repo@sha256:…) or else a tag reference (repo[:tag]).
func parseImageReference(s string) (*imageRef, error) {
	ref := &imageRef{original: s}
	base := s
	if i := strings.Index(s, "@"); i >= 0 {
		base, ref.digest = s[:i], s[i+1:]
		if !digestRE.MatchString(ref.digest) {
			return nil, fmt.Errorf("could not parse reference: %s", s)
		}
	}
	repo := base
	if i := strings.LastIndex(base, ":"); i >= 0 && !strings.Contains(base[i:], "/") {
		repo = base[:i]
		tag := base[i+1:]
		if !tagRE.MatchString(tag) {
			return nil, fmt.Errorf("could not parse reference: %s", s)
		}
		if ref.digest == "" {
			ref.tag = tag
		}
	}
	if ref.digest == "" && ref.tag == "" {
		ref.tag = "latest"
	}
	registry := defaultRegistry
	if i := strings.Index(repo, "/"); i >= 0 {
		first := repo[:i]
		if strings.ContainsAny(first, ".:") || first == "localhost" {
			registry, repo = first, repo[i+1:]
			if !registryRE.MatchString(registry) {
				return nil, fmt.Errorf("could not parse reference: %s", s)
			}
		}
	}
	if registry == "docker.io" {
		registry = defaultRegistry
	}
	if repo == "" {
		return nil, fmt.Errorf("could not parse reference: %s", s)
	}
	for _, part := range strings.Split(repo, "/") {
		if !repoPartRE.MatchString(part) {
			return nil, fmt.Errorf("could not parse reference: %s", s)
		}
	}
	if registry == defaultRegistry && !strings.Contains(repo, "/") {
		repo = "library/" + repo
	}
	ref.registry, ref.repository = registry, repo
	return ref, nil
}

func (r *imageRef) identifier() string {
	if r.digest != "" {
		return r.digest
	}
	return r.tag
}

func (r *imageRef) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.String {
		return r.original, nil
	}
	return nil, fmt.Errorf("type conversion error from kyverno.image to %v", t)
}
func (r *imageRef) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.StringType:
		return types.String(r.original)
	case types.TypeType:
		return imageRefType
	}
	return errorf("type conversion error from kyverno.image to %s", t.TypeName())
}
func (r *imageRef) Equal(o ref.Val) ref.Val {
	x, ok := o.(*imageRef)
	return types.Bool(ok && *x == *r)
}
func (r *imageRef) Type() ref.Type { return imageRefType }
func (r *imageRef) Value() any     { return r }

func imageLib() []cel.EnvOption {
	parse := func(v ref.Val) ref.Val {
		r, err := parseImageReference(str(v))
		if err != nil {
			return errorf("%v", err)
		}
		return r
	}
	member := func(name string, out *cel.Type, f func(*imageRef) ref.Val) cel.EnvOption {
		return cel.Function(name, cel.MemberOverload("image_"+name, []*cel.Type{imageRefType}, out,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return f(v.(*imageRef)) })))
	}
	return []cel.EnvOption{
		cel.Function("parseImageReference", cel.Overload("parse_image_reference_string", []*cel.Type{cel.StringType}, imageRefType, cel.UnaryBinding(parse))),
		cel.Function("image", cel.Overload("image_string", []*cel.Type{cel.StringType}, imageRefType, cel.UnaryBinding(parse))),
		cel.Function("isImage", cel.Overload("is_image_string", []*cel.Type{cel.StringType}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				_, err := parseImageReference(str(v))
				return types.Bool(err == nil)
			}))),
		member("registry", cel.StringType, func(r *imageRef) ref.Val { return types.String(r.registry) }),
		member("repository", cel.StringType, func(r *imageRef) ref.Val { return types.String(r.repository) }),
		member("identifier", cel.StringType, func(r *imageRef) ref.Val { return types.String(r.identifier()) }),
		member("tag", cel.StringType, func(r *imageRef) ref.Val { return types.String(r.tag) }),
		member("digest", cel.StringType, func(r *imageRef) ref.Val { return types.String(r.digest) }),
		member("containsDigest", cel.BoolType, func(r *imageRef) ref.Val { return types.Bool(r.digest != "") }),
	}
}
