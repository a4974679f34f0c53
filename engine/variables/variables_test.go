package variables

import (
	"errors"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/genplay/genplay/engine/resource"
)

func testContext() map[string]any {
	return map[string]any{
		"request": map[string]any{
			"operation": "CREATE",
			"object": resource.Object{
				"apiVersion": "v1",
				"kind":       "Namespace",
				"metadata": map[string]any{
					"name":   "team-a",
					"labels": map[string]any{"env": "prod", "tier": "web"},
				},
				"spec": map[string]any{"replicas": float64(3)},
			},
			"oldObject": map[string]any{"metadata": map[string]any{"name": "old-team"}},
		},
		"element": map[string]any{"name": "{{request.object.metadata.name}}"},
		"nothing": nil,
		"loop":    "{{loop}}",
	}
}

func TestSubstitute(t *testing.T) {
	e := New(Options{})
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"a whole-string variable keeps its type", "{{request.object.spec.replicas}}", float64(3)},
		{"a whole-string variable can be a map", "{{request.object.metadata.labels}}", map[string]any{"env": "prod", "tier": "web"}},
		{"spaces inside braces are trimmed", "{{ request.object.metadata.name }}", "team-a"},
		{"an embedded variable is interpolated", "ns-{{request.object.metadata.name}}-x", "ns-team-a-x"},
		{"numbers interpolate as JSON", "n={{request.object.spec.replicas}}", "n=3"},
		{"maps interpolate as JSON with sorted keys", "l={{request.object.metadata.labels}}", `l={"env":"prod","tier":"web"}`},
		{"nil interpolates as null", "v={{nothing}}", "v=null"},
		{"a whole-string nil stays nil", "{{nothing}}", nil},
		{"two adjacent variables are both substituted", "{{request.object.metadata.name}}{{request.object.metadata.labels.env}}", "team-aprod"},
		{"an escaped variable is left and unescaped", `\{{request.object.metadata.name}} {{request.object.metadata.name}}`, "{{request.object.metadata.name}} team-a"},
		{"a default avoids a missing key", "{{ request.object.metadata.labels.missing || 'none' }}", "none"},
		{"nested variables are substituted again", "x-{{element.name}}", "x-team-a"},
		{"a shallow variable is substituted once", "x-{{- element.name}}", "x-{{request.object.metadata.name}}"},
		{"map keys are substituted", map[string]any{"{{request.object.metadata.name}}": "v"}, map[string]any{"team-a": "v"}},
		{"lists are traversed", []any{"{{request.object.metadata.name}}", float64(1)}, []any{"team-a", float64(1)}},
		{"a returned map is traversed", "{{element}}", map[string]any{"name": "team-a"}},
		{"custom functions are available", "{{ to_upper(request.object.metadata.name) }}", "TEAM-A"},
		{"strings without variables are untouched", "plain {{ not closed", "plain {{ not closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.Substitute(testContext(), tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSubstituteDoesNotChangeItsInput(t *testing.T) {
	in := map[string]any{"a": []any{"{{request.object.metadata.name}}"}}
	_, err := New(Options{}).Substitute(testContext(), in)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": []any{"{{request.object.metadata.name}}"}}, in)
}

func TestSubstituteOnDeleteReadsTheOldObject(t *testing.T) {
	ctx := testContext()
	ctx["request"].(map[string]any)["operation"] = "DELETE"
	got, err := New(Options{}).SubstituteString(ctx, "{{request.object.metadata.name}}")
	require.NoError(t, err)
	assert.Equal(t, "old-team", got)
}

func TestSubstituteErrors(t *testing.T) {
	e := New(Options{MaxDepth: 8, MaxOutput: 1000})
	t.Run("a missing key names the variable, the path and the key", func(t *testing.T) {
		_, err := e.Substitute(testContext(), map[string]any{"data": map[string]any{"x": "a-{{request.object.metadata.labels.foo}}"}})
		require.Error(t, err)
		assert.Equal(t, `failed to resolve request.object.metadata.labels.foo at path /data/x: JMESPath query failed: Unknown key "foo" in path`, err.Error())
		assert.True(t, IsNotFound(err))
		var se *Error
		require.ErrorAs(t, err, &se)
		assert.Equal(t, "/data/x", se.Path)
	})
	t.Run("a variable that expands to itself stops at the depth limit", func(t *testing.T) {
		_, err := e.Substitute(testContext(), "x{{loop}}")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "nested passes")
	})
	t.Run("output growth stops at the size limit", func(t *testing.T) {
		ctx := map[string]any{"s": strings.Repeat("a", 600)}
		_, err := e.Substitute(ctx, "{{s}}{{s}}")
		require.Error(t, err)
		assert.Contains(t, err.Error(), "limit")
	})
	t.Run("a key that becomes a map is an error", func(t *testing.T) {
		_, err := e.Substitute(testContext(), map[string]any{"{{request.object.metadata.labels}}": "v"})
		assert.ErrorContains(t, err, "expected string after substituting variables in key")
	})
	t.Run("a syntax error names the query", func(t *testing.T) {
		_, err := e.Substitute(testContext(), "{{ request.[ }}")
		assert.ErrorContains(t, err, "incorrect query request.[")
	})
	t.Run("random matches its pattern and replays the same sequence in a new run", func(t *testing.T) {
		first, second := New(Options{}), New(Options{})
		a, err := first.Substitute(testContext(), "{{ random('[a-z0-9]{12}') }}")
		require.NoError(t, err)
		assert.Regexp(t, `^[a-z0-9]{12}$`, a)
		b, err := first.Substitute(testContext(), "{{ random('[a-z0-9]{12}') }}")
		require.NoError(t, err)
		assert.NotEqual(t, a, b, "a second call in the same run draws another string")
		again, err := second.Substitute(testContext(), "{{ random('[a-z0-9]{12}') }}")
		require.NoError(t, err)
		assert.Equal(t, a, again, "a new run replays the same sequence")
		_, err = first.Substitute(testContext(), "{{ random('[') }}")
		assert.ErrorContains(t, err, "invalid pattern")
	})
}

