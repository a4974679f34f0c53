package compiler

import (
	"encoding/base64"
	"fmt"
	"math"
	"reflect"
	"sort"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Opaque types of the library contexts (the names Kyverno declares).
var (
	generatorType     = cel.OpaqueType("generator.Context")
	resourceType      = cel.OpaqueType("resource.Context")
	gvrType           = cel.OpaqueType("schema.GroupVersionResource")
	globalContextType = cel.OpaqueType("globalcontext.Context")
	httpType          = cel.OpaqueType("http.Context")
	imageDataType     = cel.OpaqueType("imagedata.Context")
	jsonType          = cel.OpaqueType("json.Json")
	yamlType          = cel.OpaqueType("yaml.Yaml")
	stateType         = cel.OpaqueType("genplay.Evaluation")
	variablesType     = cel.ObjectType("kyverno.variables")
	exceptionType     = cel.ObjectType("libs.Exception")
)

// stateVar is the hidden variable that carries the evaluation to the
// functions that need it (random, time.now). Users cannot name it: '@' is
// not a CEL identifier character; macros insert it.
const stateVar = "@genplay"

// opaque is the value of a library context variable: its type and the
// evaluation it belongs to.
type opaque struct {
	typ *types.Type
	ev  *evaluation
	gvr *gvr // for schema.GroupVersionResource values
}

type gvr struct{ group, version, resource string }

func (g gvr) apiVersion() string {
	if g.group == "" {
		return g.version
	}
	return g.group + "/" + g.version
}

func (o *opaque) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("type conversion error from %s to %v", o.typ.TypeName(), t)
}
func (o *opaque) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return o.typ
	}
	return types.NewErr("type conversion error from %s to %s", o.typ.TypeName(), t.TypeName())
}
func (o *opaque) Equal(other ref.Val) ref.Val {
	p, ok := other.(*opaque)
	if !ok {
		return types.False
	}
	if o.gvr != nil && p.gvr != nil {
		return types.Bool(*o.gvr == *p.gvr)
	}
	return types.Bool(o == p)
}
func (o *opaque) Type() ref.Type { return o.typ }
func (o *opaque) Value() any     { return o }

// provider answers the checker for the two object types Kyverno declares
// (kyverno.variables, whose fields are typed from the variables compiled so
// far, and libs.Exception) and defers to cel-go's registry for the rest.
type provider struct {
	*types.Registry
	varNames []string
	varTypes map[string]*types.Type
}

func newProvider() (*provider, error) {
	reg, err := types.NewRegistry()
	if err != nil {
		return nil, err
	}
	return &provider{Registry: reg, varTypes: map[string]*types.Type{}}, nil
}

func (p *provider) fields(name string) (map[string]*types.Type, bool) {
	switch name {
	case variablesType.TypeName():
		return p.varTypes, true
	case exceptionType.TypeName():
		return map[string]*types.Type{
			"allowedImages": types.NewListType(types.StringType),
			"allowedValues": types.NewListType(types.StringType),
		}, true
	}
	if f, ok := requestTypes[name]; ok {
		return f, true
	}
	return nil, false
}

func (p *provider) FindStructType(name string) (*types.Type, bool) {
	if _, ok := p.fields(name); ok {
		return types.NewTypeTypeWithParam(types.NewObjectType(name)), true
	}
	return p.Registry.FindStructType(name)
}

func (p *provider) FindStructFieldNames(name string) ([]string, bool) {
	if f, ok := p.fields(name); ok {
		names := make([]string, 0, len(f))
		for n := range f {
			names = append(names, n)
		}
		sort.Strings(names)
		return names, true
	}
	return p.Registry.FindStructFieldNames(name)
}

func (p *provider) FindStructFieldType(name, field string) (*types.FieldType, bool) {
	if f, ok := p.fields(name); ok {
		t, ok := f[field]
		if !ok {
			return nil, false
		}
		return &types.FieldType{
			Type: t,
			IsSet: func(obj any) bool {
				if m, ok := obj.(map[string]any); ok {
					_, ok := m[field]
					return ok
				}
				return true
			},
			GetFrom: func(obj any) (any, error) {
				if _, ok := requestTypes[name]; ok {
					return getRequestField(obj, field, t)
				}
				return getField(obj, field)
			},
		}, true
	}
	return p.Registry.FindStructFieldType(name, field)
}

// reset forgets the variables of the previous compilation.
func (p *provider) reset() {
	p.varNames = nil
	p.varTypes = map[string]*types.Type{}
}

// addVariable types variables.<name> for the expressions compiled after it.
func (p *provider) addVariable(name string, t *types.Type) {
	if _, ok := p.varTypes[name]; !ok {
		p.varNames = append(p.varNames, name)
	}
	p.varTypes[name] = t
}

