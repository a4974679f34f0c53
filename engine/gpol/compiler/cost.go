package compiler

import (
	"math"
	"math/bits"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"go.yaml.in/yaml/v3"
)

// The cost rules: what each function of the environment may cost, computed
// from its arguments before it runs (budget.go). One rule per function
// name, every overload included; TestEveryFunctionHasACostRule fails for a
// function of the environment without one, so a library added later (or a
// cel-go upgrade) cannot bring an uncharged call.
//
// The units follow Kubernetes' cost model (k8s.io/apiserver/pkg/cel/
// library/cost.go, cel-go's interpreter/runtimecost.go): a call costs 1,
// plus a tenth of every byte of a string it traverses, plus one per value
// it visits or builds. Where Kubernetes charges an algorithm's typical cost
// (strings.indexOf: one traversal), genplay charges the worst case of the
// implementation that runs (cel-go's indexOf compares the needle at every
// offset: length × needle length), since the price is paid before the call
// and must bound it.

// rule prices a call.
type rule struct {
	// price is what the call may cost and the bytes of the string it may
	// build, from its arguments (the receiver first); left is what the
	// evaluation may still spend, so that measuring a large value stops
	// as soon as it is known to be too large.
	price func(args []ref.Val, left uint64) price
	// after, when set, prices the result too (for calls whose result is
	// bounded by the Host or by a fixed cap, but unknown before).
	after func(result ref.Val, left uint64) uint64
}

type price struct {
	units uint64 // cost units
	bytes uint64 // the largest string or bytes value the call may build
}

// hostCall is the base price of a call that goes to the Host (the
// simulated cluster, globalContext, http): a lookup, a list, a write.
const hostCall = 10

// tr is the cost of traversing n bytes.
func tr(n int) uint64 {
	if n <= 0 {
		return 0
	}
	return (uint64(n) + 9) / 10
}

// byteLen is the length of a string or bytes value, 0 for others.
func byteLen(v ref.Val) int {
	switch x := v.(type) {
	case types.String:
		return len(x)
	case types.Bytes:
		return len(x)
	}
	return 0
}

// count is the number of elements of a list or map, 0 for others.
func count(v ref.Val) uint64 {
	if s, ok := v.(traits.Sizer); ok {
		if _, isStr := v.(types.String); isStr {
			return 0
		}
		if _, isBytes := v.(types.Bytes); isBytes {
			return 0
		}
		if n, ok := s.Size().(types.Int); ok && n > 0 {
			return uint64(n)
		}
	}
	return 0
}

// measure is the cost of visiting every part of v once: 1 per value plus
// a tenth of every string's bytes, references to one value counted as
// often as they occur (a list of a thousand references to one long string
// is as costly to render as a thousand strings). It stops counting past
// limit and then returns limit+1, whatever the order a map was walked in:
// the same value gives the same price.
func measure(v ref.Val, limit uint64) uint64 {
	switch x := v.(type) {
	case types.String:
		return 1 + tr(len(x))
	case types.Bytes:
		return 1 + tr(len(x))
	case types.Int, types.Uint, types.Double, types.Bool, types.Null:
		return 1
	}
	// Depth first, with a stack of iterators: memory in proportion to the
	// value's depth, not its size.
	type level struct {
		it traits.Iterator
		m  traits.Mapper // for a map: values are looked up by key
	}
	var n uint64
	var stack []level
	visit := func(v ref.Val) {
		for {
			n++
			switch x := v.(type) {
			case types.String:
				n += tr(len(x))
			case types.Bytes:
				n += tr(len(x))
			case *types.Optional:
				if x.HasValue() {
					v = x.GetValue()
					continue
				}
			case traits.Mapper:
				stack = append(stack, level{it: x.Iterator(), m: x})
			case traits.Lister:
				stack = append(stack, level{it: x.Iterator()})
			}
			return
		}
	}
	visit(v)
	defer func() {
		if n > limit {
			n = satAdd(limit, 1)
		}
	}()
	for len(stack) > 0 && n <= limit {
		top := stack[len(stack)-1]
		if top.it.HasNext() != types.True {
			stack = stack[:len(stack)-1]
			continue
		}
		k := top.it.Next()
		visit(k)
		if top.m != nil {
			visit(top.m.Get(k))
		}
	}
	return n
}

