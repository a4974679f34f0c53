package compiler

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLibraryFunctionsGiveKyvernosResults(t *testing.T) {
	tests := []struct {
		name, expr string
		want       any
	}{
		// cel-go options and extensions of §2.4
		{"mixed-type map literals are allowed", `{"a": 1, "b": "x"}.b`, "x"},
		{"mixed-type list literals are allowed", `[1, "x", true].size()`, float64(3)},
		{"numbers compare across types", `1 < 1.5 && 2u > 1`, true},
		{"orValue on an absent optional gives the default", `{"a": 1}[?"b"].orValue(7)`, float64(7)},
		{"orValue on a present optional gives the value", `{"a": 1}[?"a"].orValue(7)`, float64(1)},
		{"orValue on a plain value gives the value", `"x".orValue("y")`, "x"},
		{"orValue on a dyn null gives null", `dyn(null).orValue({})`, nil},
		{"orValue on a dyn of another type gives the value", `dyn(1).orValue("x")`, float64(1)},
		{"optional chaining reads an absent field as none", `{"a": {}}.?a.?b.hasValue()`, false},
		{"cel.bind binds a name", `cel.bind(x, 2, x * x)`, float64(4)},
		{"base64 encodes bytes", `base64.encode(b"hi")`, "aGk="},
		{"bytes in a result are base64 as in JSON", `{"b": b"hi", "t": timestamp("2026-01-01T00:00:00Z")}`, map[string]any{"b": "aGk=", "t": "2026-01-01T00:00:00Z"}},
		{"json.encode renders JSON", `json.encode({"a": [1, 2]})`, `{"a":[1,2]}`},
		{"lists.range counts from zero", `lists.range(3)`, []any{float64(0), float64(1), float64(2)}},
		{"lists ext sorts", `[3, 1, 2].sort()`, []any{float64(1), float64(2), float64(3)}},
		{"lists ext flattens", `[[1], [2, 3]].flatten()`, []any{float64(1), float64(2), float64(3)}},
		{"lists ext removes duplicates", `[1, 1, 2].distinct()`, []any{float64(1), float64(2)}},
		{"math ext takes the greatest", `math.greatest(1, 5, 3)`, float64(5)},
		{"math ext rounds one argument", `math.round(2.5)`, float64(3)},
		{"sets ext tests containment", `sets.contains([1, 2, 3], [2])`, true},
		{"strings ext splits", `"a,b,c".split(",")`, []any{"a", "b", "c"}},
		{"strings ext joins", `["a", "b"].join("-")`, "a-b"},
		{"strings ext lower-cases", `"AbC".lowerAscii()`, "abc"},
		{"strings ext formats", `"%s-%d".format(["a", 1])`, "a-1"},
		{"strings ext finds a substring", `"abc".indexOf("c")`, float64(2)},
		{"regex ext replaces", `regex.replace("abc", "b", "x")`, "axc"},
		{"regex ext extracts", `regex.extract("abc", "b(c)").orValue("")`, "c"},
		// Kubernetes libraries
		{"lists indexOf finds the first", `["a", "b", "a"].indexOf("a")`, float64(0)},
		{"lists lastIndexOf finds the last", `["a", "b", "a"].lastIndexOf("a")`, float64(2)},
		{"lists indexOf is -1 when absent", `["a"].indexOf("z")`, float64(-1)},
		{"lists isSorted holds for a sorted list", `[1, 2, 2].isSorted()`, true},
		{"lists isSorted fails for an unsorted list", `["b", "a"].isSorted()`, false},
		{"lists sum adds", `[1, 2, 3].sum()`, float64(6)},
		{"lists min and max", `[3, 1, 2].min() + [3, 1, 2].max()`, float64(4)},
		{"regex find returns the first match", `"abc123".find("[0-9]+")`, "123"},
		{"regex findAll returns every match", `"a1b22".findAll("[0-9]+")`, []any{"1", "22"}},
		{"regex findAll with a limit", `"a1b22".findAll("[0-9]+", 1)`, []any{"1"}},
		{"url getters", `url("https://example.com:8080/a%20b?x=1").getHostname() + url("https://example.com:8080/").getPort()`, "example.com8080"},
		{"url query", `url("https://e.com/?x=1&x=2").getQuery()`, map[string]any{"x": []any{"1", "2"}}},
		{"isURL refuses a relative reference", `isURL("a/b")`, false},
		{"ip family", `ip("::1").family()`, float64(6)},
		{"ip loopback", `ip("127.0.0.1").isLoopback()`, true},
		{"ip canonical form", `ip.isCanonical("2001:db8::1") && !ip.isCanonical("2001:DB8::1")`, true},
		{"cidr contains an ip", `cidr("10.0.0.0/8").containsIP(ip("10.2.3.4"))`, true},
		{"cidr contains a cidr", `cidr("10.0.0.0/8").containsCIDR("10.1.0.0/16") && !cidr("10.1.0.0/16").containsCIDR("10.0.0.0/8")`, true},
		{"cidr masked and prefix", `string(cidr("10.1.2.3/8").masked()) + "/" + string(cidr("10.1.2.3/8").prefixLength())`, "10.0.0.0/8/8"},
		{"quantity compares across suffixes", `quantity("1Gi").isGreaterThan(quantity("1G"))`, true},
		{"quantity adds", `quantity("500m").add(quantity("1.5")).asApproximateFloat()`, float64(2)},
		{"quantity integer", `quantity("2k").asInteger()`, float64(2000)},
		{"isQuantity refuses garbage", `isQuantity("1Gx")`, false},
		{"semver compares", `semver("1.10.0").isGreaterThan(semver("1.9.9"))`, true},
		{"semver parts", `semver("1.2.3").minor()`, float64(2)},
		{"format validates a DNS label", `format.dns1123Label().validate("Bad_Name").hasValue()`, true},
		{"format accepts a DNS label", `format.named("dns1123Label").value().validate("good").hasValue()`, false},
		// Kyverno libraries
		{"image registry of a Docker Hub image is index.docker.io", `image("nginx").registry()`, "index.docker.io"},
		{"image repository of a Docker Hub image gets library/", `parseImageReference("nginx:1.2").repository()`, "library/nginx"},
		{"image tag defaults to latest", `image("nginx").tag()`, "latest"},
		{"image registry with a port", `image("localhost:5000/a/b:v1").registry()`, "localhost:5000"},
		{"image identifier of a digest", `image("corp.reg.com/a@sha256:` + sha + `").identifier()`, "sha256:" + sha},
		{"image digest refs have no tag", `image("corp.reg.com/a@sha256:` + sha + `").tag()`, ""},
		{"image containsDigest", `image("corp.reg.com/a:v1").containsDigest()`, false},
		{"isImage refuses upper case", `isImage("Nginx")`, false},
		{"sha256 is hex", `sha256("abc")`, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"hash.md5 is hex", `hash.md5("abc")`, "900150983cd24fb0d6963f7d28e17f72"},
		{"sha1 is hex", `hash.sha1("abc")`, "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"math.round to decimals", `math.round(3.14159, 2)`, 3.14},
		{"math.round to tens", `math.round(1234.0, -2)`, float64(1200)},
		{"json.unmarshal decodes", `json.unmarshal('{"a": [1]}').a[0]`, float64(1)},
		{"json.unmarshal gives numbers as doubles, as Kyverno", `json.unmarshal('{"replicas": 2}').replicas + 0.5`, 2.5},
		{"json.unmarshal gives whole numbers as doubles too", `type(json.unmarshal('[1]')[0]) == double`, true},
		{"yaml.parse gives numbers as doubles", `yaml.parse("k: 3").k / 2.0`, 1.5},
		{"json.marshal encodes", `json.marshal({"a": true})`, `{"a":true}`},
		{"yaml.parse decodes", `yaml.parse("a:\n  b: 2").a.b`, float64(2)},
		{"time.now is the logical clock", `string(time.now())`, "2026-12-01T10:30:00Z"},
		{"time.truncate truncates", `string(time.truncate(timestamp("2026-12-01T10:31:45Z"), duration("1h")))`, "2026-12-01T10:00:00Z"},
		{"time.toCron renders minute hour day month weekday", `time.toCron(timestamp("2026-12-01T10:31:45Z"))`, "31 10 1 12 2"},
		{"listObjToMap pairs keys and values", `listObjToMap([{"k": "a"}, {"k": "b"}], [{"v": 1}, {"v": 2}], "k", "v")`, map[string]any{"a": float64(1), "b": float64(2)}},
		{"transform.listObjToMap is the same", `transform.listObjToMap([{"k": "a"}], [{"v": 1}], "k", "v")`, map[string]any{"a": float64(1)}},
		{"gzip round-trips", `gzip.decompress(gzip.compress("hello"))`, "hello"},
		{"random matches its pattern", `random("[a-c]{4}").matches("^[a-c]{4}$")`, true},
		{"random without a pattern is 8 of [0-9a-z]", `random().matches("^[0-9a-z]{8}$") && random.random().size() == 8`, true},
		{"globalContext.get answers from the Host", `globalContext.get("entry", "proj").projection`, "proj"},
		{"globalContext.Get of a missing entry is null", `dyn(globalContext.Get("missing")) == null`, true},
		{"image.GetMetadata answers from the Host", `image.getMetadata("nginx").image`, "nginx"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := eval(t, tt.expr)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestLibraryErrorsAreCELErrors(t *testing.T) {
	tests := []struct{ name, expr, want string }{
		{"an unparsable image is an error", `image("UPPER").registry()`, "could not parse reference"},
		{"an invalid ip is an error", `ip("1.2.3").family()`, "parse error"},
		{"a zoned ip is refused", `ip("fe80::1%eth0").family()`, "zone"},
		{"an invalid quantity is an error", `quantity("x").sign()`, "quantities must match"},
		{"min of an empty list is an error", `[].min()`, "empty list"},
		{"listObjToMap refuses lists of different lengths", `listObjToMap([{"k": "a"}], [], "k", "v")`, "same length"},
		{"http is answered by the Host", `http.get("http://example.com")`, "request failed: genplay has no network"},
		{"resource.ToGVR reports the mapping error", `resource.ToGVR("v1", "Nope")`, "failed to map kind to resource"},
		{"json.unmarshal of bad JSON", `json.unmarshal("{")`, "failed to decode json"},
		{"json.unmarshal's doubles do not add to ints", `json.unmarshal('{"replicas": 2}').replicas + 1`, "no such overload"},
		{"orValue lets a missing map key's error through, as Kyverno's strict compat function", `{"a": 1}.b.orValue(7)`, "no such key: b"},
		{"random with a bad pattern", `random("[")`, "failed to parse random pattern"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := eval(t, tt.expr)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.Contains(t, err.Error(), "expr: ", "the error names the field path")
		})
	}
}

const sha = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
