package compiler

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"net/netip"
	"net/url"
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/genplay/genplay/engine/internal/k8sname"
	"github.com/genplay/genplay/engine/internal/quantity"
	"github.com/genplay/genplay/engine/internal/semver"
)

// The Kubernetes CEL libraries Kyverno enables (§2.4), written here against
// the behaviour of k8s.io/apiserver/pkg/cel/library (lists.go, regex.go,
// urls.go, ip.go, cidr.go, quantity.go, semverlib.go, format.go) so that
// apimachinery stays out of the build.

func k8sLibs() []cel.EnvOption {
	var opts []cel.EnvOption
	opts = append(opts, k8sListsLib()...)
	opts = append(opts, k8sRegexLib()...)
	opts = append(opts, k8sURLLib()...)
	opts = append(opts, k8sIPLib()...)
	opts = append(opts, k8sQuantityLib()...)
	opts = append(opts, k8sSemverLib()...)
	opts = append(opts, k8sFormatLib()...)
	return opts
}

// ---- lists ----

func k8sListsLib() []cel.EnvOption {
	t := cel.TypeParamType("T")
	lt := cel.ListType(t)
	compare := func(a, b ref.Val) (int, ref.Val) {
		c, ok := a.(traits.Comparer)
		if !ok {
			return 0, errorf("no such overload: %s is not comparable", a.Type().TypeName())
		}
		r := c.Compare(b)
		if types.IsError(r) {
			return 0, r
		}
		return int(r.(types.Int)), nil
	}
	extreme := func(sign int) func(ref.Val) ref.Val {
		return func(v ref.Val) ref.Val {
			l := v.(traits.Lister)
			if l.Size() == types.IntZero {
				return errorf("%s called on empty list", map[int]string{1: "max", -1: "min"}[sign])
			}
			it := l.Iterator()
			best := it.Next()
			for it.HasNext() == types.True {
				x := it.Next()
				c, err := compare(x, best)
				if err != nil {
					return err
				}
				if c*sign > 0 {
					best = x
				}
			}
			return best
		}
	}
	indexOf := func(last bool) func(l, x ref.Val) ref.Val {
		return func(lv, x ref.Val) ref.Val {
			l := lv.(traits.Lister)
			n := int64(l.Size().(types.Int))
			found := int64(-1)
			for i := int64(0); i < n; i++ {
				if l.Get(types.Int(i)).Equal(x) == types.True {
					found = i
					if !last {
						break
					}
				}
			}
			return types.Int(found)
		}
	}
	sum := func(v ref.Val) ref.Val {
		l := v.(traits.Lister)
		it := l.Iterator()
		var acc ref.Val
		for it.HasNext() == types.True {
			x := it.Next()
			if acc == nil {
				acc = x
				continue
			}
			a, ok := acc.(traits.Adder)
			if !ok {
				return errorf("no such overload: sum of %s", acc.Type().TypeName())
			}
			acc = a.Add(x)
			if types.IsError(acc) {
				return acc
			}
		}
		if acc == nil {
			return types.IntZero
		}
		return acc
	}
	return []cel.EnvOption{
		cel.Function("isSorted", cel.MemberOverload("list_is_sorted", []*cel.Type{lt}, cel.BoolType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				l := v.(traits.Lister)
				it := l.Iterator()
				var prev ref.Val
				for it.HasNext() == types.True {
					x := it.Next()
					if prev != nil {
						c, err := compare(prev, x)
						if err != nil {
							return err
						}
						if c > 0 {
							return types.False
						}
					}
					prev = x
				}
				return types.True
			}))),
		cel.Function("sum", cel.MemberOverload("list_sum", []*cel.Type{lt}, t, cel.UnaryBinding(sum))),
		cel.Function("max", cel.MemberOverload("list_max", []*cel.Type{lt}, t, cel.UnaryBinding(extreme(1)))),
		cel.Function("min", cel.MemberOverload("list_min", []*cel.Type{lt}, t, cel.UnaryBinding(extreme(-1)))),
		cel.Function("indexOf", cel.MemberOverload("list_index_of", []*cel.Type{lt, t}, cel.IntType, cel.BinaryBinding(indexOf(false)))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_last_index_of", []*cel.Type{lt, t}, cel.IntType, cel.BinaryBinding(indexOf(true)))),
	}
}