// minMeasure is min(measure(a), measure(b)): what comparing a and b may
// visit.
func minMeasure(a, b ref.Val, limit uint64) uint64 {
	m := measure(a, limit)
	return measure(b, min(m, limit))
}

// ---- rule constructors ----

func fixed(n uint64) rule {
	return rule{price: func([]ref.Val, uint64) price { return price{units: n} }}
}

// linear: 1 plus factor traversals of every string or bytes argument; the
// result is no larger than the arguments.
func linear(factor uint64) rule {
	return rule{price: func(args []ref.Val, _ uint64) price {
		u := uint64(1)
		for _, a := range args {
			u = satAdd(u, satMul(factor, tr(byteLen(a))))
		}
		return price{units: u}
	}}
}

// visit: 1 plus visiting every argument (measure).
func visit(factor uint64) rule {
	return rule{price: func(args []ref.Val, left uint64) price {
		u := uint64(1)
		for _, a := range args {
			u = satAdd(u, satMul(factor, measure(a, left)))
		}
		return price{units: u}
	}}
}

// elements: 1 plus the number of elements of the receiver (a list).
var elements = rule{price: func(args []ref.Val, _ uint64) price {
	if len(args) == 0 {
		return price{units: 1}
	}
	return price{units: 1 + count(args[0])}
}}

// hostRule: a call answered by the Host: its arguments are converted and
// sent (visited), its answer converted back (priced after, by its size).
var hostRule = rule{
	price: func(args []ref.Val, left uint64) price {
		u := uint64(hostCall)
		for _, a := range args {
			u = satAdd(u, measure(a, left))
		}
		return price{units: u}
	},
	after: func(out ref.Val, left uint64) uint64 { return measure(out, left) },
}

// ---- the rules ----

// costRules prices every function of the environment, by name.
var costRules = map[string]rule{}

