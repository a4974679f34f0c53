package variables

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path"
	"reflect"
	"regexp"
	"regexp/syntax"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	gojmespath "github.com/kyverno/go-jmespath"

	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/internal/digest"
	"github.com/genplay/genplay/engine/internal/semver"
	"github.com/genplay/genplay/engine/internal/wildcard"
	"github.com/genplay/genplay/engine/source"
)

var (
	tString      = gojmespath.JpString
	tNumber      = gojmespath.JpNumber
	tObject      = gojmespath.JpObject
	tArray       = gojmespath.JpArray
	tArrayString = gojmespath.JpArrayString
	tAny         = gojmespath.JpAny
)

func args(types ...[]gojmespath.JpType) []gojmespath.ArgSpec {
	out := make([]gojmespath.ArgSpec, len(types))
	for i, t := range types {
		out[i] = gojmespath.ArgSpec{Types: t}
	}
	return out
}

func one(t ...gojmespath.JpType) []gojmespath.JpType { return t }

// Unsupported lists the Kyverno functions genplay registers only to explain
// why they cannot run.
var Unsupported = map[string]string{
	"is_external_url": "genplay has no network",
}

// evalFn is a function that reads the Evaluator it runs for (its Options or
// its random() counter); boundCaller.bind turns it into a handler.
type evalFn func(e *Evaluator, arguments []any) (any, error)