// lazyVariables is the value of `variables`: each entry is evaluated when
// first read and memoised for the rest of the evaluation.
type lazyVariables struct {
	ev *evaluation
}

func (l *lazyVariables) ConvertToNative(t reflect.Type) (any, error) {
	return nil, fmt.Errorf("variables cannot be converted to %v", t)
}
func (l *lazyVariables) ConvertToType(t ref.Type) ref.Val {
	if t == types.TypeType {
		return variablesType
	}
	return types.NewErr("variables cannot be converted to %s", t.TypeName())
}
func (l *lazyVariables) Equal(other ref.Val) ref.Val { return types.Bool(l == other) }
func (l *lazyVariables) Type() ref.Type              { return variablesType }
func (l *lazyVariables) Value() any                  { return l }
func (l *lazyVariables) Contains(key ref.Val) ref.Val {
	_, found := l.Find(key)
	return types.Bool(found)
}
func (l *lazyVariables) Get(key ref.Val) ref.Val {
	v, found := l.Find(key)
	if !found {
		return types.NewErr("no such key: %v", key)
	}
	return v
}
func (l *lazyVariables) Find(key ref.Val) (ref.Val, bool) {
	name, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	return l.ev.variable(string(name))
}
func (l *lazyVariables) Iterator() traits.Iterator {
	names := make([]string, 0, len(l.ev.p.variables))
	for _, v := range l.ev.p.variables {
		names = append(names, v.name)
	}
	return types.NewStringList(types.DefaultTypeAdapter, names).Iterator()
}
func (l *lazyVariables) Size() ref.Val { return types.Int(len(l.ev.p.variables)) }

var _ traits.Mapper = (*lazyVariables)(nil)

// toCEL converts a JSON-shaped Go value to the form handed to CEL: whole
// float64 numbers become int64, as Kubernetes' JSON decoding gives them.
func toCEL(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = toCEL(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toCEL(e)
		}
		return out
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case int:
		return int64(x)
	case map[string]string:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = e
		}
		return out
	case []string:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out
	}
	return v
}

// fromCEL converts a CEL value to JSON-shaped Go: map[string]any, []any,
// string, float64, bool or nil. Bytes become base64 strings as in JSON.
func fromCEL(v ref.Val) (any, error) {
	switch x := v.(type) {
	case types.Null:
		return nil, nil
	case types.Bool:
		return bool(x), nil
	case types.Int:
		return float64(x), nil
	case types.Uint:
		return float64(x), nil
	case types.Double:
		f := float64(x)
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("%v is not a JSON number", f)
		}
		return f, nil
	case types.String:
		return string(x), nil
	case types.Bytes:
		return base64.StdEncoding.EncodeToString(x), nil
	case *types.Err:
		return nil, x
	}
	if ts, ok := v.(types.Timestamp); ok {
		return ts.ConvertToType(types.StringType).Value(), nil
	}
	if d, ok := v.(types.Duration); ok {
		return d.ConvertToType(types.StringType).Value(), nil
	}
	switch v.Type().TypeName() {
	case "optional_type":
		o := v.(*types.Optional)
		if !o.HasValue() {
			return nil, nil
		}
		return fromCEL(o.GetValue())
	}
	if m, ok := v.(traits.Mapper); ok {
		out := map[string]any{}
		it := m.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			ks, ok := k.(types.String)
			if !ok {
				return nil, fmt.Errorf("map key %v is not a string", k)
			}
			e, err := fromCEL(m.Get(k))
			if err != nil {
				return nil, err
			}
			out[string(ks)] = e
		}
		return out, nil
	}
	if l, ok := v.(traits.Lister); ok {
		n, _ := l.Size().(types.Int)
		out := make([]any, 0, int(n))
		it := l.Iterator()
		for it.HasNext() == types.True {
			e, err := fromCEL(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	if s, ok := v.(fmt.Stringer); ok {
		return s.String(), nil
	}
	return nil, fmt.Errorf("a value of type %s cannot be converted to JSON", v.Type().TypeName())
}

// getField reads a field of a value whose static type is one of the
// provider's object types: a variable (evaluated lazily) or an exceptions
// entry.
func getField(obj any, field string) (any, error) {
	switch o := obj.(type) {
	case *lazyVariables:
		v, ok := o.ev.variable(field)
		if !ok {
			return nil, fmt.Errorf("no such variable: %s", field)
		}
		if types.IsError(v) {
			return nil, v.(*types.Err)
		}
		return v, nil
	case map[string]any:
		if v, ok := o[field]; ok {
			return v, nil
		}
	}
	return nil, fmt.Errorf("no such field: %s", field)
}