// ---- regex ----

func compileRE(v ref.Val) (*regexp.Regexp, ref.Val) {
	re, err := regexp.Compile(str(v))
	if err != nil {
		return nil, errorf("%v", err)
	}
	return re, nil
}

func k8sRegexLib() []cel.EnvOption {
	s := cel.StringType
	all := func(sv, pv ref.Val, limit int) ref.Val {
		re, errv := compileRE(pv)
		if errv != nil {
			return errv
		}
		if limit < 0 || limit > MaxListSize {
			limit = MaxListSize
		}
		return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str(sv), limit))
	}
	return []cel.EnvOption{
		cel.Function("find", cel.MemberOverload("string_find_string", []*cel.Type{s, s}, s,
			cel.BinaryBinding(func(sv, pv ref.Val) ref.Val {
				re, errv := compileRE(pv)
				if errv != nil {
					return errv
				}
				return types.String(re.FindString(str(sv)))
			}))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*cel.Type{s, s}, cel.ListType(s),
				cel.BinaryBinding(func(sv, pv ref.Val) ref.Val { return all(sv, pv, -1) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{s, s, cel.IntType}, cel.ListType(s),
				cel.FunctionBinding(func(a ...ref.Val) ref.Val { return all(a[0], a[1], int(a[2].(types.Int))) }))),
	}
}

// ---- opaque helper values ----

// value is an opaque Kubernetes library value (URL, IP, CIDR, Quantity,
// Semver, Format).
type value[T comparable] struct {
	typ *types.Type
	v   T
	s   string // string(x) result
}

func (x *value[T]) ConvertToNative(t reflect.Type) (any, error) {
	if t.Kind() == reflect.String {
		return x.s, nil
	}
	return nil, fmt.Errorf("type conversion error from %s to %v", x.typ.TypeName(), t)
}
func (x *value[T]) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.StringType:
		return types.String(x.s)
	case types.TypeType:
		return x.typ
	}
	return errorf("type conversion error from %s to %s", x.typ.TypeName(), t.TypeName())
}
func (x *value[T]) Equal(o ref.Val) ref.Val {
	y, ok := o.(*value[T])
	return types.Bool(ok && y.typ == x.typ && y.v == x.v)
}
func (x *value[T]) Type() ref.Type { return x.typ }
func (x *value[T]) Value() any     { return x.v }

func unary(name, id string, arg, out *cel.Type, f func(ref.Val) ref.Val) cel.EnvOption {
	return cel.Function(name, cel.Overload(id, []*cel.Type{arg}, out, cel.UnaryBinding(f)))
}

func member(name, id string, args []*cel.Type, out *cel.Type, f func(...ref.Val) ref.Val) cel.EnvOption {
	return cel.Function(name, cel.MemberOverload(id, args, out, cel.FunctionBinding(f)))
}

func stringOf(name, id string, t *cel.Type) cel.EnvOption {
	return cel.Function("string", cel.Overload(id, []*cel.Type{t}, cel.StringType,
		cel.UnaryBinding(func(v ref.Val) ref.Val { return v.ConvertToType(types.StringType) })))
}

// ---- url ----

var urlType = cel.ObjectType("kubernetes.URL")

type urlValue = value[string]

func parseURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("URL parse error during conversion from string: %v", err)
	}
	if !u.IsAbs() && !strings.HasPrefix(s, "/") {
		return nil, fmt.Errorf("URL parse error during conversion from string: %q must be an absolute URI or an absolute path", s)
	}
	return u, nil
}

