package compiler

import (
	"bytes"
	"compress/gzip"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	"github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"sigs.k8s.io/yaml"

	"github.com/genplay/genplay/engine/internal/digest"
)

// The pure helper libraries of §2.3.6 (S:extensions/cel/libs/{hash,math,
// json,yaml,random,x509,time,transform,gzip}).

// maxDecompressed bounds gzip.decompress output.
const maxDecompressed = 1 << 20

func hashLib() []cel.EnvOption {
	h := func(name string, sum func([]byte) string) []cel.EnvOption {
		f := func(v ref.Val) ref.Val { return types.String(sum([]byte(str(v)))) }
		return []cel.EnvOption{
			cel.Function(name, cel.Overload(name+"_string", []*cel.Type{cel.StringType}, cel.StringType, cel.UnaryBinding(f))),
			cel.Function("hash."+name, cel.Overload("hash_"+name+"_string", []*cel.Type{cel.StringType}, cel.StringType, cel.UnaryBinding(f))),
		}
	}
	var opts []cel.EnvOption
	opts = append(opts, h("sha1", func(b []byte) string { s := digest.SHA1(b); return hex.EncodeToString(s[:]) })...)
	opts = append(opts, h("sha256", func(b []byte) string { s := digest.SHA256(b); return hex.EncodeToString(s[:]) })...)
	opts = append(opts, h("md5", func(b []byte) string { s := digest.MD5(b); return hex.EncodeToString(s[:]) })...)
	return opts
}

// mathLib is Kyverno's math.round(double, int): round half away from zero
// to n decimals (n may be negative).
func mathLib() []cel.EnvOption {
	return []cel.EnvOption{cel.Function("math.round",
		cel.Overload("kyverno_math_round_double_int", []*cel.Type{cel.DoubleType, cel.IntType}, cel.DoubleType,
			cel.BinaryBinding(func(x, n ref.Val) ref.Val {
				f, p := float64(x.(types.Double)), int64(n.(types.Int))
				if p > 308 || p < -308 {
					return x
				}
				scale := math.Pow(10, float64(p))
				return types.Double(math.Round(f*scale) / scale)
			})))}
}

// decoded is a value encoding/json decoded, handed to CEL as Kyverno's
// json and yaml libraries hand it (NativeToValue of what json.Unmarshal
// gives): every number is a double, whole or not, so json.unmarshal('{"r":
// 2}').r + 0.5 is 2.5, and an int operand needs double() or int().
func decoded(v any) ref.Val {
	return types.DefaultTypeAdapter.NativeToValue(v)
}

func jsonLib() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("unmarshal", cel.MemberOverload("json_unmarshal_dyn", []*cel.Type{jsonType, cel.DynType}, cel.DynType,
			cel.BinaryBinding(func(j, s ref.Val) ref.Val {
				text, ok := s.ConvertToType(types.StringType).(types.String)
				if !ok {
					return errorf("json.unmarshal: expected a string, got %s", s.Type().TypeName())
				}
				var v any
				if err := json.Unmarshal([]byte(text), &v); err != nil {
					return errorf("failed to decode json: %v", err)
				}
				return decoded(v)
			}))),
		cel.Function("marshal", cel.MemberOverload("json_marshal_dyn", []*cel.Type{jsonType, cel.DynType}, cel.StringType,
			cel.BinaryBinding(func(_, v ref.Val) ref.Val {
				g, err := fromCEL(v)
				if err != nil {
					return errorf("failed to encode json: %v", err)
				}
				b, err := json.Marshal(g)
				if err != nil {
					return errorf("failed to encode json: %v", err)
				}
				return types.String(b)
			}))),
	}
}

func yamlLib() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("parse", cel.MemberOverload("yaml_parse_string", []*cel.Type{yamlType, cel.StringType}, cel.DynType,
			cel.BinaryBinding(func(y, s ref.Val) ref.Val {
				var v any
				if err := yaml.Unmarshal([]byte(str(s)), &v); err != nil {
					return errorf("failed to decode yaml: %v", err)
				}
				return decoded(v)
			}))),
	}
}

// randomLib: random() and random(pattern), and the 1.18+ random.random()
// forms. Kyverno draws from the real RNG; genplay from the evaluation's
// seeded generator (engine/doc.go). Macros add the hidden evaluation
// argument so that the functions can reach it.
func randomLib() []cel.EnvOption {
	gen := func(st ref.Val, pattern string) ref.Val {
		s, err := ev(st).random(pattern)
		if err != nil {
			return errorf("%v", err)
		}
		return types.String(s)
	}
	expand := func(eh cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *common.Error) {
		if target != nil && !isIdent(target, "random") {
			return nil, nil
		}
		return stateCall(eh, "random", args), nil
	}
	return []cel.EnvOption{
		cel.Macros(
			cel.GlobalMacro("random", 0, expand), cel.GlobalMacro("random", 1, expand),
			cel.ReceiverMacro("random", 0, expand), cel.ReceiverMacro("random", 1, expand),
		),
		cel.Function("random",
			cel.Overload("random_state", []*cel.Type{stateType}, cel.StringType,
				cel.UnaryBinding(func(st ref.Val) ref.Val { return gen(st, "[0-9a-z]{8}") })),
			cel.Overload("random_state_string", []*cel.Type{stateType, cel.StringType}, cel.StringType,
				cel.BinaryBinding(func(st, p ref.Val) ref.Val { return gen(st, str(p)) })),
		),
	}
}

