package variables

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// regexpVariables lists the variables regexVariables finds in s, as
// [start, end) pairs of its group 2: what nextVariable must reproduce.
func regexpVariables(s string) [][2]int {
	var out [][2]int
	for _, m := range regexVariables.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, [2]int{m[4], m[5]})
	}
	return out
}

// scannedVariables is what Spans (nextVariable) finds in s.
func scannedVariables(s string) [][2]int {
	var out [][2]int
	for start, end := range Spans(s) {
		out = append(out, [2]int{start, end})
	}
	return out
}

// randomText draws strings rich in braces, backslashes, dashes, spaces and
// multi-byte or invalid UTF-8, where the scanner and the regexp could part.
func randomText(r *rand.Rand, n int) string {
	pieces := []string{"{", "}", "{{", "}}", `\`, "a", " ", "-", "@", "é", "\n", "\xff", "\xe2\x80", ".", "'"}
	var b strings.Builder
	for range r.IntN(n + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func TestNextVariableFindsWhatTheRegexpFinds(t *testing.T) {
	fixed := []string{
		"", "{{a}}", "{{a}}{{b}}", "x{{a}}{{b}}", `\{{a}}`, `\\{{a}}`, "{{{a}}}", "{{ {a: b} }}", "{{{}}}", "{{}}",
		"{{a}", "{{a}}}", "{{ a }} {{- b }}", "é{{a}}", "\xff{{a}}", "\n{{a}}", "{{a{b}c}}", "{{a{b{c}}}}", "{{a}}\\{{b}}{{c}}",
		"{{{{a}}}}", "{ {{a}} }", "{{a}}x{{b}}", "}}{{", "{{-a}}",
	}
	for _, s := range fixed {
		assert.Equal(t, regexpVariables(s), scannedVariables(s), "%q", s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		s := randomText(r, 14)
		if !assert.Equal(t, regexpVariables(s), scannedVariables(s), "%q", s) {
			return
		}
	}
}

func FuzzNextVariable(f *testing.F) {
	for _, s := range []string{"{{a}}{{b}}", `x\{{a}}{{b}}`, "{{ {a} }}", "é{{a{b}}}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := scannedVariables(s), regexpVariables(s); !assert.Equal(t, want, got) {
			t.Fatalf("%q", s)
		}
	})
}

func TestTrimBracesAsKyvernoRemovesThem(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 0
	for range 100_000 {
		s := randomText(r, 14)
		for _, m := range regexpVariables(s) {
			v := s[m[0]:m[1]]
			gotV, gotShallow := trimBraces(v)
			wantV, wantShallow := refTrimBraces(v)
			require.Equal(t, wantV, gotV, "%q", v)
			require.Equal(t, wantShallow, gotShallow, "%q", v)
			n++
		}
	}
	require.Greater(t, n, 1000, "the random strings must hold variables")
}

// diffContext holds values of every kind, strings that are variables
// themselves, and a request (so DELETE can be tried).
func diffContext(op string) map[string]any {
	return map[string]any{
		"request": map[string]any{
			"operation": op,
			"object":    map[string]any{"metadata": map[string]any{"name": "new", "labels": map[string]any{"a": "b"}}, "spec": map[string]any{"list": []any{"x", float64(2)}}},
			"oldObject": map[string]any{"metadata": map[string]any{"name": "old"}},
		},
		"s":      "text",
		"n":      float64(4),
		"m":      map[string]any{"k": "{{s}}", "{{s}}": "v"},
		"l":      []any{"{{n}}", map[string]any{"x": "{{s}}"}},
		"nested": "{{s}}-{{n}}",
		"self":   "x{{self}}",
		"brace":  "{{",
		"empty":  "",
		"null":   nil,
	}
}

var diffStrings = []string{
	"plain", "", "{{s}}", "{{ s }}", "a-{{s}}-b", "{{n}}", "n={{n}}", "{{m}}", "m={{m}}", "{{l}}", "{{nested}}", "x{{nested}}",
	"{{- nested}}", "x{{- nested}}", `\{{s}}`, `\{{s}} {{s}}`, "{{s}}{{s}}", "{{empty}}{{s}}", "{{missing}}", "x{{missing}}",
	"{{ missing || 'd' }}", "{{self}}", "{{null}}", "v={{null}}", "{{request.object.metadata.name}}", "{{@}}", "x{{@}}",
	"{{ request.[ }}", "{{brace}}s}}", "{{ to_upper(s) }}", "{{ {a: s} }}", "{{ random('[a-z]{4}') }}", "{{ request.object.spec.list }}",
	"not {{ closed", "{{ l[1] }}",
}

func randomValue(r *rand.Rand, depth int) any {
	switch k := r.IntN(10); {
	case depth > 0 && k < 3:
		m := map[string]any{}
		for range r.IntN(4) {
			key := diffStrings[r.IntN(len(diffStrings))]
			if r.IntN(3) > 0 {
				key = fmt.Sprintf("k%d", r.IntN(5))
			}
			m[key] = randomValue(r, depth-1)
		}
		if r.IntN(4) == 0 {
			m["foreach"] = randomValue(r, depth-1)
		}
		return m
	case depth > 0 && k < 5:
		l := make([]any, r.IntN(4))
		for i := range l {
			l[i] = randomValue(r, depth-1)
		}
		return l
	case k == 5:
		return float64(r.IntN(3))
	case k == 6:
		return r.IntN(2) == 0
	default:
		return diffStrings[r.IntN(len(diffStrings))]
	}
}

// TestSubstituteMatchesTheReference compares Substitute with the reference
// implementation (reference_test.go) on random nested values: the same
// result, or the same error, naming the same path.
func TestSubstituteMatchesTheReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	opts := Options{MaxDepth: 6, MaxOutput: 4096}
	tuned, ref := New(opts), New(opts)
	errs, oks := 0, 0
	for i := range 5000 {
		op := "CREATE"
		if i%5 == 0 {
			op = "DELETE"
		}
		ctx := diffContext(op)
		if i%7 == 0 {
			ctx["target"] = map[string]any{"k0": "t"}
		}
		value := randomValue(r, 4)
		before := fmt.Sprintf("%#v", value)
		got, gotErr := tuned.Substitute(ctx, value)
		want, wantErr := ref.refSubstitute(ctx, value)
		require.Equal(t, before, fmt.Sprintf("%#v", value), "the input must not change")
		if wantErr != nil {
			require.Error(t, gotErr, "%#v", value)
			require.Equal(t, wantErr.Error(), gotErr.Error(), "%#v", value)
			errs++
			continue
		}
		require.NoError(t, gotErr, "%#v", value)
		require.Equal(t, want, got, "%#v", value)
		oks++
	}
	require.Greater(t, errs, 500)
	require.Greater(t, oks, 500)
}

func TestSubstituteErrorsNameTheirPath(t *testing.T) {
	e := New(Options{MaxDepth: 4})
	tests := []struct {
		name  string
		value any
		path  string
	}{
		{"at the root", "x{{missing}}", ""},
		{"in a map", map[string]any{"a": map[string]any{"b": "{{missing}}"}}, "/a/b"},
		{"in a list in a map", map[string]any{"a": []any{"ok", map[string]any{"b/c": "{{missing}}"}}}, `/a/1/b\/c`},
		{"after a sibling that substituted fine", map[string]any{"a": "{{s}}", "b": []any{"{{s}}", "{{missing}}"}}, "/b/1"},
		{"in a key, at the map's path", map[string]any{"a": map[string]any{"{{missing}}": "v"}}, "/a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := e.Substitute(diffContext("CREATE"), tt.value)
			var se *Error
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tt.path, se.Path)
			assert.Equal(t, "missing", se.Variable)
		})
	}
	t.Run("the nesting limit names the path", func(t *testing.T) {
		ctx := map[string]any{"r": map[string]any{"x": []any{"{{r}}"}}}
		_, err := e.Substitute(ctx, map[string]any{"a": "{{r}}"})
		assert.EqualError(t, err, "substitute variables at path /a/x/0/x/0/x/0/x/0: values nest deeper than 4 substitutions")
	})
}

func TestSubstituteReferencesTheCurrentPath(t *testing.T) {
	ctx := map[string]any{"request": map[string]any{"object": map[string]any{
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c0"}, map[string]any{"name": "c1"}}},
	}}}
	in := map[string]any{"mutate": map[string]any{"patch": map[string]any{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "{{@}}"}, map[string]any{"name": "x-{{@}}"},
	}}}}}
	got, err := New(Options{}).Substitute(ctx, in)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"mutate": map[string]any{"patch": map[string]any{"spec": map[string]any{"containers": []any{
		map[string]any{"name": "c0"}, map[string]any{"name": "x-c1"},
	}}}}}, got)
}

func TestSubstituteCopiesContainersAndKeepsStrings(t *testing.T) {
	in := map[string]any{"a": map[string]any{"b": []any{"plain", `esc \{{x}}`, float64(1)}}, "c": "{{s}}"}
	got, err := New(Options{}).Substitute(diffContext("CREATE"), in)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": map[string]any{"b": []any{"plain", "esc {{x}}", float64(1)}}, "c": "text"}, got)
	// Every container is new: changing the result leaves the input alone.
	got.(map[string]any)["a"].(map[string]any)["b"].([]any)[0] = "changed"
	got.(map[string]any)["a"].(map[string]any)["new"] = true
	assert.Equal(t, map[string]any{"a": map[string]any{"b": []any{"plain", `esc \{{x}}`, float64(1)}}, "c": "{{s}}"}, in)
}

func TestSubstituteWithoutVariablesDoesNotReadTheContext(t *testing.T) {
	// The context is converted lazily; a value without variables does not
	// need it, one with a variable reports an unconvertible context.
	bad := map[string]any{"f": func() {}}
	e := New(Options{})
	got, err := e.Substitute(bad, map[string]any{"a": "plain"})
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"a": "plain"}, got)
	_, err = e.Substitute(bad, "{{f}}")
	assert.ErrorContains(t, err, "substitute variables: context:")
}

func TestSubstituteNamesPathsDeeperThanTheStackHolds(t *testing.T) {
	// push keeps 16 elements in place and the rest in a slice.
	var value any = "{{missing}}"
	want := ""
	for i := range 40 {
		if i%2 == 0 {
			value = []any{"x", value}
			want = "/1" + want
		} else {
			key := fmt.Sprintf("k%d", i)
			value = map[string]any{key: value, "a": "{{s}}"}
			want = "/" + key + want
		}
	}
	_, err := New(Options{}).Substitute(diffContext("CREATE"), value)
	var se *Error
	require.ErrorAs(t, err, &se)
	assert.Equal(t, want, se.Path)
	_, refErr := New(Options{}).refSubstitute(diffContext("CREATE"), value)
	assert.EqualError(t, err, refErr.Error())
}

// TestEvaluatorsShareFunctionTablesButNotTheirOptions runs evaluations of
// two Evaluators at the same time: the function tables are shared, each
// evaluation must still see its own Evaluator's clock and limits.
func TestEvaluatorsShareFunctionTablesButNotTheirOptions(t *testing.T) {
	t1, t2 := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2022, 2, 2, 0, 0, 0, 0, time.UTC)
	small := New(Options{Now: func() time.Time { return t1 }, MaxOutput: 25})
	large := New(Options{Now: func() time.Time { return t2 }})
	long := "to_upper('" + strings.Repeat("a", 30) + "')"
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			e, now, longFails := small, t1, true
			if g%2 == 1 {
				e, now, longFails = large, t2, false
			}
			for range 200 {
				got, err := e.Search("time_now_utc()", nil)
				if err != nil || got != now.Format(time.RFC3339) {
					errs <- fmt.Errorf("time_now_utc() = %v, %v; want %v", got, err, now)
					return
				}
				if _, err := e.Search(long, nil); (err != nil) != longFails {
					errs <- fmt.Errorf("a 30-byte result with MaxOutput %d: error %v", e.opts.MaxOutput, err)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestHasVariablesAndVariablesFindWhatTheRegexpFinds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 50_000 {
		s := randomText(r, 14)
		require.Equal(t, regexVariables.MatchString(s), HasVariables(s), "%q", s)
		var want []string
		for _, m := range regexVariables.FindAllStringSubmatch(s, -1) {
			v, _ := refTrimBraces(m[2])
			want = append(want, v)
		}
		require.Equal(t, want, Variables(s), "%q", s)
	}
}