// functions lists the custom functions, with handlers that read the
// Evaluator they serve from b.ev.
func (b *boundCaller) functions() []gojmespath.FunctionEntry {
	s, n, o, a, any_ := one(tString), one(tNumber), one(tObject), one(tArray), one(tAny)
	sn := one(tString, tNumber)
	fs := []gojmespath.FunctionEntry{
		// Replacements of built-ins, bounded by MaxOutput.
		{Name: "join", Arguments: args(s, one(tArrayString)), Handler: b.bind((*Evaluator).jpJoin)},
		{Name: "to_string", Arguments: args(any_), Handler: b.bind((*Evaluator).jpToString)},
		{Name: "sum", Arguments: args(a), Handler: jpSum},

		{Name: "compare", Arguments: args(s, s), Handler: strFn2("compare", func(a, b string) (any, error) { return float64(strings.Compare(a, b)), nil })},
		{Name: "equal_fold", Arguments: args(s, s), Handler: strFn2("equal_fold", func(a, b string) (any, error) { return strings.EqualFold(a, b), nil })},
		{Name: "replace", Arguments: args(s, s, s, n), Handler: b.bind((*Evaluator).jpReplace)},
		{Name: "replace_all", Arguments: args(s, s, s), Handler: b.bind((*Evaluator).jpReplaceAll)},
		{Name: "to_upper", Arguments: args(s), Handler: strFn1("to_upper", func(a string) (any, error) { return strings.ToUpper(a), nil })},
		{Name: "to_lower", Arguments: args(s), Handler: strFn1("to_lower", func(a string) (any, error) { return strings.ToLower(a), nil })},
		{Name: "trim", Arguments: args(s, s), Handler: strFn2("trim", func(a, b string) (any, error) { return strings.Trim(a, b), nil })},
		{Name: "trim_prefix", Arguments: args(s, s), Handler: strFn2("trim_prefix", func(a, b string) (any, error) { return strings.TrimPrefix(a, b), nil })},
		{Name: "split", Arguments: args(s, s), Handler: strFn2("split", jpSplit)},
		{Name: "regex_replace_all", Arguments: args(s, sn, sn), Handler: b.bind(regexReplace("regex_replace_all", true))},
		{Name: "regex_replace_all_literal", Arguments: args(s, sn, sn), Handler: b.bind(regexReplace("regex_replace_all_literal", false))},
		{Name: "regex_match", Arguments: args(s, sn), Handler: jpRegexMatch},
		{Name: "pattern_match", Arguments: args(s, sn), Handler: jpPatternMatch},
		{Name: "label_match", Arguments: args(o, o), Handler: jpLabelMatch},
		{Name: "to_boolean", Arguments: args(s), Handler: strFn1("to_boolean", jpToBoolean)},
		{Name: "add", Arguments: args(any_, any_), Handler: arith("add")},
		{Name: "subtract", Arguments: args(any_, any_), Handler: arith("subtract")},
		{Name: "multiply", Arguments: args(any_, any_), Handler: arith("multiply")},
		{Name: "divide", Arguments: args(any_, any_), Handler: arith("divide")},
		{Name: "modulo", Arguments: args(any_, any_), Handler: arith("modulo")},
		{Name: "round", Arguments: args(n, n), Handler: jpRound},
		{Name: "base64_decode", Arguments: args(s), Handler: strFn1("base64_decode", jpBase64Decode)},
		{Name: "base64_encode", Arguments: args(s), Handler: b.bind((*Evaluator).jpBase64Encode)},
		{Name: "path_canonicalize", Arguments: args(s), Handler: strFn1("path_canonicalize", jpPathCanonicalize)},
		{Name: "truncate", Arguments: args(s, n), Handler: jpTruncate},
		{Name: "semver_compare", Arguments: args(s, s), Handler: strFn2("semver_compare", jpSemverCompare)},
		{Name: "parse_json", Arguments: args(s), Handler: strFn1("parse_json", jpParseJSON)},
		{Name: "parse_yaml", Arguments: args(s), Handler: strFn1("parse_yaml", jpParseYAML)},
		{Name: "lookup", Arguments: args(one(tObject, tArray), sn), Handler: jpLookup},
		{Name: "items", Arguments: args(one(tObject, tArray), s, s), Handler: jpItems},
		{Name: "object_from_lists", Arguments: args(a, a), Handler: jpObjectFromLists},
		{Name: "sha256", Arguments: args(s), Handler: strFn1("sha256", func(a string) (any, error) { h := digest.SHA256([]byte(a)); return hex.EncodeToString(h[:]), nil })},
		{Name: "sha1", Arguments: args(s), Handler: strFn1("sha1", func(a string) (any, error) { h := digest.SHA1([]byte(a)); return hex.EncodeToString(h[:]), nil })},
		{Name: "md5", Arguments: args(s), Handler: strFn1("md5", func(a string) (any, error) { h := digest.MD5([]byte(a)); return hex.EncodeToString(h[:]), nil })},
		{Name: "image_normalize", Arguments: args(s), Handler: strFn1("image_normalize", jpImageNormalize)},
		{Name: "x509_decode", Arguments: args(s), Handler: strFn1("x509_decode", jpX509Decode)},
	}
	fs = append(fs, b.timeFunctions()...)
	fs = append(fs, gojmespath.FunctionEntry{Name: "random", Arguments: args(s), Handler: b.bind((*Evaluator).jpRandom)})
	for name, why := range Unsupported {
		msg := fmt.Sprintf("JMESPath function '%s': not supported: %s", name, why)
		fs = append(fs, gojmespath.FunctionEntry{Name: name, Arguments: args(s), Handler: func([]any) (any, error) { return nil, errors.New(msg) }})
	}
	for i := range fs {
		fs[i].Handler = b.bounded(fs[i].Name, fs[i].Handler)
	}
	// The meter instrument puts around what projections and iterating
	// built-ins iterate (work.go); untyped, so it passes its value through.
	fs = append(fs, gojmespath.FunctionEntry{Name: workFunction, Handler: b.work})
	return fs
}

// bind makes f a handler for the Evaluator b serves at the time of the call.
func (b *boundCaller) bind(f evalFn) gojmespath.JpFunction {
	return func(arguments []any) (any, error) { return f(b.ev, arguments) }
}