func init() {
	set := func(r rule, names ...string) {
		for _, n := range names {
			if _, dup := costRules[n]; dup {
				panic("two cost rules for " + n)
			}
			costRules[n] = r
		}
	}

	// Operators and accessors on fixed-size values; conversions of
	// scalars; optional values; the hidden helpers of macros. Logical
	// operators and ?: are planned as their own nodes and charged after.
	set(fixed(1), "!_", "-_", "_%_", "_*_", "_/_", "_-_", "_&&_", "_||_", "_?_:_",
		"@not_strictly_false", "__not_strictly_false__", "_[_]", "_[?_]", "_?._",
		"dyn", "type", "hasValue", "value", "optional.none", "optional.of", "optional.ofNonZeroValue",
		"or", "orValue", "__orValueCompat__", "cel.@block", "size", "first", "last",
		"math.abs", "math.bitAnd", "math.bitNot", "math.bitOr", "math.bitShiftLeft", "math.bitShiftRight",
		"math.bitXor", "math.ceil", "math.floor", "math.isFinite", "math.isInf", "math.isNaN", "math.round",
		"math.sign", "math.sqrt", "math.trunc",
		"time.now", "time.truncate", "time.toCron",
		// Kubernetes: quantity, semver, URL, IP and CIDR accessors
		// (nominal in Kubernetes' cost.go), named formats.
		"add", "sub", "sign", "asInteger", "isInteger", "asApproximateFloat", "compareTo", "isGreaterThan",
		"isLessThan", "major", "minor", "patch",
		"getScheme", "getHost", "getHostname", "getPort", "getEscapedPath", "getQuery",
		"family", "masked", "prefixLength", "isUnspecified", "isLoopback", "isLinkLocalMulticast",
		"isLinkLocalUnicast", "isGlobalUnicast",
		"format.named", "format.byte", "format.date", "format.datetime", "format.dns1035Label",
		"format.dns1035LabelPrefix", "format.dns1123Label", "format.dns1123LabelPrefix",
		"format.dns1123Subdomain", "format.dns1123SubdomainPrefix", "format.labelValue",
		"format.qualifiedName", "format.uri", "format.uuid",
	)

	// One traversal of the string arguments: parsing, hashing, prefix
	// tests, conversions; the result is no larger than the input.
	set(linear(1), "bool", "int", "uint", "double", "duration", "timestamp", "string", "bytes",
		"getDate", "getDayOfMonth", "getDayOfWeek", "getDayOfYear", "getFullYear", "getHours",
		"getMilliseconds", "getMinutes", "getMonth", "getSeconds",
		"startsWith", "endsWith", "contains",
		"sha1", "sha256", "md5", "hash.sha1", "hash.sha256", "hash.md5",
		"url", "isURL", "ip", "isIP", "cidr", "isCIDR", "containsIP", "containsCIDR",
		"quantity", "isQuantity", "semver", "isSemver",
		"image", "isImage", "parseImageReference", "registry", "repository", "tag", "digest",
		"identifier", "containsDigest",
	)
	// Two traversals: parse and compare, or read and build a new string
	// of the same size; cel-go's string functions work on runes (four
	// bytes each), which charAt and substring convert the whole string to.
	set(linear(2), "ip.isCanonical", "lowerAscii", "upperAscii", "trim", "gzip.compress")
	set(linear(4), "charAt", "substring", "x509.decode")

	// The Kubernetes formats validate with regular expressions of at most
	// MaxNameFormatRegexSize (128) characters, 4 characters an
	// instruction: 32 per ten bytes (Kubernetes' cost.go "validate").
	set(linear(32), "validate")

	// random(pattern): the pattern is read; the result is at most
	// maxRandomLength characters.
	set(rule{price: func(args []ref.Val, _ uint64) price {
		u := uint64(1) + tr(maxRandomLength)
		for _, a := range args {
			u = satAdd(u, tr(byteLen(a)))
		}
		return price{units: u}
	}}, "random")

	// Strings built from their inputs.
	set(rule{price: addPrice}, "_+_")
	set(rule{price: comparePrice}, "_<_", "_<=_", "_>_", "_>=_")
	set(rule{price: func(args []ref.Val, left uint64) price {
		return price{units: 1 + minMeasure(args[0], args[1], left)}
	}}, "_==_", "_!=_")
	set(rule{price: inPrice}, "@in", "_in_", "in")
	set(rule{price: indexOfPrice}, "indexOf", "lastIndexOf")
	set(rule{price: replacePrice}, "replace")
	set(rule{price: splitPrice}, "split")
	set(rule{price: joinPrice}, "join")
	set(rule{price: quotePrice}, "strings.quote")
	set(rule{price: formatPrice}, "format")
	set(rule{price: func(args []ref.Val, _ uint64) price {
		n := byteLen(args[0])
		return price{units: 1 + 2*tr(n), bytes: uint64(n+2)/3*4 + 4}
	}}, "base64.encode")
	set(rule{price: func(args []ref.Val, _ uint64) price {
		n := byteLen(args[0])
		return price{units: 1 + 2*tr(n), bytes: uint64(n) / 4 * 3}
	}}, "base64.decode")
	set(rule{price: jsonEncodePrice}, "marshal", "json.encode")
	set(rule{price: jsonDecodePrice}, "unmarshal")
	set(rule{price: yamlParsePrice}, "parse")
	// gzip.decompress stops at maxDecompressed bytes; what it returned is
	// charged after.
	set(rule{price: func(args []ref.Val, _ uint64) price { return price{units: 1 + tr(byteLen(args[0]))} },
		after: func(out ref.Val, _ uint64) uint64 { return tr(byteLen(out)) }}, "gzip.decompress")

	// Regular expressions: compiled size × input.
	set(rule{price: matchesPrice}, "matches", "find", "regex.extract")
	set(rule{price: findAllPrice}, "findAll", "regex.extractAll")
	set(rule{price: regexReplacePrice}, "regex.replace")

	// Lists.
	set(elements, "reverse", "unwrapOpt", "optional.unwrap", "math.@max", "math.@min", "listObjToMap", "transform.listObjToMap")
	set(rule{price: func(args []ref.Val, _ uint64) price {
		n := uint64(0)
		if i, ok := args[0].(types.Int); ok && i > 0 {
			n = uint64(i)
		}
		return price{units: 1 + n}
	}}, "lists.range")
	set(rule{price: func(args []ref.Val, _ uint64) price {
		n := count(args[0])
		if len(args) == 3 {
			a, ok1 := args[1].(types.Int)
			b, ok2 := args[2].(types.Int)
			if ok1 && ok2 && b >= a && a >= 0 {
				n = min(n, uint64(b-a))
			}
		}
		return price{units: 1 + n}
	}}, "slice")
	set(rule{price: flattenPrice}, "flatten")
	// isSorted, sum, max, min compare each element once (Kubernetes: one
	// traversal).
	set(visit(1), "isSorted", "sum", "max", "min")
	set(rule{price: sortPrice}, "sort", "@sortByAssociatedKeys")
	set(rule{price: distinctPrice}, "distinct")
	set(rule{price: setsPrice(1)}, "sets.contains", "sets.intersects")
	set(rule{price: setsPrice(2)}, "sets.equivalent")

	// Calls that reach the Host (the simulated cluster, globalContext,
	// http, image metadata) or hand objects to it.
	set(hostRule, "get", "Get", "list", "List", "post", "Post", "toGVR", "ToGVR", "client", "Client",
		"getMetadata", "GetMetadata")
	set(visit(2), "apply", "Apply") // converted to JSON objects, then applied
}