func TestSubstituteTakesLinearTimeInTheNumberOfVariables(t *testing.T) {
	// Replacing each variable by rescanning the whole string would copy
	// about 13 GB here; one sweep per pass copies well under 1 MB.
	// Bytes allocated are measured, not time: the bound holds on any machine.
	in := strings.Repeat("x{{request.object.metadata.name}}", 20_000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := New(Options{}).SubstituteString(testContext(), in)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("xteam-a", 20_000), got)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(512<<20), "allocation must grow linearly, not with the square of the variables")
}

func TestVariables(t *testing.T) {
	assert.True(t, HasVariables("a {{b}}"))
	assert.False(t, HasVariables(`a \{{b}}`))
	assert.Equal(t, []string{"request.userInfo.username", "x"}, Variables("{{ request.userInfo.username }}-{{- x}}"))
	assert.Nil(t, Variables("none"))
}

func TestSearchFunctions(t *testing.T) {
	now := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	e := New(Options{Now: func() time.Time { return now }})
	data := map[string]any{
		"labels": map[string]string{"app": "web", "env": "prod"},
		"list":   []string{"b", "a"},
		"n":      5,
	}
	tests := []struct {
		expr string
		want any
	}{
		{"to_lower('ABC')", "abc"},
		{"to_upper('abc')", "ABC"},
		{"split('a,b', ',')", []any{"a", "b"}},
		{"join('-', list)", "b-a"},
		{"truncate('abcdef', `3`)", "abc"},
		{"truncate('ab', `5`)", "ab"},
		{"replace('aaa', 'a', 'b', `2`)", "bba"},
		{"replace_all('aaa', 'a', 'b')", "bbb"},
		{"regex_match('^a.c$', 'abc')", true},
		{"regex_replace_all('([a-z]+)-([0-9]+)', 'web-12', '${2}-${1}')", "12-web"},
		{"regex_replace_all_literal('[0-9]', 'a1b2', '$1')", "a$1b$1"},
		{"base64_encode('hi')", "aGk="},
		{"base64_decode('aGk=')", "hi"},
		{"parse_json('{\"a\":1}')", map[string]any{"a": float64(1)}},
		{"parse_yaml('a: [1, x]')", map[string]any{"a": []any{float64(1), "x"}}},
		{"lookup(labels, 'app')", "web"},
		{"lookup(list, `5`)", nil},
		{"items(labels, 'k', 'v')", []any{map[string]any{"k": "app", "v": "web"}, map[string]any{"k": "env", "v": "prod"}}},
		{"sha256('')", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"time_now_utc()", "2025-03-04T05:06:07Z"},
		{"time_add('2025-03-04T05:06:07Z', '1h')", "2025-03-04T06:06:07Z"},
		{"time_since('', '2025-03-04T05:00:00Z', '')", "6m7s"},
		{"time_to_cron('2025-03-04T05:06:07Z')", "6 5 4 3 2"},
		{"compare('a', 'b')", float64(-1)},
		{"equal_fold('Go', 'GO')", true},
		{"trim('  x ', ' ')", "x"},
		{"trim_prefix('v1.2', 'v')", "1.2"},
		{"label_match(`{\"app\":\"web\"}`, labels)", true},
		{"pattern_match('we?', 'web')", true},
		{"add(`1`, `2`)", float64(3)},
		{"add('1Gi', '512Mi')", "1536Mi"},
		{"subtract('1h', '30m0s')", "30m0s"},
		{"multiply('100m', `3`)", "300m"},
		{"divide('1Gi', '1Mi')", float64(1024)},
		{"divide(`7`, `2`)", 3.5},
		{"modulo(`7`, `2`)", float64(1)},
		{"round(`2.345`, `2`)", 2.35},
		{"sum(['1Gi', '1Gi'])", "2Gi"},
		{"semver_compare('1.2.3', '>1.0.0')", true},
		{"path_canonicalize('/a//b/../c')", "/a/c"},
		{"to_boolean('TRUE')", true},
		{"object_from_lists(['a', 'b'], [`1`])", map[string]any{"a": float64(1), "b": nil}},
		{"n", float64(5)},
		{"to_string(labels)", `{"app":"web","env":"prod"}`},
	}
	for _, tt := range tests {
		t.Run(tt.expr+" evaluates as Kyverno does", func(t *testing.T) {
			got, err := e.Search(tt.expr, data)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestSearchErrors(t *testing.T) {
	e := New(Options{MaxOutput: 1 << 10})
	tests := []struct{ name, expr, want string }{
		{"an unknown function is reported", "nope(@)", "unknown function: nope"},
		{"a wrong argument type is reported", "to_upper(`1`)", "Invalid type"},
		{"dividing by zero is an error", "divide(`1`, `0`)", "Zero divisor passed"},
		{"mixing quantities and numbers is an error", "add('1Gi', `1`)", "Types mismatch"},
		{"repeated base64 stops at the size limit", strings.Repeat("base64_encode(", 40) + "'aaaaaaaaaa'" + strings.Repeat(")", 40), "limit"},
		{"replace_all growth stops at the size limit", "replace_all(replace_all(replace_all(replace_all('aaaaaaaaaaaaaaaa', 'a', 'aaaa'), 'a', 'aaaa'), 'a', 'aaaa'), 'a', 'aaaa')", "limit"},
		{"duplicating multi-selects are refused", strings.Repeat("[@,@,@,@][]", 7), "multiplies its input"},
		{"30m reads as a quantity (milli), as in Kyverno", "subtract('1h', '30m')", "Types mismatch"},
		{"an empty query is refused", "  ", "invalid query"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Search(tt.expr, map[string]any{"a": "b"})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestFunctionsListsTheDocumentedNames(t *testing.T) {
	names := Functions()
	for _, n := range []string{"to_lower", "truncate", "parse_yaml", "time_now_utc", "semver_compare", "random", "items", "lookup"} {
		assert.Contains(t, names, n)
	}
}

func FuzzSearch(f *testing.F) {
	for _, s := range []string{"a.b", "to_upper(a.b)", "[@,@][]", "items(@, 'k', 'v')", "a || 'x'", "regex_replace_all('(a)', a.b, '$1$1')", "sum(`[1,2]`)", "`{}`.x"} {
		f.Add(s)
	}
	e := New(Options{MaxOutput: 1 << 16})
	data := map[string]any{"a": map[string]any{"b": "aaaa", "c": []any{float64(1), "x", nil}}}
	f.Fuzz(func(t *testing.T, expr string) {
		_, _ = e.Search(expr, data)
	})
}

func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{"{{a.b}}", "x{{a.b}}{{a.b}}", `\{{a}}`, "{{- a.self}}", "{{a.self}}-", "{{{{a}}}}", "{{@}}", "{{ {a: a.b} }}"} {
		f.Add(s)
	}
	e, ref := New(Options{MaxOutput: 1 << 16, MaxDepth: 8}), New(Options{MaxOutput: 1 << 16, MaxDepth: 8})
	ctx := map[string]any{"a": map[string]any{"b": "v", "self": "{{a.self}}{{a.self}}"}}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := e.Substitute(ctx, map[string]any{s: []any{s}})
		// The same answer as the reference implementation (reference_test.go).
		want, wantErr := ref.refSubstitute(ctx, map[string]any{s: []any{s}})
		if wantErr != nil {
			require.EqualError(t, err, wantErr.Error())
			return
		}
		require.NoError(t, err)
		require.Equal(t, want, got)
	})
}

func TestParsedExpressionsAreSharedByEvaluators(t *testing.T) {
	a, b := New(Options{}), New(Options{MaxDepth: 3})
	first, err := a.compile("request.object.metadata.name")
	require.NoError(t, err)
	second, err := b.compile("request.object.metadata.name")
	require.NoError(t, err)
	assert.Same(t, first, second, "a new session does not parse the expression again")

	for _, e := range []*Evaluator{a, b} {
		_, err := e.compile("request.[")
		assert.Error(t, err, "a failure is reported every time, not cached")
	}
	got, err := b.Search("request.object.metadata.name", map[string]any{
		"request": map[string]any{"object": map[string]any{"metadata": map[string]any{"name": "web"}}}})
	require.NoError(t, err)
	assert.Equal(t, "web", got)
}

// Functions lists the names of the custom functions the Evaluator adds to
// JMESPath's built-in ones (and the built-ins it replaces with bounded
// versions: join, to_string, sum).
func Functions() []string {
	names := make([]string, 0, 64)
	for _, f := range (&boundCaller{}).functions() {
		names = append(names, f.Name)
	}
	sort.Strings(names)
	return names
}

// Variables returns the expressions of the {{ }} variables in s, trimmed and
// without the braces or the shallow-substitution dash, in order.
func Variables(s string) []string {
	var out []string
	for start, end, ok := nextVariable(s, 0); ok; start, end, ok = nextVariable(s, end) {
		v, _ := trimBraces(s[start:end])
		out = append(out, v)
	}
	return out
}

// IsNotFound reports whether err comes from a missing key.
func IsNotFound(err error) bool {
	var nf *NotFoundError
	return errors.As(err, &nf)
}
