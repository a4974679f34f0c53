// Package conditions evaluates Kyverno preconditions ({any: [...], all:
// [...]} or the legacy list, which means all) the way Kyverno's
// pkg/engine/variables (Evaluate, EvaluateConditions) and its operator
// package do: the key and value of each condition are substituted first
// (a missing variable is an error, not a failed condition), then compared.
//
// Operators (names are case-insensitive): Equals, NotEquals (and the
// deprecated Equal, NotEqual), AnyIn, AllIn, AnyNotIn, AllNotIn (and the
// deprecated In, NotIn), GreaterThan, GreaterThanOrEquals, LessThan,
// LessThanOrEquals, DurationGreaterThan, DurationGreaterThanOrEquals,
// DurationLessThan, DurationLessThanOrEquals. Kyverno's comparisons are
// reproduced: wildcards in string values, durations ("1h") and quantities
// ("1Gi") compared by magnitude, semantic versions in the numeric operators,
// JSON-array strings and ranges ("1-10") in the set operators.
//
// Differences: an In/NotIn key list holding a non-string makes the condition
// false (Kyverno panics), and a lower-case numeric operator compares as
// written in canonical case (Kyverno accepts it and then always answers
// false).
package conditions