// bounded charges the work budget for a call (workOf) and rejects string
// results longer than MaxOutput.
func (b *boundCaller) bounded(name string, h gojmespath.JpFunction) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		bud := b.ev.opts.Budget
		if err := bud.Charge(workOf(name, arguments), name); err != nil {
			return nil, err
		}
		out, err := h(arguments)
		if err != nil {
			return nil, err
		}
		if s, ok := out.(string); ok && len(s) > b.ev.opts.MaxOutput {
			return nil, b.ev.tooLong(name, len(s))
		}
		if err := bud.Charge(shallowSize(out), name); err != nil {
			return nil, err
		}
		return out, nil
	}
}

// workOf is what a custom function call costs before it runs: the
// (shallow) size of its arguments, and for the regular-expression and
// wildcard functions, the pattern's program size times the input's length
// (Go's regexp and the wildcard matcher are O(program x input)).
func workOf(name string, arguments []any) int64 {
	n := int64(budget.Evaluation)
	for _, a := range arguments {
		n += shallowSize(a)
	}
	if len(arguments) < 2 {
		return n
	}
	pattern, _ := arguments[0].(string)
	input := int64(24) // a number's text
	if str, ok := arguments[1].(string); ok {
		input = int64(len(str))
	}
	switch name {
	case "regex_match", "regex_replace_all", "regex_replace_all_literal":
		n += regexProgramSize(pattern) * (input + 1)
	case "pattern_match":
		n += int64(len(pattern)) * (input + 1)
	}
	return n
}

// regexProgramSize is the number of instructions of pattern's compiled
// program (or its length when it does not compile: the call then fails).
func regexProgramSize(pattern string) int64 {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return int64(len(pattern))
	}
	prog, err := syntax.Compile(re.Simplify())
	if err != nil {
		return int64(len(pattern))
	}
	return int64(len(prog.Inst))
}

// shallowSize is a value's length without walking it: bytes of a string,
// elements of an array, keys of an object, 1 otherwise.
func shallowSize(v any) int64 {
	switch x := v.(type) {
	case string:
		return int64(len(x))
	case []any:
		return int64(len(x))
	case map[string]any:
		return int64(len(x))
	case []string:
		return int64(len(x))
	}
	return 1
}

func (e *Evaluator) tooLong(name string, n int) error {
	return fnError(name, fmt.Sprintf("result of %d bytes exceeds the limit of %d", n, e.opts.MaxOutput))
}

func fnError(name, msg string) error { return fmt.Errorf("JMESPath function '%s': %s", name, msg) }

func argTypeError(name string, pos int, want string) error {
	return fnError(name, fmt.Sprintf("argument #%d is not of type %s", pos, want))
}

func strArg(name string, arguments []any, i int) (string, error) {
	if i >= len(arguments) {
		return "", fnError(name, fmt.Sprintf("%d argument is out of bounds (%d)", i+1, len(arguments)))
	}
	s, ok := arguments[i].(string)
	if !ok {
		return "", argTypeError(name, i+1, "string")
	}
	return s, nil
}

func numArg(name string, arguments []any, i int) (float64, error) {
	if i >= len(arguments) {
		return 0, fnError(name, fmt.Sprintf("%d argument is out of bounds (%d)", i+1, len(arguments)))
	}
	f, ok := arguments[i].(float64)
	if !ok {
		return 0, argTypeError(name, i+1, "float64")
	}
	return f, nil
}

func strFn1(name string, f func(string) (any, error)) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		a, err := strArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		return f(a)
	}
}

func strFn2(name string, f func(a, b string) (any, error)) gojmespath.JpFunction {
	return func(arguments []any) (any, error) {
		a, err := strArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		b, err := strArg(name, arguments, 1)
		if err != nil {
			return nil, err
		}
		return f(a, b)
	}
}

