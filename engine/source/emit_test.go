package source

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

// markerStrings are scalars whose YAML presentation depends on quoting
// rules: YAML 1.1 and 1.2 literals, numbers in every notation, indicators,
// blanks, line breaks, escapes and Unicode.
var markerStrings = []string{
	"", "a", "abc", "default-deny", "kubernetes.io/metadata.name", "Ingress", "hello world",
	"true", "True", "TRUE", "false", "yes", "Yes", "no", "NO", "on", "off", "y", "n", "Y", "N",
	"null", "Null", "NULL", "~", "<<", "=", "-", "--", "---", "---a", "...", "...a", ":", "::", "a:b", "a: b", "a:",
	"?", "? a", "?a", "-a", "- a", "a -", "#", "#a", "a#b", "a #b", "a\t#b", ",", "a,b", "[", "]", "{", "}", "{a}",
	"&a", "*a", "!a", "!!str", "|", "|a", ">", ">a", "'", "'a'", "a'b", "\"", "a\"b", "%", "%a", "@", "`", "a\\b",
	"1", "0", "-0", "+1", "-1", "1.5", ".5", "-.5", "+.5", "1.", "1e3", "1E3", "1e+3", "1e-3", "-1e3", "0755", "0o17",
	"0o-5", "0b101", "0b-1", "-0b11", "-0o7", "0x1F", "0X1f", "-0x1", "1_000", "1__0", "_1", "1_", "0x_1F",
	"123456789012345678901234567890", "18446744073709551615", "18446744073709551616", "9223372036854775808",
	".inf", ".Inf", "-.inf", "+.INF", ".nan", ".NaN", "inf", "Infinity", "-Infinity", "nan", "NaN", ".", "..", "+", "+-",
	"2024-01-02", "2024-1-2", "2024-01-02T03:04:05Z", "2026-11-30T13:14:16Z", "2024-01-02 03:04:05",
	"2024-01-02t03:04:05.5+01:00", "2024-13-45", "20240-01-02", "2024-01-02x", "1:30", "1:30:00", "12:30:45.5",
	" a", "a ", " ", "  ", "a  b", "\t", "a\tb", "\ta", "a\t", "\n", "\n\n", "a\n", "a\n\n", "\na", "\n\na", "a\nb",
	"a\nb\n", "a\nb\n\n", "a\n\nb", " a\nb", "a \nb", "a\n b", "a\nb ", "a\tb\nc", "a\n\tb", "a\r\nb", "a\rb",
	"line one\nline two\n", "#!/bin/sh\necho hi\n", "key: value\nother: 1\n", "- item\n- item\n", "a\n---\nb",
	"é", "ñandú", "日本語", "a\u00a0b", "\u00a0", "\u2028", "a\u2028b", "a\u0085b", "\ufeff", "a\ufeffb", "\ufffd",
	"\ufffe", "😀", "a😀b", "\x00", "a\x01b", "\x1b[0m", "\x7f", "\xff", "a\xc3", "\u200b", "\u00ad",
	strings.Repeat("x", 128), strings.Repeat("x", 129), strings.Repeat("word ", 40), strings.Repeat("y", 300),
}

// contexts places a scalar where the emitter presents it differently: as
// a value, a key, a list item, nested, and inside a block scalar's line.
func contexts(s string) map[string]any {
	return map[string]any{
		"value":     map[string]any{"k": s},
		"key":       map[string]any{s: "v", "z": 1.0},
		"item":      []any{s, s},
		"nested":    map[string]any{"a": map[string]any{"b": []any{s, map[string]any{s: []any{s}, "c": s}}}},
		"seqOfSeq":  []any{[]any{s, []any{s}}, []any{}},
		"itemMap":   []any{map[string]any{"k": s, s: map[string]any{}}},
		"deepValue": map[string]any{"a": []any{[]any{map[string]any{"b": s}}}},
	}
}

func oracle(t testing.TB, v any) ([]byte, error) {
	t.Helper()
	return marshalYAMLv3(v)
}

// requireSameAsYAMLv3 checks that Marshal and the yaml.v3 encoder agree
// on v byte for byte, errors included.
func requireSameAsYAMLv3(t testing.TB, v any) {
	t.Helper()
	want, wantErr := oracle(t, v)
	got, gotErr := Marshal(v)
	if wantErr != nil {
		require.Error(t, gotErr, "yaml.v3 fails on %#v", v)
		return
	}
	require.NoError(t, gotErr)
	require.Equal(t, string(want), string(got), "rendering of %#v", v)
}

func TestMarshalMatchesYAMLv3ForMarkerStrings(t *testing.T) {
	for _, s := range markerStrings {
		for name, v := range contexts(s) {
			t.Run("the string "+strconv.Quote(s)+" renders like yaml.v3 as "+name, func(t *testing.T) {
				requireSameAsYAMLv3(t, v)
			})
		}
	}
}

