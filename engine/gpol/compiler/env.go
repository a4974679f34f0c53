package compiler

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/decls"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
)

// maxRangeSize bounds lists.range(n). cel-go's default is 10,000,000, which
// allocates before any cost is charged; genplay stops earlier (engine/doc.go).
const maxRangeSize = 100_000

// newEnv builds the environment of one policy (createBaseGpolEnv with
// DynamicResourceEnvOptionsWithCompat): the options of §2.4, the variables
// of §2.1 and the libraries of §2.3. namespace is "" for a GeneratingPolicy
// and switches generator and resource to their namespaced overloads.
func newEnv(namespace string) (*cel.Env, *provider, error) {
	p, err := newProvider()
	if err != nil {
		return nil, nil, err
	}
	opts := []cel.EnvOption{
		cel.CustomTypeProvider(p),
		cel.EagerlyValidateDeclarations(true),
		cel.DefaultUTCTimeZone(true),
		cel.CrossTypeNumericComparisons(true),
		cel.OptionalTypes(),
		cel.Macros(orValueCompatMacro),
		ext.Bindings(),
		ext.Encoders(),
		ext.Lists(ext.ListsVersion(3), ext.ListsMaxRangeSize(maxRangeSize)),
		ext.Math(),
		ext.Sets(),
		ext.Strings(ext.StringsVersion(2)),
		ext.Regex(ext.RegexVersion(1)),

		cel.Variable("object", cel.DynType),
		cel.Variable("oldObject", cel.DynType),
		cel.Variable("request", requestType),
		cel.Variable("namespaceObject", cel.DynType),
		cel.Variable("variables", variablesType),
		cel.Variable("exceptions", exceptionType),
		cel.Variable(stateVar, stateType),
		cel.Variable("generator", generatorType),
		cel.Variable("resource", resourceType),
		cel.Variable("globalContext", globalContextType),
		cel.Variable("http", httpType),
		cel.Variable("image", imageDataType),
		cel.Variable("json", jsonType),
		cel.Variable("yaml", yamlType),
	}
	opts = append(opts, orValueCompatLib()...)
	opts = append(opts, generatorLib(namespace != "")...)
	opts = append(opts, globalContextLib()...)
	opts = append(opts, resourceLib(namespace != "")...)
	opts = append(opts, imageLib()...)
	opts = append(opts, imageDataLib()...)
	opts = append(opts, hashLib()...)
	opts = append(opts, mathLib()...)
	opts = append(opts, jsonLib()...)
	opts = append(opts, yamlLib()...)
	opts = append(opts, randomLib()...)
	opts = append(opts, x509Lib()...)
	opts = append(opts, timeLib()...)
	opts = append(opts, transformLib()...)
	opts = append(opts, gzipLib()...)
	opts = append(opts, httpLib()...)
	opts = append(opts, k8sLibs()...)
	env, err := cel.NewEnv(opts...)
	if err != nil {
		return nil, nil, err
	}
	return env, p, nil
}

// orValueCompatMacro rewrites x.orValue(y) to __orValueCompat__(x, y), as
// Kyverno's compat macro does: on an optional it is orValue; on a plain
// value it returns the value (cel-go <= 0.27 behaviour). The function is
// strict, as Kyverno's: when x is an error (a map key that does not exist,
// {"a": 1}.b) the error goes through and y is never used.
var orValueCompatMacro = cel.ReceiverMacro("orValue", 1,
	func(eh cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *common.Error) {
		return eh.NewCall("__orValueCompat__", target, args[0]), nil
	})

func orValueCompatLib() []cel.EnvOption {
	a := cel.TypeParamType("A")
	impl := func(x, y ref.Val) ref.Val {
		if o, ok := x.(*types.Optional); ok {
			if o.HasValue() {
				return o.GetValue()
			}
			return y
		}
		return x
	}
	k, v := cel.TypeParamType("K"), cel.TypeParamType("V")
	overloads := []cel.FunctionOpt{
		cel.Overload("orvalue_compat_optional", []*cel.Type{cel.OptionalType(a), a}, a, cel.BinaryBinding(impl)),
	}
	// One overload per kind of plain value: a type parameter would overlap
	// with the optional overload.
	for _, t := range []*cel.Type{cel.StringType, cel.IntType, cel.UintType, cel.DoubleType, cel.BoolType,
		cel.BytesType, cel.TimestampType, cel.DurationType, cel.ListType(a), cel.MapType(k, v)} {
		overloads = append(overloads, cel.Overload("orvalue_compat_"+t.String(), []*cel.Type{t, t}, t, cel.BinaryBinding(impl)))
	}
	// Without runtime type guards: a dyn receiver that turns out to be null
	// or of another type than the default is still returned as it is.
	overloads = append(overloads, decls.DisableTypeGuards(true))
	return []cel.EnvOption{cel.Function("__orValueCompat__", overloads...)}
}

// ev returns the evaluation an opaque context argument carries.
func ev(v ref.Val) *evaluation {
	switch o := v.(type) {
	case *opaque:
		return o.ev
	}
	return nil
}

// stateMacro0 rewrites a zero-argument call so that it receives the hidden
// evaluation state: random() -> random(@genplay).
func stateCall(eh cel.MacroExprFactory, fn string, args []ast.Expr) ast.Expr {
	all := append([]ast.Expr{eh.NewIdent(stateVar)}, args...)
	return eh.NewCall(fn, all...)
}

// isIdent reports whether e is the identifier name.
func isIdent(e ast.Expr, name string) bool {
	return e != nil && e.Kind() == ast.IdentKind && e.AsIdent() == name
}

// errorf is a CEL error value.
func errorf(format string, args ...any) ref.Val { return types.NewErr(format, args...) }
