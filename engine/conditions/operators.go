package conditions

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/genplay/genplay/engine/internal/quantity"
	"github.com/genplay/genplay/engine/internal/semver"
	"github.com/genplay/genplay/engine/internal/wildcard"
)

type operator struct {
	name string
	eval func(key, value any) bool
}

var operators = map[string]operator{}

func init() {
	add := func(f func(key, value any) bool, names ...string) {
		for _, n := range names {
			operators[strings.ToLower(n)] = operator{name: n, eval: f}
		}
	}
	add(equals, "Equals", "Equal")
	add(notEquals, "NotEquals", "NotEqual")
	add(in, "In")
	add(notIn, "NotIn")
	add(anyIn, "AnyIn")
	add(anyNotIn, "AnyNotIn")
	add(allIn, "AllIn")
	add(allNotIn, "AllNotIn")
	for _, n := range []string{"GreaterThan", "GreaterThanOrEquals", "LessThan", "LessThanOrEquals"} {
		cmp := ordering(n)
		add(func(k, v any) bool { return numeric(k, v, cmp) }, n)
	}
	for _, n := range []string{"DurationGreaterThan", "DurationGreaterThanOrEquals", "DurationLessThan", "DurationLessThanOrEquals"} {
		cmp := ordering(strings.TrimPrefix(n, "Duration"))
		add(func(k, v any) bool { return durations(k, v, cmp) }, n)
	}
}

// ordering turns an operator name into a test on a comparison result.
func ordering(name string) func(c int) bool {
	switch name {
	case "GreaterThan":
		return func(c int) bool { return c > 0 }
	case "GreaterThanOrEquals":
		return func(c int) bool { return c >= 0 }
	case "LessThan":
		return func(c int) bool { return c < 0 }
	default:
		return func(c int) bool { return c <= 0 }
	}
}

// cmpFloat compares two floats that are not NaN (see ordered).
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// parseDuration is Kyverno's: at least one side must be a duration string
// (other than "0"); the other may be a number of seconds.
func parseDuration(key, value any) (time.Duration, time.Duration, bool) {
	kd, kok := durationString(key)
	vd, vok := durationString(value)
	if !kok && !vok {
		return 0, 0, false
	}
	if !kok {
		if kd, kok = seconds(key); !kok {
			return 0, 0, false
		}
	}
	if !vok {
		if vd, vok = seconds(value); !vok {
			return 0, 0, false
		}
	}
	return kd, vd, true
}