// ifaceToString is Kyverno's conversion of a string-or-number argument;
// numbers print with float32 precision, as in Kyverno.
func ifaceToString(v any) (string, error) {
	switch t := v.(type) {
	case string:
		return t, nil
	case float64:
		return strconv.FormatFloat(t, 'f', -1, 32), nil
	case bool:
		return strconv.FormatBool(t), nil
	default:
		return "", errors.New("error, undefined type cast")
	}
}

func (e *Evaluator) jpJoin(arguments []any) (any, error) {
	glue, err := strArg("join", arguments, 0)
	if err != nil {
		return nil, err
	}
	list, ok := arguments[1].([]any)
	if !ok {
		return nil, argTypeError("join", 2, "array[string]")
	}
	parts := make([]string, len(list))
	total := 0
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, argTypeError("join", 2, "array[string]")
		}
		parts[i] = s
		total += len(s) + len(glue)
		if total > e.opts.MaxOutput+len(glue) {
			return nil, e.tooLong("join", total)
		}
	}
	return strings.Join(parts, glue), nil
}

func (e *Evaluator) jpToString(arguments []any) (any, error) {
	if s, ok := arguments[0].(string); ok {
		return s, nil
	}
	if !sizeWithin(arguments[0], e.opts.MaxOutput) {
		return nil, fnError("to_string", fmt.Sprintf("result exceeds the limit of %d bytes", e.opts.MaxOutput))
	}
	b, err := json.Marshal(arguments[0])
	if err != nil {
		return nil, fnError("to_string", err.Error())
	}
	return string(b), nil
}

// sizeWithin reports whether the JSON encoding of v is at most about budget
// bytes, walking v without encoding it and stopping early.
func sizeWithin(v any, budget int) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch t := v.(type) {
		case string:
			budget -= len(t) + 2
		case map[string]any:
			budget -= 2
			for k, e := range t {
				budget -= len(k) + 4
				if budget < 0 || !walk(e) {
					return false
				}
			}
		case []any:
			budget -= 2
			for _, e := range t {
				budget--
				if budget < 0 || !walk(e) {
					return false
				}
			}
		default:
			budget -= 8
		}
		return budget >= 0
	}
	return walk(v)
}

func (e *Evaluator) replaceSize(name, s, old, repl string, n int) error {
	count := strings.Count(s, old)
	if n >= 0 && n < count {
		count = n
	}
	if size := len(s) + count*(len(repl)-len(old)); size > e.opts.MaxOutput {
		return e.tooLong(name, size)
	}
	return nil
}

func (e *Evaluator) jpReplace(arguments []any) (any, error) {
	str, err := strArg("replace", arguments, 0)
	if err != nil {
		return nil, err
	}
	old, err := strArg("replace", arguments, 1)
	if err != nil {
		return nil, err
	}
	repl, err := strArg("replace", arguments, 2)
	if err != nil {
		return nil, err
	}
	nf, err := numArg("replace", arguments, 3)
	if err != nil {
		return nil, err
	}
	n := int(nf)
	if math.IsNaN(nf) || nf > math.MaxInt32 || nf < math.MinInt32 {
		n = -1
	}
	if err := e.replaceSize("replace", str, old, repl, n); err != nil {
		return nil, err
	}
	return strings.Replace(str, old, repl, n), nil
}

func (e *Evaluator) jpReplaceAll(arguments []any) (any, error) {
	str, err := strArg("replace_all", arguments, 0)
	if err != nil {
		return nil, err
	}
	old, err := strArg("replace_all", arguments, 1)
	if err != nil {
		return nil, err
	}
	repl, err := strArg("replace_all", arguments, 2)
	if err != nil {
		return nil, err
	}
	if err := e.replaceSize("replace_all", str, old, repl, -1); err != nil {
		return nil, err
	}
	return strings.ReplaceAll(str, old, repl), nil
}

func jpSplit(str, sep string) (any, error) {
	parts := strings.Split(str, sep)
	out := make([]any, len(parts))
	for i, p := range parts {
		out[i] = p
	}
	return out, nil
}