func TestMarshalMatchesYAMLv3ForNumbersAndLiterals(t *testing.T) {
	numbers := []float64{0, math.Copysign(0, -1), 1, -1, 0.5, -0.5, 1.5e-7, 3.14159, 100, 1e15, 1e17, 999999999999999999,
		1e18, -1e18, 1e19, 2e19, 1e20, 1e21, 1e22, -1e21, 123456789.125, 5e-324, math.MaxFloat64, 1.7976931348623157e308,
		0.1, 1.0 / 3, 65535, 4294967296}
	for _, f := range numbers {
		t.Run("the number "+strconv.FormatFloat(f, 'g', -1, 64)+" renders like yaml.v3", func(t *testing.T) {
			requireSameAsYAMLv3(t, map[string]any{"n": f, "l": []any{f}})
		})
	}
	t.Run("booleans and nulls render like yaml.v3", func(t *testing.T) {
		requireSameAsYAMLv3(t, map[string]any{"t": true, "f": false, "n": nil, "l": []any{nil, true, false}})
	})
	t.Run("NaN fails like yaml.v3", func(t *testing.T) {
		_, err := Marshal(map[string]any{"n": math.NaN()})
		require.Error(t, err)
	})
}

func TestMarshalMatchesYAMLv3ForShapes(t *testing.T) {
	cases := map[string]any{
		"an empty map at the root":   map[string]any{},
		"an empty list at the root":  []any{},
		"a list at the root":         []any{"a", map[string]any{"b": 1.0, "c": []any{}}, []any{1.0, 2.0}},
		"a resource object":          resource.Object{"kind": "ConfigMap", "data": map[string]any{"a": "1"}},
		"a nested resource object":   map[string]any{"o": resource.Object{"k": "v"}, "l": []any{resource.Object{}}},
		"empty containers as values": map[string]any{"m": map[string]any{}, "l": []any{}, "ll": []any{[]any{}, map[string]any{}}},
		"lists of lists":             map[string]any{"l": []any{[]any{[]any{"a", "b"}, "c"}, []any{map[string]any{"x": []any{"y"}}}}},
		"many keys":                  manyKeys(40),
		"a string at the root":       "root",
		"a number at the root":       1.0,
		"nil at the root":            nil,
		"a typed value":              map[string]any{"t": struct{ A int }{A: 1}},
		"a typed map":                map[string]string{"a": "b"},
		"a typed list inside a map":  map[string]any{"l": []string{"a", "b"}},
		"a network policy": map[string]any{
			"apiVersion": "networking.k8s.io/v1", "kind": "NetworkPolicy",
			"metadata": map[string]any{"name": "default-deny", "namespace": "ns-1", "resourceVersion": "12",
				"creationTimestamp": "2026-11-30T13:14:16Z", "uid": "0f8c7b0e-0000-4000-8000-000000000001",
				"labels": map[string]any{"app.kubernetes.io/managed-by": "kyverno", "generate.kyverno.io/policy-name": "add-np"}},
			"spec": map[string]any{"podSelector": map[string]any{}, "policyTypes": []any{"Ingress", "Egress"}},
			"data": map[string]any{"script": "#!/bin/sh\nset -e\necho \"hi\"\n", "empty": "", "on": "yes", "n": "0755"},
		},
	}
	for name, v := range cases {
		t.Run(name+" renders like yaml.v3", func(t *testing.T) {
			requireSameAsYAMLv3(t, v)
		})
	}
}

func manyKeys(n int) map[string]any {
	m := map[string]any{}
	for i := range n {
		m["key-"+strconv.Itoa(n-i)] = float64(i)
	}
	return m
}

// The fast path declines what it does not model and Marshal then renders
// through yaml.v3; the output is the same either way.
func TestMarshalFallsBackToYAMLv3ForExoticValues(t *testing.T) {
	cases := map[string]any{
		"a control character":           map[string]any{"k": "a\x01b"},
		"a character outside the BMP":   map[string]any{"k": "😀"},
		"a carriage return":             map[string]any{"k": "a\r\nb"},
		"a Unicode line separator":      map[string]any{"k": "a\u2028b"},
		"a byte-order mark":             map[string]any{"k": "\ufeff"},
		"invalid UTF-8":                 map[string]any{"k": "\xff"},
		"a key longer than 128 bytes":   map[string]any{strings.Repeat("k", 129): "v"},
		"a key with a line break":       map[string]any{"a\nb": "v"},
		"an integer beyond int64":       map[string]any{"n": 1e19},
		"a scalar at the root":          "text",
		"a non-JSON type":               map[string]any{"t": []string{"x"}},
		"a value nested extremely deep": deep(10*MaxDepth + 5),
	}
	for name, v := range cases {
		t.Run(name+" takes the yaml.v3 path and renders the same", func(t *testing.T) {
			_, ok := appendFast(nil, v)
			assert.False(t, ok, "the fast path declines")
			requireSameAsYAMLv3(t, v)
		})
	}
	t.Run("an ordinary object takes the fast path", func(t *testing.T) {
		_, ok := appendFast(nil, map[string]any{"a": []any{"b", 1.0, true, nil, "2024-01-02", "x: y", "l1\nl2\n"}})
		assert.True(t, ok)
	})
}