// addPrice: string and bytes concatenation copies both; a list + list is
// a view in cel-go (or an append to a comprehension's accumulator), which
// costs the elements it adds.
func addPrice(args []ref.Val, _ uint64) price {
	a, b := args[0], args[1]
	switch a.(type) {
	case types.String, types.Bytes:
		n := byteLen(a) + byteLen(b)
		return price{units: 1 + tr(n), bytes: uint64(n)}
	}
	if _, ok := a.(traits.Lister); ok {
		return price{units: 1 + count(b)}
	}
	return price{units: 1}
}

func comparePrice(args []ref.Val, _ uint64) price {
	return price{units: 1 + tr(min(byteLen(args[0]), byteLen(args[1])))}
}

// inPrice: x in list compares x with every element; x in map is a lookup.
func inPrice(args []ref.Val, left uint64) price {
	x, c := args[0], args[1]
	if _, ok := c.(traits.Lister); ok {
		n := count(c)
		each := measure(x, left)
		// Every element costs at least 1 to visit: for a scalar x the
		// comparisons cost n, without walking the list to know it.
		cmp := satMul(n, each)
		if each > 1 {
			cmp = measure(c, min(left, cmp))
		}
		return price{units: satAdd(1+n, cmp)}
	}
	return price{units: 1 + measure(x, left)}
}

// indexOfPrice: on strings, cel-go's indexOf converts both to runes and
// compares the needle at every offset; on lists, compares every element.
func indexOfPrice(args []ref.Val, left uint64) price {
	if l, ok := args[0].(traits.Lister); ok {
		return inPrice([]ref.Val{args[1], l}, left)
	}
	n, m := byteLen(args[0]), byteLen(args[1])
	u := 1 + 4*tr(n) + 4*tr(m)
	if m > 0 && n >= m {
		u = satAdd(u, satMul(uint64(n-m+1), tr(m)))
	}
	return price{units: u}
}

// replacePrice: the result's length is computed from the number of
// occurrences (one traversal), before anything is built.
func replacePrice(args []ref.Val, _ uint64) price {
	s, _ := args[0].(types.String)
	old, _ := args[1].(types.String)
	repl, _ := args[2].(types.String)
	k := uint64(strings.Count(string(s), string(old)))
	if len(args) == 4 {
		if n, ok := args[3].(types.Int); ok && n >= 0 {
			k = min(k, uint64(n))
		}
	}
	size := satAdd(uint64(len(s)), satMul(k, uint64(len(repl))))
	size -= min(size, k*uint64(len(old)))
	return price{units: 1 + tr(len(s)) + 2*trU(size), bytes: size}
}

func trU(n uint64) uint64 { return (satAdd(n, 9)) / 10 }

// splitPrice: one traversal and a list of the pieces (substrings of the
// input, not copies).
func splitPrice(args []ref.Val, _ uint64) price {
	s, _ := args[0].(types.String)
	sep, _ := args[1].(types.String)
	k := uint64(strings.Count(string(s), string(sep))) + 1
	if len(args) == 3 {
		if n, ok := args[2].(types.Int); ok && n > 0 {
			k = min(k, uint64(n))
		}
	}
	return price{units: 1 + tr(len(s)) + k}
}

// joinPrice: the result's length is the sum of the elements' and the
// separators'.
func joinPrice(args []ref.Val, _ uint64) price {
	l, ok := args[0].(traits.Lister)
	if !ok {
		return price{units: 1}
	}
	var sep int
	if len(args) == 2 {
		sep = byteLen(args[1])
	}
	n := count(l)
	size := satMul(n, uint64(sep))
	it := l.Iterator()
	for it.HasNext() == types.True {
		size = satAdd(size, uint64(byteLen(it.Next())))
	}
	return price{units: 1 + n + 2*trU(size), bytes: size}
}