func durationString(v any) (time.Duration, bool) {
	s, ok := v.(string)
	if !ok || s == "0" {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	return d, err == nil
}

// seconds converts a number to a duration as Kyverno does:
// time.Duration(f) * time.Second, which drops the fraction.
func seconds(v any) (time.Duration, bool) {
	f, ok := v.(float64)
	if !ok {
		return 0, false
	}
	return time.Duration(int64(f)) * time.Second, true
}

func equals(key, value any) bool {
	switch k := key.(type) {
	case bool:
		v, ok := value.(bool)
		return ok && k == v
	case float64:
		switch v := value.(type) {
		case float64:
			return k == v
		case string:
			f, err := strconv.ParseFloat(v, 64)
			return err == nil && f == k
		}
		return false
	case string:
		if kd, vd, ok := parseDuration(k, value); ok {
			return kd.Seconds() == vd.Seconds()
		}
		if kq, err := quantity.Parse(k); err == nil {
			if v, ok := value.(string); ok {
				vq, err := quantity.Parse(v)
				return err == nil && kq.Cmp(vq) == 0
			}
		}
		if v, ok := value.(string); ok {
			return wildcard.Match(v, k)
		}
		return false
	case map[string]any:
		v, ok := value.(map[string]any)
		return ok && reflect.DeepEqual(k, v)
	case []any:
		v, ok := value.([]any)
		return ok && reflect.DeepEqual(k, v)
	}
	return false
}

func notEquals(key, value any) bool {
	switch k := key.(type) {
	case bool:
		v, ok := value.(bool)
		return !ok || k != v
	case float64:
		switch v := value.(type) {
		case float64:
			return k != v
		case string:
			f, err := strconv.ParseFloat(v, 64)
			return err != nil || f != k
		}
		return true
	case string:
		if kd, vd, ok := parseDuration(k, value); ok {
			return kd.Seconds() != vd.Seconds()
		}
		if kq, err := quantity.Parse(k); err == nil {
			if v, ok := value.(string); ok {
				if v == "" {
					return !wildcard.Match(v, k)
				}
				vq, err := quantity.Parse(v)
				return err != nil || kq.Cmp(vq) != 0
			}
		}
		if v, ok := value.(string); ok {
			return !wildcard.Match(v, k)
		}
		return true
	case map[string]any:
		v, ok := value.(map[string]any)
		return !ok || !reflect.DeepEqual(k, v)
	case []any:
		v, ok := value.([]any)
		return !ok || !reflect.DeepEqual(k, v)
	}
	return false
}

// scalarKey renders a string, number or bool key as Kyverno's fmt.Sprint.
func scalarKey(key any) (string, bool) {
	switch k := key.(type) {
	case string:
		return k, true
	case float64, bool:
		return fmt.Sprint(k), true
	}
	return "", false
}

func sprintAll(list []any) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// --- deprecated In / NotIn: exact set semantics for lists ---

func in(key, value any) bool {
	if k, ok := scalarKey(key); ok {
		invalid, exists := keyExistsInArray(k, value)
		return !invalid && exists
	}
	if list, ok := key.([]any); ok {
		keys, ok := stringsOnly(list)
		if !ok {
			return false
		}
		invalid, isIn := setExistsInArray(keys, value, false)
		return !invalid && isIn
	}
	return false
}

func notIn(key, value any) bool {
	if k, ok := scalarKey(key); ok {
		invalid, exists := keyExistsInArray(k, value)
		return !invalid && !exists
	}
	if list, ok := key.([]any); ok {
		keys, ok := stringsOnly(list)
		if !ok {
			return false
		}
		invalid, isNotIn := setExistsInArray(keys, value, true)
		return !invalid && isNotIn
	}
	return false
}

func stringsOnly(list []any) ([]string, bool) {
	out := make([]string, len(list))
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func keyExistsInArray(key string, value any) (invalid, exists bool) {
	switch v := value.(type) {
	case []any:
		for _, e := range v {
			s := fmt.Sprint(e)
			if wildcard.Match(s, key) || wildcard.Match(key, s) {
				return false, true
			}
		}
		return false, false
	case string:
		if wildcard.Match(v, key) {
			return false, true
		}
		var arr []string
		if err := json.Unmarshal([]byte(v), &arr); err != nil {
			return true, false
		}
		for _, s := range arr {
			if s == key {
				return false, true
			}
		}
		return false, false
	}
	return true, false
}

func setExistsInArray(keys []string, value any, notIn bool) (invalid, result bool) {
	var values []string
	switch v := value.(type) {
	case []any:
		s, ok := stringsOnly(v)
		if !ok {
			return true, false
		}
		values = s
	case string:
		if len(keys) == 1 && keys[0] == v {
			return false, true // as in Kyverno, for NotIn too
		}
		if err := json.Unmarshal([]byte(v), &values); err != nil {
			return true, false
		}
	default:
		return true, false
	}
	set := make(map[string]bool, len(values))
	for _, s := range values {
		set[s] = true
	}
	for _, k := range keys {
		if !set[k] {
			return false, notIn // some key is missing: NotIn holds, In fails
		}
	}
	return false, !notIn
}

// --- AnyIn / AllIn / AnyNotIn / AllNotIn: wildcards both ways, ranges ---

var (
	inRange    = regexp.MustCompile(`^([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)-([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)$`)
	notInRange = regexp.MustCompile(`^([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)!-([-|\+]?\d+(?:\.\d+)?[A-Za-z]*)$`)
)

// isRange is Kyverno's GetOperatorFromStringPattern(value) == InRange: a
// leading comparison operator wins over the range form.
func isRange(s string) bool {
	if len(s) < 2 {
		return false
	}
	if strings.HasPrefix(s, ">") || strings.HasPrefix(s, "<") || strings.HasPrefix(s, "!") {
		return false
	}
	return !notInRange.MatchString(s) && inRange.MatchString(s)
}

func wildcardEither(a, b string) bool { return wildcard.Match(a, b) || wildcard.Match(b, a) }

// oneKeyIn is anyKeyExistsInArray / allKeyExistsInArray (identical in Kyverno).
func oneKeyIn(key string, value any) (invalid, exists bool) {
	switch v := value.(type) {
	case []any:
		for _, e := range v {
			if wildcardEither(fmt.Sprint(e), key) {
				return false, true
			}
		}
		return false, false
	case string:
		if wildcard.Match(v, key) {
			return false, true
		}
		if isRange(v) {
			return false, matchPattern(key, v)
		}
		arr, err := stringOrArray(v)
		if err != nil {
			return true, false
		}
		for _, s := range arr {
			if s == key {
				return false, true
			}
		}
		return false, false
	}
	return true, false
}

// stringOrArray reads a JSON array of strings, or takes a non-JSON string as
// a one-element list.
func stringOrArray(v string) ([]string, error) {
	if !json.Valid([]byte(v)) {
		return []string{v}, nil
	}
	var arr []string
	err := json.Unmarshal([]byte(v), &arr)
	return arr, err
}

// inSet evaluates AnyIn, AnyNotIn, AllIn and AllNotIn: a scalar key is
// looked up in value; a list key is compared as a set, any or all of its
// elements, negated by not.
func inSet(key, value any, all, not bool) bool {
	if k, ok := scalarKey(key); ok {
		invalid, exists := oneKeyIn(k, value)
		return !invalid && exists != not
	}
	if list, ok := key.([]any); ok {
		set := anySet
		if all {
			set = allSet
		}
		invalid, r := set(sprintAll(list), value, not)
		return !invalid && r
	}
	return false
}

func anyIn(key, value any) bool    { return inSet(key, value, false, false) }
func anyNotIn(key, value any) bool { return inSet(key, value, false, true) }
func allIn(key, value any) bool    { return inSet(key, value, true, false) }
func allNotIn(key, value any) bool { return inSet(key, value, true, true) }

func anySet(keys []string, value any, not bool) (invalid, result bool) {
	var values []string
	switch v := value.(type) {
	case []any:
		values = sprintAll(v)
	case float64, bool:
		values = []string{fmt.Sprint(v)}
	case string:
		if len(keys) == 1 && keys[0] == v {
			return false, !not
		}
		if isRange(v) {
			pattern := v
			if not {
				pattern = strings.Replace(v, "-", "!-", 1)
			}
			for _, k := range keys {
				if matchPattern(k, pattern) {
					return false, true
				}
			}
			return false, false
		}
		arr, err := stringOrArray(v)
		if err != nil {
			return true, false
		}
		values = arr
	default:
		return true, false
	}
	for _, k := range keys {
		found := false
		for _, val := range values {
			if wildcardEither(k, val) {
				found = true
				break
			}
		}
		if found && !not {
			return false, true
		}
		if !found && not {
			return false, true
		}
	}
	return false, false
}

func allSet(keys []string, value any, not bool) (invalid, result bool) {
	var values []string
	switch v := value.(type) {
	case []any:
		values = sprintAll(v)
	case string:
		if len(keys) == 1 && keys[0] == v {
			return false, !not
		}
		if isRange(v) {
			count := 0
			for _, k := range keys {
				if matchPattern(k, v) {
					count++
				}
			}
			if not {
				return false, count == 0
			}
			return false, count == len(keys)
		}
		arr, err := stringOrArray(v)
		if err != nil {
			return true, false
		}
		values = arr
	default:
		return true, false
	}
	found := 0
	for _, k := range keys {
		for _, val := range values {
			if wildcardEither(k, val) {
				found++
				break
			}
		}
	}
	if not {
		return false, found == 0
	}
	return false, found == len(keys)
}

// matchPattern is Kyverno's pattern.Validate for a string value against a
// string pattern: "a | b" alternatives of "x & y" conjunctions of
// comparisons (>=, <=, >, <, !, ranges "1-5" and "1!-5", or a wildcard
// equality), comparing durations, then quantities, then strings.
func matchPattern(value, pattern string) bool {
	if value == pattern {
		return true
	}
	for _, alt := range strings.Split(pattern, "|") {
		ok := true
		for _, c := range strings.Split(strings.TrimSpace(alt), "&") {
			if !matchOne(value, strings.TrimSpace(c)) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func matchOne(value, pattern string) bool {
	op := ""
	if len(pattern) >= 2 {
		for _, o := range []string{">=", "<=", ">", "<", "!"} {
			if strings.HasPrefix(pattern, o) {
				op = o
				break
			}
		}
		if op == "" {
			if m := notInRange.FindStringSubmatch(pattern); m != nil {
				return matchOne(value, "< "+m[1]) || matchOne(value, "> "+m[2])
			}
			if m := inRange.FindStringSubmatch(pattern); m != nil {
				return matchOne(value, ">= "+m[1]) && matchOne(value, "<= "+m[2])
			}
		}
	}
	p := strings.TrimSpace(pattern[len(op):])
	test := map[string]func(int) bool{
		"":   func(c int) bool { return c == 0 },
		"!":  func(c int) bool { return c != 0 },
		">":  func(c int) bool { return c > 0 },
		"<":  func(c int) bool { return c < 0 },
		">=": func(c int) bool { return c >= 0 },
		"<=": func(c int) bool { return c <= 0 },
	}[op]
	if pd, err := time.ParseDuration(p); err == nil {
		if vd, err := time.ParseDuration(value); err == nil {
			return test(cmpDuration(vd, pd))
		}
	}
	if pq, err := quantity.Parse(p); err == nil {
		if vq, err := quantity.Parse(value); err == nil {
			return test(vq.Cmp(pq))
		}
	}
	switch op {
	case "":
		return wildcard.Match(p, value)
	case "!":
		return !wildcard.Match(p, value)
	}
	return false
}

func cmpDuration(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// --- numeric and duration operators ---

func numeric(key, value any, holds func(int) bool) bool {
	switch k := key.(type) {
	case float64:
		return numericFloat(k, value, holds)
	case string:
		if kd, vd, ok := parseDuration(k, value); ok {
			return holds(cmpFloat(kd.Seconds(), vd.Seconds()))
		}
		if v, ok := value.(string); ok {
			kq, err1 := quantity.Parse(k)
			vq, err2 := quantity.Parse(v)
			if err1 == nil && err2 == nil {
				return holds(kq.Cmp(vq))
			}
		}
		if f, err := strconv.ParseFloat(k, 64); err == nil {
			return numericFloat(f, value, holds)
		}
		if kv, err := semver.Parse(k); err == nil {
			v, ok := value.(string)
			if !ok {
				return false
			}
			vv, err := semver.Parse(v)
			return err == nil && holds(kv.Compare(vv))
		}
	}
	return false
}

func numericFloat(k float64, value any, holds func(int) bool) bool {
	switch v := value.(type) {
	case float64:
		return ordered(k, v, holds)
	case string:
		if kd, vd, ok := parseDuration(k, v); ok {
			return ordered(kd.Seconds(), vd.Seconds(), holds)
		}
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return ordered(k, f, holds)
		}
	}
	return false
}

// ordered applies holds to the comparison of two floats; NaN compares false.
func ordered(a, b float64, holds func(int) bool) bool {
	if a != a || b != b {
		return false
	}
	return holds(cmpFloat(a, b))
}

func durations(key, value any, holds func(int) bool) bool {
	kd, ok := asDuration(key)
	if !ok {
		return false
	}
	vd, ok := asDuration(value)
	if !ok {
		return false
	}
	return holds(cmpDuration(kd, vd))
}

// asDuration reads a number of seconds or a Go duration string.
func asDuration(v any) (time.Duration, bool) {
	switch t := v.(type) {
	case float64:
		d, _ := seconds(t)
		return d, true
	case string:
		d, err := time.ParseDuration(t)
		return d, err == nil
	}
	return 0, false
}
