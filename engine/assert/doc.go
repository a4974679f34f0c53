// Package assert implements chainsaw's assertion semantics: the assertion
// trees of kyverno-json that chainsaw's assert and error operations, and the
// check and expect blocks of other operations, evaluate against an object.
//
// An assertion tree is a JSON-shaped value compared with an actual value:
//
//   - maps match partially: every expected key must exist and match, extra
//     actual keys are fine; an empty expected map only requires a non-null
//     value;
//   - arrays match element by element and must have the same length;
//   - scalars compare by value, numbers numerically;
//   - a key written "(expr)" is a JMESPath projection evaluated on the actual
//     node, and its result is compared with the key's value;
//   - a string value written "(expr)" is a JMESPath expression evaluated on
//     the actual node; its result must equal the actual value;
//   - a key prefixed with "~." (or "~name.") iterates over the projected
//     array or map and asserts every element (binding the index or key to
//     $name); a key suffixed with "-> name" binds the projection to $name
//     for the assertions below it;
//   - "\(text)\" escapes parentheses: the value is the literal "(text)".
//
// Bindings are passed as a map whose keys are binding names without the
// leading "$" ({"namespace": "ns-1"} is read as $namespace). The JMESPath
// library kyverno uses (github.com/kyverno/go-jmespath) has no variables, so
// each $name is replaced with a JSON literal of its value before the
// expression is compiled. Chainsaw's functions trim_space, json_parse and
// as_string are available; its cluster functions (x_k8s_get, ...) and CEL
// expressions are not, and using them is reported as an error.
package assert