func k8sURLLib() []cel.EnvOption {
	s := cel.StringType
	get := func(name string, f func(*url.URL) ref.Val) cel.EnvOption {
		return member(name, "url_"+name, []*cel.Type{urlType}, s, func(a ...ref.Val) ref.Val {
			u, _ := url.Parse(a[0].(*urlValue).v)
			return f(u)
		})
	}
	return []cel.EnvOption{
		unary("url", "string_to_url", s, urlType, func(v ref.Val) ref.Val {
			if _, err := parseURL(str(v)); err != nil {
				return errorf("%v", err)
			}
			return &urlValue{typ: urlType, v: str(v), s: str(v)}
		}),
		unary("isURL", "is_url_string", s, cel.BoolType, func(v ref.Val) ref.Val {
			_, err := parseURL(str(v))
			return types.Bool(err == nil)
		}),
		stringOf("string", "url_to_string", urlType),
		get("getScheme", func(u *url.URL) ref.Val { return types.String(u.Scheme) }),
		get("getHost", func(u *url.URL) ref.Val { return types.String(u.Host) }),
		get("getHostname", func(u *url.URL) ref.Val { return types.String(u.Hostname()) }),
		get("getPort", func(u *url.URL) ref.Val { return types.String(u.Port()) }),
		get("getEscapedPath", func(u *url.URL) ref.Val { return types.String(u.EscapedPath()) }),
		member("getQuery", "url_getQuery", []*cel.Type{urlType}, cel.MapType(s, cel.ListType(s)), func(a ...ref.Val) ref.Val {
			u, _ := url.Parse(a[0].(*urlValue).v)
			q := map[string][]string(u.Query())
			return types.DefaultTypeAdapter.NativeToValue(q)
		}),
	}
}

// ---- ip / cidr ----

var (
	ipType   = cel.ObjectType("net.IP")
	cidrType = cel.ObjectType("net.CIDR")
)

type ipValue = value[netip.Addr]
type cidrValue = value[netip.Prefix]

func parseIP(s string) (netip.Addr, error) {
	a, err := netip.ParseAddr(s)
	if err != nil {
		return a, fmt.Errorf("IP Address %q parse error during conversion from string: %v", s, err)
	}
	if a.Zone() != "" {
		return a, fmt.Errorf("IP address %q with zone value is not allowed", s)
	}
	if a.Is4In6() {
		return a, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return a, nil
}

func parseCIDR(s string) (netip.Prefix, error) {
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return p, fmt.Errorf("network address parse error during conversion from string: %v", err)
	}
	if p.Addr().Zone() != "" {
		return p, fmt.Errorf("CIDR with zone value is not allowed")
	}
	if p.Addr().Is4In6() {
		return p, fmt.Errorf("IPv4-mapped IPv6 address %q is not allowed", s)
	}
	return p, nil
}

func newIP(a netip.Addr) ref.Val     { return &ipValue{typ: ipType, v: a, s: a.String()} }
func newCIDR(p netip.Prefix) ref.Val { return &cidrValue{typ: cidrType, v: p, s: p.String()} }

