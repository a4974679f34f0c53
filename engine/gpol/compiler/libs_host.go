package compiler

import (
	"errors"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// The libraries whose calls reach the Host: generator
// (S:extensions/cel/libs/generator), resource (S:…/resource), globalContext
// (S:…/globalcontext), http (S:…/http) and image.GetMetadata
// (S:…/imagedata). Each is a variable of an opaque type; its functions are
// member overloads, with the PascalCase name and the 1.18+ camelCase alias.

var (
	listOfObjects = cel.ListType(cel.MapType(cel.StringType, cel.DynType))
	objectType    = cel.MapType(cel.StringType, cel.AnyType)
	labelsType    = cel.MapType(cel.StringType, cel.StringType)
)

// both declares a function under its PascalCase name and its camelCase alias.
func both(name string, overloads func(prefix string) []cel.FunctionOpt) []cel.EnvOption {
	camel := string(name[0]+'a'-'A') + name[1:]
	return []cel.EnvOption{
		cel.Function(name, overloads(name)...),
		cel.Function(camel, overloads(camel)...),
	}
}

func generatorLib(namespaced bool) []cel.EnvOption {
	if namespaced {
		return both("Apply", func(n string) []cel.FunctionOpt {
			return []cel.FunctionOpt{cel.MemberOverload("generator_"+n+"_list",
				[]*cel.Type{generatorType, listOfObjects}, cel.BoolType,
				cel.BinaryBinding(func(g, list ref.Val) ref.Val {
					e := ev(g)
					return e.generate(e.p.namespace, list)
				}))}
		})
	}
	return both("Apply", func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{cel.MemberOverload("generator_"+n+"_string_list",
			[]*cel.Type{generatorType, cel.StringType, listOfObjects}, cel.BoolType,
			cel.FunctionBinding(func(args ...ref.Val) ref.Val {
				return ev(args[0]).generate(string(args[1].(types.String)), args[2])
			}))}
	})
}

// generate is generator.apply: List objects are expanded to their items.
func (e *evaluation) generate(namespace string, list ref.Val) ref.Val {
	l, ok := list.(traits.Lister)
	if !ok {
		return errorf("failed to generate resources: expected a list, got %s", list.Type().TypeName())
	}
	var objects []map[string]any
	it := l.Iterator()
	for it.HasNext() == types.True {
		v, err := fromCEL(it.Next())
		if err != nil {
			return errorf("failed to generate resources: %v", err)
		}
		m, ok := v.(map[string]any)
		if !ok {
			return errorf("failed to generate resources: an element is not an object")
		}
		if items, ok := m["items"].([]any); ok {
			for _, item := range items {
				if im, ok := item.(map[string]any); ok {
					objects = append(objects, im)
				}
			}
		} else {
			objects = append(objects, m)
		}
		if len(objects) > MaxListSize {
			return errorf("failed to generate resources: more than %d objects", MaxListSize)
		}
	}
	if err := e.host.Generate(namespace, objects); err != nil {
		return hostError("failed to generate resources", err)
	}
	return types.True
}