// regexReplace replaces every match, expanding $1 references when expand
// is set, and stops as soon as the result grows past MaxOutput.
func regexReplace(name string, expand bool) evalFn {
	return func(e *Evaluator, arguments []any) (any, error) {
		pattern, err := strArg(name, arguments, 0)
		if err != nil {
			return nil, err
		}
		src, err := ifaceToString(arguments[1])
		if err != nil {
			return nil, argTypeError(name, 2, "String or Real")
		}
		repl, err := ifaceToString(arguments[2])
		if err != nil {
			return nil, argTypeError(name, 3, "String or Real")
		}
		re, err := regexp.Compile(pattern)
		if err != nil {
			return nil, fnError(name, err.Error())
		}
		var out []byte
		last := 0
		for _, m := range re.FindAllStringSubmatchIndex(src, -1) {
			out = append(out, src[last:m[0]]...)
			if expand {
				out = re.ExpandString(out, repl, src, m)
			} else {
				out = append(out, repl...)
			}
			last = m[1]
			if len(out) > e.opts.MaxOutput {
				return nil, e.tooLong(name, len(out))
			}
		}
		out = append(out, src[last:]...)
		return string(out), nil
	}
}

func jpRegexMatch(arguments []any) (any, error) {
	pattern, err := strArg("regex_match", arguments, 0)
	if err != nil {
		return nil, err
	}
	src, err := ifaceToString(arguments[1])
	if err != nil {
		return nil, argTypeError("regex_match", 2, "String or Real")
	}
	return regexp.MatchString(pattern, src)
}

func jpPatternMatch(arguments []any) (any, error) {
	pattern, err := strArg("pattern_match", arguments, 0)
	if err != nil {
		return nil, err
	}
	src, err := ifaceToString(arguments[1])
	if err != nil {
		return nil, argTypeError("pattern_match", 2, "String or Real")
	}
	return wildcard.Match(pattern, src), nil
}

func jpLabelMatch(arguments []any) (any, error) {
	labels, ok := arguments[0].(map[string]any)
	if !ok {
		return nil, argTypeError("label_match", 0, "Object")
	}
	in, ok := arguments[1].(map[string]any)
	if !ok {
		return nil, argTypeError("label_match", 1, "Object")
	}
	for k, v := range labels {
		if w, ok := in[k]; !ok || !reflect.DeepEqual(v, w) {
			return false, nil
		}
	}
	return true, nil
}

func jpToBoolean(s string) (any, error) {
	switch strings.ToLower(s) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return nil, fnError("to_boolean", fmt.Sprintf("lowercase argument must be 'true' or 'false' (provided: '%s')", s))
}

func intNumber(f float64) (int, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) || math.Trunc(f) != f {
		return 0, fmt.Errorf("expected an integer number but got: %g", f)
	}
	if f > math.MaxInt32 || f < math.MinInt32 {
		return 0, fmt.Errorf("number is outside the range of integer numbers: %g", f)
	}
	return int(f), nil
}

func jpRound(arguments []any) (any, error) {
	v, err := numArg("round", arguments, 0)
	if err != nil {
		return nil, err
	}
	digits, err := numArg("round", arguments, 1)
	if err != nil {
		return nil, err
	}
	d, err := intNumber(digits)
	if err != nil {
		return nil, fnError("round", "Non-integer argument(s) passed for round off")
	}
	if d < 0 {
		return nil, fnError("round", "the number of decimal places must not be negative")
	}
	shift := math.Pow(10, float64(d))
	return math.Round(v*shift) / shift, nil
}

func jpBase64Decode(s string) (any, error) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

func (e *Evaluator) jpBase64Encode(arguments []any) (any, error) {
	s, err := strArg("base64_encode", arguments, 0)
	if err != nil {
		return nil, err
	}
	if n := base64.StdEncoding.EncodedLen(len(s)); n > e.opts.MaxOutput {
		return nil, e.tooLong("base64_encode", n)
	}
	return base64.StdEncoding.EncodeToString([]byte(s)), nil
}