func k8sIPLib() []cel.EnvOption {
	s, b := cel.StringType, cel.BoolType
	pred := func(name string, f func(netip.Addr) bool) cel.EnvOption {
		return member(name, "ip_"+name, []*cel.Type{ipType}, b, func(a ...ref.Val) ref.Val {
			return types.Bool(f(a[0].(*ipValue).v))
		})
	}
	containsIP := func(p netip.Prefix, a netip.Addr) ref.Val { return types.Bool(p.Contains(a)) }
	containsCIDR := func(p, q netip.Prefix) ref.Val {
		return types.Bool(p.Bits() <= q.Bits() && p.Contains(q.Addr()))
	}
	return []cel.EnvOption{
		unary("ip", "string_to_ip", s, ipType, func(v ref.Val) ref.Val {
			a, err := parseIP(str(v))
			if err != nil {
				return errorf("%v", err)
			}
			return newIP(a)
		}),
		unary("isIP", "is_ip", s, b, func(v ref.Val) ref.Val { _, err := parseIP(str(v)); return types.Bool(err == nil) }),
		unary("ip.isCanonical", "ip_is_canonical", s, b, func(v ref.Val) ref.Val {
			a, err := parseIP(str(v))
			if err != nil {
				return errorf("%v", err)
			}
			return types.Bool(a.String() == str(v))
		}),
		stringOf("string", "ip_to_string", ipType),
		member("family", "ip_family", []*cel.Type{ipType}, cel.IntType, func(a ...ref.Val) ref.Val {
			if a[0].(*ipValue).v.Is4() {
				return types.Int(4)
			}
			return types.Int(6)
		}),
		pred("isUnspecified", netip.Addr.IsUnspecified),
		pred("isLoopback", netip.Addr.IsLoopback),
		pred("isLinkLocalMulticast", netip.Addr.IsLinkLocalMulticast),
		pred("isLinkLocalUnicast", netip.Addr.IsLinkLocalUnicast),
		pred("isGlobalUnicast", netip.Addr.IsGlobalUnicast),

		unary("cidr", "string_to_cidr", s, cidrType, func(v ref.Val) ref.Val {
			p, err := parseCIDR(str(v))
			if err != nil {
				return errorf("%v", err)
			}
			return newCIDR(p)
		}),
		unary("isCIDR", "is_cidr", s, b, func(v ref.Val) ref.Val { _, err := parseCIDR(str(v)); return types.Bool(err == nil) }),
		stringOf("string", "cidr_to_string", cidrType),
		cel.Function("containsIP",
			cel.MemberOverload("cidr_contains_ip_string", []*cel.Type{cidrType, s}, b, cel.BinaryBinding(func(c, v ref.Val) ref.Val {
				a, err := parseIP(str(v))
				if err != nil {
					return errorf("%v", err)
				}
				return containsIP(c.(*cidrValue).v, a)
			})),
			cel.MemberOverload("cidr_contains_ip_ip", []*cel.Type{cidrType, ipType}, b, cel.BinaryBinding(func(c, v ref.Val) ref.Val {
				return containsIP(c.(*cidrValue).v, v.(*ipValue).v)
			}))),
		cel.Function("containsCIDR",
			cel.MemberOverload("cidr_contains_cidr_string", []*cel.Type{cidrType, s}, b, cel.BinaryBinding(func(c, v ref.Val) ref.Val {
				q, err := parseCIDR(str(v))
				if err != nil {
					return errorf("%v", err)
				}
				return containsCIDR(c.(*cidrValue).v, q)
			})),
			cel.MemberOverload("cidr_contains_cidr", []*cel.Type{cidrType, cidrType}, b, cel.BinaryBinding(func(c, v ref.Val) ref.Val {
				return containsCIDR(c.(*cidrValue).v, v.(*cidrValue).v)
			}))),
		member("ip", "cidr_ip", []*cel.Type{cidrType}, ipType, func(a ...ref.Val) ref.Val { return newIP(a[0].(*cidrValue).v.Addr()) }),
		member("masked", "cidr_masked", []*cel.Type{cidrType}, cidrType, func(a ...ref.Val) ref.Val { return newCIDR(a[0].(*cidrValue).v.Masked()) }),
		member("prefixLength", "cidr_prefix_length", []*cel.Type{cidrType}, cel.IntType, func(a ...ref.Val) ref.Val {
			return types.Int(a[0].(*cidrValue).v.Bits())
		}),
	}
}

// ---- quantity ----

var quantityType = cel.ObjectType("kubernetes.Quantity")

// quantityValue keeps the canonical string as its comparable payload.
type quantityValue = value[string]

func newQuantity(q quantity.Quantity) ref.Val {
	s := q.String()
	return &quantityValue{typ: quantityType, v: s, s: s}
}

func qOf(v ref.Val) quantity.Quantity {
	q, _ := quantity.Parse(v.(*quantityValue).v)
	return q
}