// quotePrice: strings.quote escapes a byte into at most four.
func quotePrice(args []ref.Val, _ uint64) price {
	n := byteLen(args[0])
	return price{units: 1 + 2*tr(4*n), bytes: uint64(4*n + 2)}
}

// formatPrice bounds the text (string).format(list) builds: the format's
// literal text, every argument rendered at its largest (a string may be
// quoted with escapes inside a list, a number takes at most
// maxNumberText characters), and every precision a clause asks for
// (%.1000000f writes a million digits).
func formatPrice(args []ref.Val, left uint64) price {
	f, _ := args[0].(types.String)
	size := uint64(len(f))
	for i := 0; i < len(f); i++ {
		if f[i] != '%' || i+1 >= len(f) || f[i+1] != '.' {
			continue
		}
		var p uint64
		for j := i + 2; j < len(f) && f[j] >= '0' && f[j] <= '9'; j++ {
			p = satAdd(satMul(p, 10), uint64(f[j]-'0'))
		}
		size = satAdd(size, p)
	}
	if len(args) > 1 {
		size = satAdd(size, renderBound(args[1], false, left*10))
	}
	return price{units: 1 + tr(len(f)) + 2*trU(size), bytes: size}
}

// maxNumberText is the most characters a number takes as text (a double
// in %f without precision: 309 digits, the point and 6 decimals; an int
// in binary: 64).
const maxNumberText = 330

// renderBound bounds the text of v as format's %s (or a conversion)
// writes it, in bytes; nested strings are quoted with escapes. It stops
// past limit.
func renderBound(v ref.Val, nested bool, limit uint64) uint64 {
	switch x := v.(type) {
	case types.String:
		if nested {
			return uint64(4*len(x) + 2)
		}
		return uint64(2 * len(x)) // %x writes two digits a byte
	case types.Bytes:
		if nested {
			return uint64(4*len(x) + 3)
		}
		return uint64(2 * len(x))
	case *types.Optional:
		if x.HasValue() {
			return 16 + renderBound(x.GetValue(), true, limit)
		}
		return 16
	case traits.Mapper:
		n := uint64(2)
		it := x.Iterator()
		for it.HasNext() == types.True && n <= limit {
			k := it.Next()
			n = satAdd(n, 4+renderBound(k, true, limit)+renderBound(x.Get(k), true, limit))
		}
		return n
	case traits.Lister:
		n := uint64(2)
		it := x.Iterator()
		for it.HasNext() == types.True && n <= limit {
			n = satAdd(n, 2+renderBound(it.Next(), true, limit))
		}
		return n
	}
	return maxNumberText
}

// jsonEncodePrice: json.marshal (and cel-go's json.encode) convert the
// value and write it; the result's length is bounded by its measure, with
// every byte of a string escaped as \u00XX at worst.
func jsonEncodePrice(args []ref.Val, left uint64) price {
	v := args[len(args)-1]
	size := jsonBound(v, left*10)
	return price{units: 1 + 2*measure(v, left) + trU(size), bytes: size}
}

// jsonBound bounds the compact JSON text of v in bytes.
func jsonBound(v ref.Val, limit uint64) uint64 {
	switch x := v.(type) {
	case types.String:
		if uint64(len(x)) > limit {
			return uint64(len(x)) + 2 // too long already, without looking at its escapes
		}
		return escapedLen(string(x))
	case types.Bytes:
		return uint64(len(x)+2)/3*4 + 2
	case traits.Mapper:
		n := uint64(2)
		it := x.Iterator()
		for it.HasNext() == types.True && n <= limit {
			k := it.Next()
			n = satAdd(n, 2+jsonBound(k, limit)+jsonBound(x.Get(k), limit))
		}
		return n
	case traits.Lister:
		n := uint64(2)
		it := x.Iterator()
		for it.HasNext() == types.True && n <= limit {
			n = satAdd(n, 1+jsonBound(it.Next(), limit))
		}
		return n
	case *types.Optional:
		if x.HasValue() {
			return jsonBound(x.GetValue(), limit)
		}
	}
	return 32
}