// jpPathCanonicalize is filepath.Join of one element on a slash-separated
// system (Kyverno runs on Linux).
func jpPathCanonicalize(s string) (any, error) {
	if s == "" {
		return "", nil
	}
	return path.Clean(s), nil
}

func jpTruncate(arguments []any) (any, error) {
	s, err := strArg("truncate", arguments, 0)
	if err != nil {
		return nil, err
	}
	n, err := numArg("truncate", arguments, 1)
	if err != nil {
		return nil, err
	}
	if n < 0 || math.IsNaN(n) {
		n = 0
	}
	if float64(utf8.RuneCountInString(s)) <= n {
		return s, nil
	}
	return string([]rune(s)[:int(n)]), nil
}

func jpSemverCompare(v, r string) (any, error) {
	version, _ := semver.Parse(v) // as in Kyverno: an invalid version compares as 0.0.0
	rng, err := semver.ParseRange(r)
	if err != nil {
		return nil, err
	}
	return rng(version), nil
}

func jpParseJSON(s string) (any, error) {
	var out any
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// jpParseYAML parses one YAML document as Kyverno's parse_yaml does
// (sigs.k8s.io/yaml: YAML 1.1 scalars), through the engine's own YAML
// reader, which follows the same rules.
func jpParseYAML(s string) (any, error) {
	docs, diags := source.Parse("parse_yaml", []byte(s))
	if err := diags.Err(); err != nil {
		return nil, err
	}
	if len(docs) == 0 {
		return nil, nil
	}
	return docs[0].Value, nil
}

func jpLookup(arguments []any) (any, error) {
	switch in := arguments[0].(type) {
	case map[string]any:
		key, ok := arguments[1].(string)
		if !ok {
			return nil, argTypeError("lookup", 2, "String")
		}
		return in[key], nil
	case []any:
		key, ok := arguments[1].(float64)
		if !ok {
			return nil, argTypeError("lookup", 2, "Number")
		}
		i, err := intNumber(key)
		if err != nil {
			return nil, fmt.Errorf("JMESPath function 'lookup': argument #2: %s", err)
		}
		if i < 0 || i >= len(in) {
			return nil, nil
		}
		return in[i], nil
	}
	return nil, argTypeError("lookup", 1, "Object or Array")
}

func jpItems(arguments []any) (any, error) {
	keyName, ok := arguments[1].(string)
	if !ok {
		return nil, argTypeError("items", 2, "String")
	}
	valName, ok := arguments[2].(string)
	if !ok {
		return nil, argTypeError("items", 3, "String")
	}
	switch in := arguments[0].(type) {
	case map[string]any:
		keys := make([]string, 0, len(in))
		for k := range in {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := make([]any, 0, len(in))
		for _, k := range keys {
			out = append(out, map[string]any{keyName: k, valName: in[k]})
		}
		return out, nil
	case []any:
		out := make([]any, 0, len(in))
		for i, v := range in {
			out = append(out, map[string]any{keyName: float64(i), valName: v})
		}
		return out, nil
	}
	return nil, argTypeError("items", 1, "Object or Array")
}

func jpObjectFromLists(arguments []any) (any, error) {
	keys, ok := arguments[0].([]any)
	if !ok {
		return nil, argTypeError("object_from_lists", 1, "Array")
	}
	values, ok := arguments[1].([]any)
	if !ok {
		return nil, argTypeError("object_from_lists", 2, "Array")
	}
	out := map[string]any{}
	for i, k := range keys {
		key, err := ifaceToString(k)
		if err != nil {
			return nil, argTypeError("object_from_lists", 1, "StringArray")
		}
		if i < len(values) {
			out[key] = values[i]
		} else {
			out[key] = nil
		}
	}
	return out, nil
}
