package compiler

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryFunctionHasACostRule enumerates the functions of both
// environments (GeneratingPolicy, NamespacedGeneratingPolicy): every one
// has a cost rule, so that no call runs before it is priced; and every
// rule prices a function that exists.
func TestEveryFunctionHasACostRule(t *testing.T) {
	seen := map[string]bool{}
	for _, ns := range []string{"", "team"} {
		env, _, err := newEnv(ns)
		require.NoError(t, err)
		var missing []string
		for name := range env.Functions() {
			seen[name] = true
			if _, ok := costRules[name]; !ok {
				missing = append(missing, name)
			}
		}
		sort.Strings(missing)
		assert.Empty(t, missing, "functions without a cost rule (add one to cost.go)")
		assert.Greater(t, len(env.Functions()), 150, "the environment's functions were enumerated")
	}
	var stale []string
	for name := range costRules {
		if !seen[name] {
			stale = append(stale, name)
		}
	}
	sort.Strings(stale)
	assert.Empty(t, stale, "cost rules for functions the environments do not have")
}

// hostileInput holds the large values the hostile expressions start from:
// each within what an API server accepts in one object.
func hostileInput() Input {
	a := strings.Repeat("a", 300_000)
	ints := make([]any, 5_000)
	for i := range ints {
		ints[i] = float64(i)
	}
	return Input{Object: map[string]any{
		"s":       a,
		"needle":  strings.Repeat("a", 30_000) + "b",
		"pattern": strings.Repeat("a?", 10_000) + strings.Repeat("a", 10_000),
		"ints":    ints,
	}}
}

// TestHostileCallsAreRefusedBeforeTheyRun: each call would run for
// minutes or allocate gigabytes; its price stops it before it starts, with
// an error that names it, the same every time, allocating little.
func TestHostileCallsAreRefusedBeforeTheyRun(t *testing.T) {
	in := hostileInput()
	tests := []struct{ name, expr, want string }{
		{"replace with a long replacement", `object.s.replace("a", object.s) == ""`, "replace would build 90000000000 bytes"},
		{"replace with an empty pattern", `object.s.replace("", object.needle) == ""`, "replace would build"},
		{"indexOf of a long needle", `object.s.indexOf(object.needle) < 0`, "indexOf would cost more than"},
		{"lastIndexOf of a long needle", `object.s.lastIndexOf(object.needle) < 0`, "lastIndexOf would cost more than"},
		{"distinct of a long list", `object.ints.distinct().size() > 0`, "distinct would cost more than"},
		{"sets.contains of two long lists", `sets.contains(object.ints, object.ints)`, "sets.contains would cost more than"},
		{"sets.equivalent of two long lists", `sets.equivalent(object.ints, object.ints)`, "sets.equivalent would cost more than"},
		{"matches with a long pattern", `object.s.matches(object.pattern)`, "matches would cost more than"},
		{"find with a long pattern", `object.s.find(object.pattern) == ""`, "find would cost more than"},
		{"regex.replace copying a group many times", `regex.replace(object.s, "(a)", "\\1\\1\\1\\1\\1\\1\\1\\1\\1\\1\\1") == ""`, "regex.replace would build"},
		{"x in list inside exists", `lists.range(100000).exists(i, i in object.ints && i < 0)`, "cost limit exceeded"},
		{"join of many references to one long string", `lists.range(1000).map(i, object.s).join(",") == ""`, "join would build"},
		{"json.marshal of many references to one long string", `json.marshal(lists.range(1000).map(i, object.s)) == ""`, "marshal would"},
		{"json.encode of many references to one long string", `json.encode(lists.range(1000).map(i, object.s)) == ""`, "json.encode would"},
		{"format with a huge precision", `"%.1000000000f".format([1.0]) == ""`, "format would build"},
		{"format of many references to one long string", `"%s".format([lists.range(1000).map(i, object.s)]) == ""`, "format would build"},
		{"concatenation past the request size", `cel.bind(a, object.s + object.s, cel.bind(b, a + a, b + b + b)) == ""`, "the operator + would build"},
		{"charAt of a long string, again and again", `lists.range(10000).all(i, object.s.charAt(i) == "a")`, "cost limit exceeded"},
		{"sort of many long strings", `lists.range(10000).map(i, object.s).sort().size() > 0`, "sort would cost more than"},
		{"equality of long lists", `lists.range(1000).map(i, object.s) == lists.range(1000).map(i, object.s)`, "the operator == would cost more than"},
		{"strings.quote of a long string", `strings.quote(object.s + object.s + object.s) == ""`, "strings.quote would build"},
		{"yaml.parse of an alias bomb", `yaml.parse("a: &a [x,x,x,x,x,x,x,x,x,x,x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]") == null`, "parse would cost more than"},
		{"base64 of a long string, past the request size", `cel.bind(a, bytes(object.s + object.s), cel.bind(b, a + a, base64.encode(b + b))) == ""`, "would build"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			_, err := evalIn(t, "", tt.expr, in, newHost())
			runtime.ReadMemStats(&after)
			require.Error(t, err)
			assert.ErrorIs(t, err, errCostLimit)
			assert.Contains(t, err.Error(), tt.want)
			_, again := evalIn(t, "", tt.expr, in, newHost())
			require.Error(t, again)
			assert.Equal(t, err.Error(), again.Error(), "the same input gives the same error")
			allocated := after.TotalAlloc - before.TotalAlloc
			assert.Less(t, allocated, uint64(64<<20), "allocated %d MB", allocated>>20)
		})
	}
}