// timeLib: time.now() is the simulation's logical clock (Kyverno: the wall
// clock); truncate and toCron are pure.
func timeLib() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Macros(cel.ReceiverMacro("now", 0, func(eh cel.MacroExprFactory, target ast.Expr, args []ast.Expr) (ast.Expr, *common.Error) {
			if !isIdent(target, "time") {
				return nil, nil
			}
			return stateCall(eh, "time.now", nil), nil
		})),
		cel.Function("time.now", cel.Overload("time_now_state", []*cel.Type{stateType}, cel.TimestampType,
			cel.UnaryBinding(func(st ref.Val) ref.Val { return types.Timestamp{Time: ev(st).now()} }))),
		cel.Function("time.truncate", cel.Overload("time_truncate_timestamp_duration", []*cel.Type{cel.TimestampType, cel.DurationType}, cel.TimestampType,
			cel.BinaryBinding(func(t, d ref.Val) ref.Val {
				return types.Timestamp{Time: t.(types.Timestamp).Time.Truncate(d.(types.Duration).Duration)}
			}))),
		cel.Function("time.toCron", cel.Overload("time_tocron_timestamp", []*cel.Type{cel.TimestampType}, cel.StringType,
			cel.UnaryBinding(func(t ref.Val) ref.Val {
				tm := t.(types.Timestamp).Time.UTC()
				return types.String(fmt.Sprintf("%d %d %d %d %d", tm.Minute(), tm.Hour(), tm.Day(), int(tm.Month()), int(tm.Weekday())))
			}))),
	}
}

// transformLib: listObjToMap(keys, values, keyName, valueName) builds a map
// from keys[i][keyName] to values[i][valueName]; the lists must have equal
// lengths.
func transformLib() []cel.EnvOption {
	l := cel.ListType(cel.DynType)
	f := func(a ...ref.Val) ref.Val {
		ks, ok1 := a[0].(traits.Lister)
		vs, ok2 := a[1].(traits.Lister)
		if !ok1 || !ok2 {
			return errorf("listObjToMap: expected lists")
		}
		if ks.Size() != vs.Size() {
			return errorf("listObjToMap: lists must have the same length")
		}
		keyName, valueName := a[2], a[3]
		out := map[ref.Val]ref.Val{}
		n := int64(ks.Size().(types.Int))
		for i := int64(0); i < n; i++ {
			k, v := ks.Get(types.Int(i)), vs.Get(types.Int(i))
			km, ok1 := k.(traits.Indexer)
			vm, ok2 := v.(traits.Indexer)
			if !ok1 || !ok2 {
				return errorf("listObjToMap: elements must be objects")
			}
			key, val := km.Get(keyName), vm.Get(valueName)
			if types.IsError(key) {
				return key
			}
			if types.IsError(val) {
				return val
			}
			out[key] = val
		}
		return types.NewRefValMap(types.DefaultTypeAdapter, out)
	}
	sig := []*cel.Type{l, l, cel.StringType, cel.StringType}
	out := cel.MapType(cel.DynType, cel.DynType)
	return []cel.EnvOption{
		cel.Function("listObjToMap", cel.Overload("listobjtomap", sig, out, cel.FunctionBinding(f))),
		cel.Function("transform.listObjToMap", cel.Overload("transform_listobjtomap", sig, out, cel.FunctionBinding(f))),
	}
}

// gzipLib: compress writes a deterministic stream (no name, mtime 0).
func gzipLib() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("gzip.compress", cel.Overload("gzip_compress_dyn", []*cel.Type{cel.DynType}, cel.BytesType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				var in []byte
				switch x := v.(type) {
				case types.String:
					in = []byte(x)
				case types.Bytes:
					in = x
				default:
					return errorf("gzip.compress: expected a string, got %s", v.Type().TypeName())
				}
				var b bytes.Buffer
				w := gzip.NewWriter(&b)
				w.ModTime = time.Unix(0, 0)
				if _, err := w.Write(in); err != nil {
					return errorf("gzip.compress: %v", err)
				}
				if err := w.Close(); err != nil {
					return errorf("gzip.compress: %v", err)
				}
				return types.Bytes(b.Bytes())
			}))),
		cel.Function("gzip.decompress", cel.Overload("gzip_decompress_bytes", []*cel.Type{cel.BytesType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				r, err := gzip.NewReader(bytes.NewReader(v.(types.Bytes)))
				if err != nil {
					return errorf("gzip.decompress: %v", err)
				}
				out, err := io.ReadAll(io.LimitReader(r, maxDecompressed+1))
				if err != nil {
					return errorf("gzip.decompress: %v", err)
				}
				if len(out) > maxDecompressed {
					return errorf("gzip.decompress: more than %d bytes", maxDecompressed)
				}
				return types.String(out)
			}))),
	}
}