func resourceLib(namespaced bool) []cel.EnvOption {
	s, m := cel.StringType, objectType
	get := func(n string) []cel.FunctionOpt {
		if namespaced {
			return []cel.FunctionOpt{
				cel.MemberOverload("resource_"+n+"_string_string_string", []*cel.Type{resourceType, s, s, s}, m,
					cel.FunctionBinding(func(a ...ref.Val) ref.Val {
						e := ev(a[0])
						return e.get(str(a[1]), str(a[2]), e.p.namespace, str(a[3]))
					})),
				cel.MemberOverload("resource_"+n+"_gvr_string", []*cel.Type{resourceType, gvrType, s}, m,
					cel.FunctionBinding(func(a ...ref.Val) ref.Val {
						e, g := ev(a[0]), a[1].(*opaque).gvr
						return e.get(g.apiVersion(), g.resource, e.p.namespace, str(a[2]))
					})),
			}
		}
		return []cel.FunctionOpt{
			cel.MemberOverload("resource_"+n+"_string_string_string_string", []*cel.Type{resourceType, s, s, s, s}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					return ev(a[0]).get(str(a[1]), str(a[2]), str(a[3]), str(a[4]))
				})),
			cel.MemberOverload("resource_"+n+"_gvr_string_string", []*cel.Type{resourceType, gvrType, s, s}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					g := a[1].(*opaque).gvr
					return ev(a[0]).get(g.apiVersion(), g.resource, str(a[2]), str(a[3]))
				})),
		}
	}
	list := func(n string) []cel.FunctionOpt {
		if namespaced {
			return []cel.FunctionOpt{
				cel.MemberOverload("resource_"+n+"_string_string", []*cel.Type{resourceType, s, s}, m,
					cel.FunctionBinding(func(a ...ref.Val) ref.Val {
						e := ev(a[0])
						return e.list(str(a[1]), str(a[2]), e.p.namespace, nil)
					})),
				cel.MemberOverload("resource_"+n+"_string_string_labels", []*cel.Type{resourceType, s, s, labelsType}, m,
					cel.FunctionBinding(func(a ...ref.Val) ref.Val {
						e := ev(a[0])
						return e.list(str(a[1]), str(a[2]), e.p.namespace, a[3])
					})),
				cel.MemberOverload("resource_"+n+"_gvr", []*cel.Type{resourceType, gvrType}, m,
					cel.BinaryBinding(func(r, gv ref.Val) ref.Val {
						e, g := ev(r), gv.(*opaque).gvr
						return e.list(g.apiVersion(), g.resource, e.p.namespace, nil)
					})),
				cel.MemberOverload("resource_"+n+"_gvr_labels", []*cel.Type{resourceType, gvrType, labelsType}, m,
					cel.FunctionBinding(func(a ...ref.Val) ref.Val {
						e, g := ev(a[0]), a[1].(*opaque).gvr
						return e.list(g.apiVersion(), g.resource, e.p.namespace, a[2])
					})),
			}
		}
		return []cel.FunctionOpt{
			cel.MemberOverload("resource_"+n+"_string_string_string", []*cel.Type{resourceType, s, s, s}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					return ev(a[0]).list(str(a[1]), str(a[2]), str(a[3]), nil)
				})),
			cel.MemberOverload("resource_"+n+"_string_string_string_labels", []*cel.Type{resourceType, s, s, s, labelsType}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					return ev(a[0]).list(str(a[1]), str(a[2]), str(a[3]), a[4])
				})),
			cel.MemberOverload("resource_"+n+"_gvr_string", []*cel.Type{resourceType, gvrType, s}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					g := a[1].(*opaque).gvr
					return ev(a[0]).list(g.apiVersion(), g.resource, str(a[2]), nil)
				})),
			cel.MemberOverload("resource_"+n+"_gvr_string_labels", []*cel.Type{resourceType, gvrType, s, labelsType}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					g := a[1].(*opaque).gvr
					return ev(a[0]).list(g.apiVersion(), g.resource, str(a[2]), a[3])
				})),
		}
	}
	post := func(n string) []cel.FunctionOpt {
		opts := []cel.FunctionOpt{
			cel.MemberOverload("resource_"+n+"_string_string_map", []*cel.Type{resourceType, s, s, m}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					e := ev(a[0])
					return e.post(str(a[1]), str(a[2]), e.p.namespace, a[3])
				})),
		}
		if !namespaced {
			opts = append(opts, cel.MemberOverload("resource_"+n+"_string_string_string_map", []*cel.Type{resourceType, s, s, s, m}, m,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val {
					return ev(a[0]).post(str(a[1]), str(a[2]), str(a[3]), a[4])
				})))
		}
		return opts
	}
	toGVR := func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{cel.MemberOverload("resource_"+n+"_string_string", []*cel.Type{resourceType, s, s}, gvrType,
			cel.FunctionBinding(func(a ...ref.Val) ref.Val {
				e := ev(a[0])
				g, v, r, err := e.host.ToGVR(str(a[1]), str(a[2]))
				if err != nil {
					return errorf("failed to map kind to resource: %v", err)
				}
				return &opaque{typ: gvrType, gvr: &gvr{g, v, r}}
			}))}
	}
	var opts []cel.EnvOption
	opts = append(opts, both("Get", get)...)
	opts = append(opts, both("List", list)...)
	opts = append(opts, both("Post", post)...)
	opts = append(opts, both("ToGVR", toGVR)...)
	return opts
}

// hostError is the CEL error of a call the Host failed, in the SDK's
// words: an API error that is Forbidden or Unauthorized (an HTTP status of
// 403 or 401) is "permission denied" (S:extensions/cel/libs/{generator,
// resource}/impl.go).
func hostError(what string, err error) ref.Val {
	var status interface{ HTTPStatus() int }
	if errors.As(err, &status) && (status.HTTPStatus() == 403 || status.HTTPStatus() == 401) {
		return errorf("%s: permission denied: %v", what, err)
	}
	return errorf("%s: %v", what, err)
}

func str(v ref.Val) string { s, _ := v.(types.String); return string(s) }

func (e *evaluation) get(apiVersion, resource, namespace, name string) ref.Val {
	obj, err := e.host.Get(apiVersion, resource, namespace, name)
	if err != nil {
		return hostError("failed to get resource", err)
	}
	if obj == nil {
		return types.NullValue
	}
	return e.native(obj)
}

func (e *evaluation) list(apiVersion, resource, namespace string, labels ref.Val) ref.Val {
	var sel map[string]string
	if labels != nil {
		v, err := fromCEL(labels)
		if err != nil {
			return errorf("failed to list resource: %v", err)
		}
		sel = map[string]string{}
		for k, x := range v.(map[string]any) {
			sel[k], _ = x.(string)
		}
	}
	obj, err := e.host.List(apiVersion, resource, namespace, sel)
	if err != nil {
		return hostError("failed to list resource", err)
	}
	if items, ok := obj["items"].([]any); ok && len(items) > MaxListSize {
		return errorf("failed to list resource: %d items is more than the limit of %d", len(items), MaxListSize)
	}
	return e.native(obj)
}