// escapedLen is the length of s as encoding/json quotes it (HTML escaped).
func escapedLen(s string) uint64 {
	n := uint64(2)
	for i := 0; i < len(s); {
		b := s[i]
		if b < utf8.RuneSelf {
			switch {
			case b == '"' || b == '\\' || b == '\n' || b == '\r' || b == '\t':
				n += 2
			case b < 0x20 || b == '<' || b == '>' || b == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || r == '\u2028' || r == '\u2029' {
			n += 6
		} else {
			n += uint64(size)
		}
		i += size
	}
	return n
}

// jsonDecodePrice: json.unmarshal builds at most one value per comma,
// colon or opening bracket, plus one.
func jsonDecodePrice(args []ref.Val, _ uint64) price {
	s := string(stringArg(args[len(args)-1]))
	values := uint64(1)
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ',', ':', '[', '{':
			values++
		}
	}
	return price{units: 1 + 2*tr(len(s)) + 2*values}
}

// yamlParsePrice: like JSON, and every alias may expand what it names, so
// the node count is bounded by parsing with genplay's own bounded parser
// first (yamlNodes).
func yamlParsePrice(args []ref.Val, left uint64) price {
	s := string(stringArg(args[len(args)-1]))
	return price{units: 1 + 2*tr(len(s)) + 2*yamlNodes(s, left)}
}

func stringArg(v ref.Val) types.String {
	s, _ := v.(types.String)
	return s
}

// ---- regular expressions ----

// regexInfo is what pricing needs of a pattern: its program size (the
// instructions RE2 may run at every position of the input) and its
// capture groups.
type regexInfo struct {
	insts uint64
	caps  int
	ok    bool
}

var regexCache struct {
	sync.Mutex
	m map[string]regexInfo
}

// regexOf parses a pattern (linear in its length) and estimates its
// compiled size without compiling it: counted repetitions multiply.
func regexOf(pattern string) regexInfo {
	regexCache.Lock()
	info, ok := regexCache.m[pattern]
	regexCache.Unlock()
	if ok {
		return info
	}
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err == nil {
		info = regexInfo{insts: progSize(re), caps: re.MaxCap(), ok: true}
	}
	regexCache.Lock()
	if regexCache.m == nil || len(regexCache.m) >= 256 {
		regexCache.m = map[string]regexInfo{}
	}
	regexCache.m[pattern] = info
	regexCache.Unlock()
	return info
}

func progSize(re *syntax.Regexp) uint64 {
	switch re.Op {
	case syntax.OpLiteral:
		return uint64(len(re.Rune)) + 1
	case syntax.OpRepeat:
		n := re.Max
		if n < 0 {
			n = re.Min + 1
		}
		return satMul(uint64(max(n, 1)), progSize(re.Sub[0])) + 1
	}
	n := uint64(1)
	for _, s := range re.Sub {
		n = satAdd(n, progSize(s))
	}
	return n
}

// matchCost is the price of running pattern over s once: parsing and
// compiling it, and every instruction of the program at every ten bytes of
// input (RE2 runs an instruction at most once per input position).
func matchCost(s, pattern string) (uint64, regexInfo) {
	info := regexOf(pattern)
	u := 1 + tr(len(pattern))
	if !info.ok {
		return u, info // the call fails at once, with cel-go's error
	}
	return satAdd(u, satAdd(info.insts, satMul(info.insts, 1+tr(len(s))))), info
}

// matchesPrice: matches(s, re), s.find(re), regex.extract(s, re). A
// regex.* function takes the string first, the others are called on it.
func matchesPrice(args []ref.Val, _ uint64) price {
	u, _ := matchCost(string(stringArg(args[0])), string(stringArg(args[1])))
	return price{units: u}
}

// findAllPrice: every match is a substring of the input (not a copy); there
// are at most len(s)+1 of them, each recorded with its groups.
func findAllPrice(args []ref.Val, _ uint64) price {
	s := string(stringArg(args[0]))
	u, info := matchCost(s, string(stringArg(args[1])))
	k := uint64(len(s) + 1)
	if len(args) == 3 {
		if n, ok := args[2].(types.Int); ok && n >= 0 {
			k = min(k, uint64(n))
		}
	}
	return price{units: satAdd(u, satMul(k, uint64(info.caps+1)))}
}