func k8sQuantityLib() []cel.EnvOption {
	s, b, i := cel.StringType, cel.BoolType, cel.IntType
	arith := func(sign int64) func(a, b quantity.Quantity) ref.Val {
		return func(x, y quantity.Quantity) ref.Val {
			r := new(big.Rat)
			if sign > 0 {
				r.Add(x.Value, y.Value)
			} else {
				r.Sub(x.Value, y.Value)
			}
			return newQuantity(quantity.New(r, x.Format))
		}
	}
	fromInt := func(v ref.Val) quantity.Quantity {
		return quantity.New(new(big.Rat).SetInt64(int64(v.(types.Int))), quantity.DecimalSI)
	}
	ops := func(name string, f func(a, b quantity.Quantity) ref.Val) cel.EnvOption {
		return cel.Function(name,
			cel.MemberOverload("quantity_"+name, []*cel.Type{quantityType, quantityType}, quantityType,
				cel.BinaryBinding(func(x, y ref.Val) ref.Val { return f(qOf(x), qOf(y)) })),
			cel.MemberOverload("quantity_"+name+"_int", []*cel.Type{quantityType, i}, quantityType,
				cel.BinaryBinding(func(x, y ref.Val) ref.Val { return f(qOf(x), fromInt(y)) })))
	}
	cmp := func(name string, f func(int) ref.Val) cel.EnvOption {
		out := b
		if name == "compareTo" {
			out = i
		}
		return member(name, "quantity_"+name, []*cel.Type{quantityType, quantityType}, out, func(a ...ref.Val) ref.Val {
			return f(qOf(a[0]).Cmp(qOf(a[1])))
		})
	}
	return []cel.EnvOption{
		unary("quantity", "string_to_quantity", s, quantityType, func(v ref.Val) ref.Val {
			q, err := quantity.Parse(str(v))
			if err != nil {
				return errorf("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
			}
			return newQuantity(q)
		}),
		unary("isQuantity", "is_quantity_string", s, b, func(v ref.Val) ref.Val {
			_, err := quantity.Parse(str(v))
			return types.Bool(err == nil)
		}),
		stringOf("string", "quantity_to_string", quantityType),
		member("isInteger", "quantity_is_integer", []*cel.Type{quantityType}, b, func(a ...ref.Val) ref.Val {
			q := qOf(a[0])
			return types.Bool(q.Value.IsInt() && q.Value.Num().IsInt64())
		}),
		member("asInteger", "quantity_as_integer", []*cel.Type{quantityType}, i, func(a ...ref.Val) ref.Val {
			q := qOf(a[0])
			if !q.Value.IsInt() || !q.Value.Num().IsInt64() {
				return errorf("cannot convert value to integer")
			}
			return types.Int(q.Value.Num().Int64())
		}),
		member("asApproximateFloat", "quantity_as_float", []*cel.Type{quantityType}, cel.DoubleType, func(a ...ref.Val) ref.Val {
			f := qOf(a[0]).Float()
			if math.IsInf(f, 0) {
				return errorf("quantity overflows a double")
			}
			return types.Double(f)
		}),
		member("sign", "quantity_sign", []*cel.Type{quantityType}, i, func(a ...ref.Val) ref.Val { return types.Int(qOf(a[0]).Value.Sign()) }),
		ops("add", arith(1)),
		ops("sub", arith(-1)),
		cmp("isGreaterThan", func(c int) ref.Val { return types.Bool(c > 0) }),
		cmp("isLessThan", func(c int) ref.Val { return types.Bool(c < 0) }),
		cmp("compareTo", func(c int) ref.Val { return types.Int(c) }),
	}
}

// ---- semver ----

var semverType = cel.ObjectType("kubernetes.Semver")

type semverValue = value[string]

func semOf(v ref.Val) semver.Version {
	s, _ := semver.Parse(v.(*semverValue).v)
	return s
}

func k8sSemverLib() []cel.EnvOption {
	s, b, i := cel.StringType, cel.BoolType, cel.IntType
	part := func(name string, f func(semver.Version) uint64) cel.EnvOption {
		return member(name, "semver_"+name, []*cel.Type{semverType}, i, func(a ...ref.Val) ref.Val {
			return types.Int(int64(f(semOf(a[0]))))
		})
	}
	cmp := func(name string, out *cel.Type, f func(int) ref.Val) cel.EnvOption {
		return member(name, "semver_"+name, []*cel.Type{semverType, semverType}, out, func(a ...ref.Val) ref.Val {
			return f(semOf(a[0]).Compare(semOf(a[1])))
		})
	}
	return []cel.EnvOption{
		unary("semver", "string_to_semver", s, semverType, func(v ref.Val) ref.Val {
			if _, err := semver.Parse(str(v)); err != nil {
				return errorf("could not parse semver %q: %v", str(v), err)
			}
			return &semverValue{typ: semverType, v: str(v), s: str(v)}
		}),
		unary("isSemver", "is_semver_string", s, b, func(v ref.Val) ref.Val {
			_, err := semver.Parse(str(v))
			return types.Bool(err == nil)
		}),
		stringOf("string", "semver_to_string", semverType),
		part("major", func(v semver.Version) uint64 { return v.Major }),
		part("minor", func(v semver.Version) uint64 { return v.Minor }),
		part("patch", func(v semver.Version) uint64 { return v.Patch }),
		cmp("isGreaterThan", b, func(c int) ref.Val { return types.Bool(c > 0) }),
		cmp("isLessThan", b, func(c int) ref.Val { return types.Bool(c < 0) }),
		cmp("compareTo", i, func(c int) ref.Val { return types.Int(c) }),
	}
}

// ---- format ----

var formatType = cel.ObjectType("kubernetes.NamedFormat")

type formatValue = value[string]

var (
	labelValueRE = regexp.MustCompile(`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`)
	uuidRE       = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)
	byteRE       = regexp.MustCompile(`^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$`)
	dateRE       = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	dateTimeRE   = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$`)
)

// formats are the named formats of format.<name>() with their validators;
// a validator returns the error messages (none when valid).
var formats = map[string]func(string) []string{
	"dns1123Label":           check(k8sname.IsDNS1123Label, "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"),
	"dns1123Subdomain":       check(k8sname.IsDNS1123Subdomain, "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"),
	"dns1035Label":           check(k8sname.IsDNS1035Label, "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character"),
	"qualifiedName":          check(k8sname.IsQualifiedName, "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"),
	"dns1123LabelPrefix":     check(prefix(k8sname.IsDNS1123Label), "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start with an alphanumeric character"),
	"dns1123SubdomainPrefix": check(prefix(k8sname.IsDNS1123Subdomain), "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start with an alphanumeric character"),
	"dns1035LabelPrefix":     check(prefix(k8sname.IsDNS1035Label), "a DNS-1035 label must consist of lower case alphanumeric characters or '-', and must start with an alphabetic character"),
	"labelValue":             check(func(s string) bool { return len(s) <= 63 && labelValueRE.MatchString(s) }, "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character"),
	"uri":                    check(func(s string) bool { _, err := url.ParseRequestURI(s); return err == nil }, "invalid URI"),
	"uuid":                   check(uuidRE.MatchString, "does not match the UUID format"),
	"byte":                   check(byteRE.MatchString, "invalid base64"),
	"date":                   check(dateRE.MatchString, "invalid date"),
	"datetime":               check(dateTimeRE.MatchString, "invalid datetime"),
}

func check(ok func(string) bool, msg string) func(string) []string {
	return func(s string) []string {
		if ok(s) {
			return nil
		}
		return []string{msg}
	}
}

// prefix accepts what could start a valid name (generateName): the value
// with an alphanumeric character appended must be valid.
func prefix(ok func(string) bool) func(string) bool {
	return func(s string) bool { return ok(strings.TrimRight(s, "-.") + "a") }
}

func k8sFormatLib() []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.Function("format.named", cel.Overload("format_named", []*cel.Type{cel.StringType}, cel.OptionalType(formatType),
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				if _, ok := formats[str(v)]; !ok {
					return types.OptionalNone
				}
				return types.OptionalOf(&formatValue{typ: formatType, v: str(v), s: str(v)})
			}))),
		member("validate", "format_validate", []*cel.Type{formatType, cel.StringType}, cel.OptionalType(cel.ListType(cel.StringType)),
			func(a ...ref.Val) ref.Val {
				errs := formats[a[0].(*formatValue).v](str(a[1]))
				if len(errs) == 0 {
					return types.OptionalNone
				}
				return types.OptionalOf(types.NewStringList(types.DefaultTypeAdapter, errs))
			}),
	}
	for _, n := range slices.Sorted(maps.Keys(formats)) {
		opts = append(opts, cel.Function("format."+n, cel.Overload("format_"+n, nil, formatType,
			cel.FunctionBinding(func(...ref.Val) ref.Val { return &formatValue{typ: formatType, v: n, s: n} }))))
	}
	return opts
}