func deep(n int) any {
	var v any = "leaf"
	for range n {
		v = map[string]any{"d": v}
	}
	return v
}

// The seed corpus covers the marker strings; the fuzzer varies the
// string, and JSON inputs vary the shape.
func FuzzMarshalMatchesYAMLv3(f *testing.F) {
	for _, s := range markerStrings {
		f.Add(s)
	}
	for _, s := range []string{`{"a":{"b":[1,2.5,"x",null,true,{}],"c":[]}}`, `[[],[{}],[[1]]]`, `{"":{"k":"a\nb"}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tag, _ := resolve11(s)
		require.Equal(t, tag, resolve11Tag(s), "resolve11Tag(%q) is resolve11's tag", s)
		if anyNumberParserAccepts(s) {
			require.True(t, mayBeNumber(s), "mayBeNumber(%q) hides a number", s)
		}
		for _, v := range contexts(s) {
			requireSameAsYAMLv3(t, v)
		}
		var doc any
		if json.Unmarshal([]byte(s), &doc) == nil {
			requireSameAsYAMLv3(t, doc)
			requireSameAsYAMLv3(t, map[string]any{"doc": doc, "list": []any{doc}})
		}
		parts := strings.SplitN(s, "|", 3)
		m := map[string]any{}
		for i, p := range parts {
			m[p] = []any{p, map[string]any{p: strconv.Itoa(i)}}
		}
		requireSameAsYAMLv3(t, m)
	})
}

// anyNumberParserAccepts runs every parser mayBeNumber stands in front of.
func anyNumberParserAccepts(s string) bool {
	plain := strings.ReplaceAll(s, "_", "")
	if _, err := strconv.ParseFloat(plain, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseFloat(s, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
		return true
	}
	if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
		return true
	}
	for _, p := range []struct {
		prefix string
		base   int
	}{{"0b", 2}, {"0o", 8}, {"-0b", 2}, {"-0o", 8}} {
		if rest, ok := strings.CutPrefix(plain, p.prefix); ok {
			if _, err := strconv.ParseInt(rest, p.base, 64); err == nil {
				return true
			}
			if _, err := strconv.ParseInt("-"+rest, p.base, 64); err == nil {
				return true
			}
			if _, err := strconv.ParseUint(rest, p.base, 64); err == nil {
				return true
			}
		}
	}
	return false
}

func TestMayBeNumberNeverHidesANumber(t *testing.T) {
	for _, s := range append(markerStrings, "0x1p-2", "0X1P+2", "-Infinity", "+inf", "0b-1", "0o+7", "0_b-1", "1e-5",
		"0f8c7b0e-0000-4000-8000-000000000001", "2026-11-30T13:14:16Z", "ns-1", "1-2", "0xe-5") {
		if anyNumberParserAccepts(s) {
			assert.True(t, mayBeNumber(s), "mayBeNumber(%q) must be true: a parser accepts it", s)
		}
	}
	assert.False(t, mayBeNumber("0f8c7b0e-0000-4000-8000-000000000001"), "a uid is not a number")
	assert.False(t, mayBeNumber("2026-11-30T13:14:16Z"), "a timestamp is not a number")
	assert.True(t, mayBeNumber("0b-1"), "yaml.v3 reads 0b-1 as an integer")
}

func TestMarshalIsBoundedAsItIsBuilt(t *testing.T) {
	mib := strings.Repeat("x", 1<<20)
	fanout := map[string]any{}
	for i := 0; i < 2000; i++ { // 2 GB of YAML from 1 MiB of memory
		fanout[fmt.Sprintf("k%04d", i)] = mib
	}
	// A text of line breaks nested deep: YAML indents every line again.
	lines := strings.Repeat("a\n", 200_000)
	var deep any = map[string]any{"text": lines}
	for i := 0; i < 150; i++ {
		deep = map[string]any{"n": deep}
	}
	// Control characters take yaml.v3's path, through a limited writer.
	control := map[string]any{}
	for i := 0; i < 12; i++ {
		control[fmt.Sprintf("k%03d", i)] = "\x01" + mib
	}
	for name, v := range map[string]any{"fan-out": fanout, "deep lines": deep, "control characters": control} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			out, err := MarshalLimit(v, 8<<20)
			runtime.ReadMemStats(&after)
			require.ErrorIs(t, err, ErrTooLarge)
			assert.Nil(t, out)
			assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(256<<20))
		})
	}
	out, err := MarshalLimit(map[string]any{"a": "b"}, 8<<20)
	require.NoError(t, err)
	assert.Equal(t, "a: b\n", string(out))
}

// appendFast appends the YAML of v and reports whether it could.
func appendFast(buf []byte, v any) ([]byte, bool) {
	out, ok, _ := appendFastLimit(buf, v, 0)
	return out, ok
}

// marshalYAMLv3 renders v through yaml.v3's encoder: the reference the fast
// emitter (emit.go) matches, and its fallback for values it leaves alone.
func marshalYAMLv3(v any) ([]byte, error) { return marshalYAMLv3Limit(v, 0) }