// regexReplacePrice: regex.replace(s, re, replacement[, n]). The matches
// do not overlap, so however often a group is referenced (\1 ... \9) the
// groups it copies add up to at most the input's length per reference; the
// literal text is copied once per match, and every match is recorded with
// its groups first.
func regexReplacePrice(args []ref.Val, _ uint64) price {
	s := string(stringArg(args[0]))
	repl := string(stringArg(args[2]))
	u, info := matchCost(s, string(stringArg(args[1])))
	k := uint64(len(s) + 1)
	if len(args) == 4 {
		if n, ok := args[3].(types.Int); ok && n >= 0 {
			k = min(k, uint64(n))
		}
	}
	var refs, literal uint64
	for i := 0; i < len(repl); i++ {
		if repl[i] == '\\' && i+1 < len(repl) {
			i++
			if repl[i] >= '0' && repl[i] <= '9' {
				refs++
				continue
			}
		}
		literal++
	}
	size := satAdd(uint64(len(s)), satAdd(satMul(k, literal), satMul(refs, uint64(len(s)))))
	u = satAdd(u, satMul(k, uint64(2*(info.caps+1))))
	return price{units: satAdd(u, 2*trU(size)), bytes: size}
}

// ---- lists ----

// flattenPrice: the elements visited down to the depth asked (1 by
// default).
func flattenPrice(args []ref.Val, left uint64) price {
	depth := int64(1)
	if len(args) == 2 {
		if d, ok := args[1].(types.Int); ok {
			depth = int64(d)
		}
	}
	var n uint64
	var walk func(v ref.Val, d int64)
	walk = func(v ref.Val, d int64) {
		l, ok := v.(traits.Lister)
		if !ok || n > left {
			return
		}
		it := l.Iterator()
		for it.HasNext() == types.True && n <= left {
			e := it.Next()
			n++
			if d > 0 {
				walk(e, d-1)
			}
		}
	}
	walk(args[0], max(0, min(depth, 64)))
	return price{units: 1 + n}
}

// sortPrice: n·log₂n comparisons, each as costly as the elements compared.
func sortPrice(args []ref.Val, left uint64) price {
	n := count(args[0])
	lg := uint64(bits.Len64(n))
	u := satMul(satAdd(measure(args[0], left), n), lg)
	if len(args) == 2 { // @sortByAssociatedKeys(list, keys)
		u = satAdd(u, satMul(measure(args[1], left), lg))
	}
	return price{units: 1 + u}
}

// distinctPrice: cel-go compares every element with the distinct ones kept
// so far: up to n²/2 comparisons.
func distinctPrice(args []ref.Val, left uint64) price {
	n := count(args[0])
	return price{units: 1 + satMul(n/2+1, measure(args[0], left))}
}

// setsPrice: every element of one list is looked for in the other
// (sets.equivalent: both ways).
func setsPrice(ways uint64) func(args []ref.Val, left uint64) price {
	return func(args []ref.Val, left uint64) price {
		a, b := args[0], args[1]
		na, nb := count(a), count(b)
		cmp := min(satMul(nb, measure(a, left)), satMul(na, measure(b, left)))
		return price{units: 1 + satMul(ways, satAdd(satMul(na, nb), cmp))}
	}
}

// ---- YAML ----

// yamlNodes bounds the values yaml.parse builds from s: without aliases,
// one per separator (a newline, comma, colon, dash, question mark or
// opening bracket) plus one; with aliases, the document's nodes with every
// alias expanded, counted on yaml.v3's tree (aliases not expanded, each
// anchor's size computed once) and stopped past limit.
func yamlNodes(s string, limit uint64) uint64 {
	if !strings.Contains(s, "*") {
		n := uint64(1)
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '\n', ',', ':', '-', '?', '[', '{':
				n++
			}
		}
		return n
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(s), &doc); err != nil {
		return math.MaxUint64 // aliases in a text yaml.v3 cannot read: not priced, not run
	}
	memo := map[*yaml.Node]uint64{}
	var size func(n *yaml.Node, depth int) uint64
	size = func(n *yaml.Node, depth int) uint64 {
		if n == nil || depth > 1000 {
			return math.MaxUint64
		}
		if v, ok := memo[n]; ok {
			return v
		}
		memo[n] = math.MaxUint64 // a cycle is refused
		v := uint64(1)
		if n.Kind == yaml.AliasNode {
			v = satAdd(v, size(n.Alias, depth+1))
		}
		for _, c := range n.Content {
			if v > limit {
				break
			}
			v = satAdd(v, size(c, depth+1))
		}
		memo[n] = v
		return v
	}
	return size(&doc, 0)
}