// TestOrdinaryCallsFitTheBudget: what policies do (and a good deal more)
// is well within the budget, so the prices are not a new limit in
// practice.
func TestOrdinaryCallsFitTheBudget(t *testing.T) {
	text := strings.Repeat("lorem ipsum dolor sit amet ", 400) // 10.8 KB
	in := Input{Object: map[string]any{
		"text":  text,
		"names": []any{"web", "api", "db", "cache", "queue", "web", "api"},
		"metadata": map[string]any{"name": "team-a", "labels": map[string]any{"app": "web", "tier": "frontend"},
			"annotations": map[string]any{"note": text}},
	}}
	tests := []string{
		`object.text.replace("ipsum", "IPSUM").size() > 0`,
		`object.text.indexOf("amet ") == 22`,
		`object.text.split(" ").size() == 2001`,
		`object.text.matches("^(lorem ipsum dolor sit amet )+$")`,
		`object.text.findAll("[a-z]+").size() == 2000`,
		`regex.replace(object.text, "(l)orem", "\\1ORE") != ""`,
		`object.names.distinct().size() == 5`,
		`object.names.sort()[0] == "api"`,
		`object.names.join(",").size() > 0`,
		`sets.contains(object.names, ["web", "db"])`,
		`"web" in object.names`,
		`json.marshal(object.metadata).size() > 10000`,
		`yaml.parse("a: [1, 2, 3]\nb: {c: d}").a.size() == 3`,
		`json.unmarshal(json.marshal(object.metadata)).name == "team-a"`,
		`"%s-%d-%.2f".format(["x", 3, 1.5]) == "x-3-1.50"`,
		`lists.range(10000).map(i, i * 2).filter(i, i % 3 == 0).size() == 3334`,
		`lists.range(2000).map(i, string(i)).join("").size() > 0`,
		`base64.decode(base64.encode(bytes(object.text))) == bytes(object.text)`,
		`strings.quote(object.text).size() > 0`,
		`object.text.lowerAscii().upperAscii().size() == object.text.size()`,
		`sha256(object.text).size() == 64`,
	}
	for _, expr := range tests {
		t.Run(expr, func(t *testing.T) {
			v, err := evalIn(t, "", expr, in, newHost())
			require.NoError(t, err)
			assert.Equal(t, true, v)
		})
	}
}

// meteredHost is a Host whose Meter has units left.
type meteredHost struct {
	*fakeHost
	left    int64
	charged []string
}

func (h *meteredHost) Charge(units int64, what string) error {
	h.charged = append(h.charged, fmt.Sprintf("%s %d", what, units))
	if units > h.left {
		h.left = 0
		return errors.New("the work budget ran out in " + what)
	}
	h.left -= units
	return nil
}

// TestALargeCallIsChargedToTheRunBeforeItRuns: a call the evaluation could
// afford but the run's work budget cannot is refused before it starts.
func TestALargeCallIsChargedToTheRunBeforeItRuns(t *testing.T) {
	h := &meteredHost{fakeHost: newHost(), left: 10_000}
	_, err := evalIn(t, "", `object.s.indexOf("ab") > 0 || true`, hostileInput(), h)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "the work budget ran out in CEL indexOf")
	assert.Equal(t, []string{"CEL indexOf 420004"}, h.charged)
}

// TestAPanicInACELFunctionIsAnInternalError: cel-go turns a panic of a
// function into an evaluation error; genplay does not report it as
// Kyverno's, but as its own fault.
func TestAPanicInACELFunctionIsAnInternalError(t *testing.T) {
	assert.PanicsWithValue(t, "CEL evaluation of expr: internal error: boom", func() {
		_, _ = evalIn(t, "", `image.GetMetadata("panic")`, Input{Object: map[string]any{}}, panicHost{newHost()})
	})
}

type panicHost struct{ *fakeHost }

func (panicHost) ImageData(string) (any, error) { panic("boom") }

// TestTemplatesArePricedAsTheyAreBuilt: a template that splices many
// references to one long value, or interpolates a long value again and
// again, stops before the object is built.
func TestTemplatesArePricedAsTheyAreBuilt(t *testing.T) {
	in := hostileInput()
	tests := []struct{ name, value, want string }{
		{"a placeholder's value of many references to one long string",
			"kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\ndata: (( lists.range(1000).map(i, object.s) ))\n", "the placeholder's value would cost more than"},
		{"a long value interpolated again and again",
			"kind: ConfigMap\nmetadata:\n  name: cm\n  namespace: a\ndata:\n  x: \"" + strings.Repeat("(( object.s ))", 12) + "\"\n", "the template's text would be more than the 3145728 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := compilePolicy(t, "GeneratingPolicy", templateSpec("cel", tt.value), Options{})
			h := newHost()
			err := p.Generate(in, h)
			require.Error(t, err)
			assert.ErrorIs(t, err, errCostLimit)
			assert.Contains(t, err.Error(), tt.want)
			assert.Empty(t, h.generated, "nothing was generated")
		})
	}
}
