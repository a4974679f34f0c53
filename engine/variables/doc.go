// Package variables substitutes Kyverno {{ }} variables and evaluates
// JMESPath expressions with Kyverno's custom functions, using Kyverno's own
// JMESPath fork, github.com/kyverno/go-jmespath.
//
// Substitution follows Kyverno's pkg/engine/variables:
//
//   - a variable is "{{ expr }}" at the start of a string or after any
//     character but a backslash; "\{{" escapes and becomes "{{" afterwards;
//   - a string that is exactly one variable becomes the variable's typed value
//     (a map, a list, a number); otherwise the value is interpolated, strings
//     as they are and anything else as JSON ("null" for nil);
//   - strings are re-scanned until no variable is left, so a value that
//     contains {{ }} is substituted in turn; "{{- expr}}" substitutes once;
//   - a map or list returned by a variable is itself traversed;
//   - map keys are substituted as well as values;
//   - a missing key is an error (`Unknown key "foo" in path`, see
//     NotFoundError); `a || 'default'` avoids it; a null value is not an error;
//   - when ctx.request.operation is DELETE, request.object reads
//     request.oldObject;
//   - {{@}} is the value at the same path under request.object (or target).
//
// Deliberate differences from Kyverno, all on inputs Kyverno mishandles:
// nested passes are bounded by Options.MaxDepth and strings by
// Options.MaxOutput (Kyverno would loop or grow without end); a non-ASCII
// character right before "{{" is kept whole (Kyverno cuts it to one byte);
// each variable is replaced where it was found (Kyverno replaces the first
// occurrence of its text, which differs only when an earlier substitution
// produced that same text); a
// shallow variable with a non-string value is interpolated as JSON (Kyverno
// panics). Expressions are bounded too: at most 64 KiB, and multi-select
// lists and hashes may multiply the input at most 4096 times.
//
// Custom functions, with Kyverno's argument types and error messages:
//
//	strings:    compare, equal_fold, replace, replace_all, to_upper, to_lower,
//	            trim, trim_prefix, split, truncate, path_canonicalize,
//	            to_boolean, base64_encode, base64_decode, sha256, sha1, md5
//	regexes:    regex_match, regex_replace_all, regex_replace_all_literal,
//	            pattern_match (wildcards), label_match
//	arithmetic: add, subtract, multiply, divide, modulo, sum, round; operands
//	            are numbers, Kubernetes quantities ("100Mi") or durations ("5m")
//	data:       parse_json, parse_yaml, lookup, items, object_from_lists
//	versions:   semver_compare
//	images:     image_normalize (engine/internal/imageref)
//	certs:      x509_decode (crypto/x509; native builds only, an error in
//	            js/wasm, where crypto/x509 would cost 0.35 MB)
//	time:       time_now, time_now_utc, time_since (from Options.Now),
//	            time_add, time_parse, time_utc, time_diff, time_before,
//	            time_after, time_between, time_truncate, time_to_cron
//
// The standard JMESPath functions are available too; join and to_string are
// replaced by versions bounded by MaxOutput. Registered but refused with an
// explanation (see Unsupported): is_external_url. random(pattern) returns a string matching the pattern
// from a generator seeded per run, so runs replay byte for byte.
package variables
