package assert

import "testing"

// parseByRegexps is ParseExpression as the regular expressions alone read
// it (kyverno-json's grammar), without the checks that spare them.
func parseByRegexps(in string) Expression {
	var e Expression
	if m := foreachRegex.FindStringSubmatch(in); m != nil {
		e.Foreach, e.ForeachName, in = true, m[1], m[2]
	}
	if m := bindingRegex.FindStringSubmatch(in); m != nil {
		e.Binding, in = m[2], m[1]
	}
	e.Statement = in
	if m := escapeRegex.FindStringSubmatch(in); m != nil {
		e.Statement = m[1]
	} else if m := compilerRegex.FindStringSubmatch(in); m != nil {
		e.Engine, e.Statement = m[1], m[2]
		if e.Engine == "" {
			e.Engine = "jp"
		}
	}
	return e
}

func FuzzParseExpressionIsTheRegexpsReading(f *testing.F) {
	for _, s := range []string{"", "a", "(a)", "()", "(x)", "(cel;a)", "(;a)", `\a\`, `\\`, `\(a)\`, "~.(a)", "~name.(b) -> c",
		"a -> b", "a->b", "(a -> b)", "~x", "~.", "a\n-> b", "(a\n)", "~n.\\x\\", "-> b", "(jp;a == `1`)", "x)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		if got, want := ParseExpression(in), parseByRegexps(in); got != want {
			t.Fatalf("%q: %+v, the regexps read %+v", in, got, want)
		}
	})
}