func (e *evaluation) post(apiVersion, resource, namespace string, data ref.Val) ref.Val {
	v, err := fromCEL(data)
	if err != nil {
		return errorf("failed to create resource: %v", err)
	}
	obj, _ := v.(map[string]any)
	out, err := e.host.Post(apiVersion, resource, namespace, obj)
	if err != nil {
		return hostError("failed to create resource", err)
	}
	return e.native(out)
}

// native hands a Host answer to CEL.
func (e *evaluation) native(v any) ref.Val {
	if v == nil {
		return types.NullValue
	}
	return types.DefaultTypeAdapter.NativeToValue(toCEL(v))
}

func globalContextLib() []cel.EnvOption {
	s := cel.StringType
	return both("Get", func(n string) []cel.FunctionOpt {
		call := func(e *evaluation, name, projection string) ref.Val {
			if e.p.namespace != "" && e.p.opts.DenyGlobalContextInNamespaced {
				return errorf("failed to get global reference: globalContext.* is not allowed in namespaced policies")
			}
			v, err := e.host.GlobalContext(name, projection)
			if err != nil {
				return errorf("failed to get global reference: %v", err)
			}
			return e.native(v)
		}
		return []cel.FunctionOpt{
			cel.MemberOverload("globalcontext_"+n+"_string", []*cel.Type{globalContextType, s}, cel.DynType,
				cel.BinaryBinding(func(g, name ref.Val) ref.Val { return call(ev(g), str(name), "") })),
			cel.MemberOverload("globalcontext_"+n+"_string_string", []*cel.Type{globalContextType, s, s}, cel.DynType,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val { return call(ev(a[0]), str(a[1]), str(a[2])) })),
		}
	})
}

func httpLib() []cel.EnvOption {
	s, d := cel.StringType, cel.DynType
	call := func(e *evaluation, method string, url, body, headers ref.Val) ref.Val {
		if e.p.namespace != "" && !e.p.opts.AllowHTTPInNamespacedPolicies {
			return errorf("http calls are not allowed in namespaced policies: %s", str(url))
		}
		var b any
		if body != nil {
			var err error
			if b, err = fromCEL(body); err != nil {
				return errorf("request failed: %v", err)
			}
		}
		var h map[string]string
		if headers != nil {
			hv, err := fromCEL(headers)
			if err != nil {
				return errorf("request failed: %v", err)
			}
			h = map[string]string{}
			for k, x := range hv.(map[string]any) {
				h[k], _ = x.(string)
			}
		}
		out, err := e.host.HTTP(method, str(url), b, h)
		if err != nil {
			return errorf("request failed: %v", err)
		}
		return e.native(out)
	}
	var opts []cel.EnvOption
	opts = append(opts, both("Get", func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{
			cel.MemberOverload("http_"+n+"_string", []*cel.Type{httpType, s}, d,
				cel.BinaryBinding(func(h, u ref.Val) ref.Val { return call(ev(h), "GET", u, nil, nil) })),
			cel.MemberOverload("http_"+n+"_string_headers", []*cel.Type{httpType, s, labelsType}, d,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val { return call(ev(a[0]), "GET", a[1], nil, a[2]) })),
		}
	})...)
	opts = append(opts, both("Post", func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{
			cel.MemberOverload("http_"+n+"_string_dyn", []*cel.Type{httpType, s, d}, d,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val { return call(ev(a[0]), "POST", a[1], a[2], nil) })),
			cel.MemberOverload("http_"+n+"_string_dyn_headers", []*cel.Type{httpType, s, d, labelsType}, d,
				cel.FunctionBinding(func(a ...ref.Val) ref.Val { return call(ev(a[0]), "POST", a[1], a[2], a[3]) })),
		}
	})...)
	opts = append(opts, both("Client", func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{cel.MemberOverload("http_"+n+"_string", []*cel.Type{httpType, s}, httpType,
			cel.BinaryBinding(func(h, _ ref.Val) ref.Val { return h }))}
	})...)
	return opts
}

func imageDataLib() []cel.EnvOption {
	return both("GetMetadata", func(n string) []cel.FunctionOpt {
		return []cel.FunctionOpt{cel.MemberOverload("imagedata_"+n+"_string", []*cel.Type{imageDataType, cel.StringType}, cel.DynType,
			cel.BinaryBinding(func(i, ref_ ref.Val) ref.Val {
				e := ev(i)
				v, err := e.host.ImageData(str(ref_))
				if err != nil {
					return errorf("failed to get image data: %v", err)
				}
				return e.native(v)
			}))}
	})
}
