//go:build !js

package differential

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/genplay/genplay/engine/source"
)

// Random returns n cases drawn from seed: a ClusterPolicy of one to three
// generate rules (random match and exclude filters, context variables,
// preconditions with every operator, data built from Kyverno's JMESPath
// functions, foreach) and one to three Namespace or ConfigMap triggers.
// Case i depends only on seed and i, so one failing case replays alone
// (-seed S -run random-S-I). The cases stay clear of the documented CLI
// limitations: they generate string data into namespaces that exist.
func Random(seed uint64, n int) []Case {
	out := make([]Case, n)
	for i := range out {
		g := gen{r: rand.New(rand.NewPCG(seed, uint64(i)))}
		out[i] = g.draw(fmt.Sprintf("random-%d-%d", seed, i))
		out[i].Origin = fmt.Sprintf("Random(seed %d) case %d", seed, i)
	}
	return out
}

type gen struct{ r *rand.Rand }

func (g gen) pick(list ...string) string { return list[g.r.IntN(len(list))] }
func (g gen) chance(p float64) bool      { return g.r.Float64() < p }

// some returns a random non-empty subset of list, in order.
func (g gen) some(list ...string) []any {
	var out []any
	for _, s := range list {
		if g.chance(0.5) {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		out = append(out, list[g.r.IntN(len(list))])
	}
	return out
}

var (
	labelValues = map[string][]string{"env": {"dev", "prod", "staging"}, "team": {"a", "b"}, "tier": {"web", "db"}, "count": {"1", "2", "10"}}
	labelKeys   = []string{"count", "env", "team", "tier"}
	nsNames     = []string{"team-a", "team-b", "dev-x", "prod-y", "shared"}
	cmNames     = []string{"settings", "team-config", "app-1", "listing"}
)

func (g gen) labels() map[string]any {
	l := map[string]any{}
	for _, k := range labelKeys {
		if g.chance(0.6) {
			l[k] = g.pick(labelValues[k]...)
		}
	}
	return l
}

func (g gen) draw(name string) Case {
	kind := g.pick("Namespace", "ConfigMap")
	var triggers []map[string]any
	used := map[string]bool{}
	for range 1 + g.r.IntN(3) {
		md := map[string]any{"labels": g.labels()}
		if g.chance(0.4) {
			md["annotations"] = map[string]any{"owner": g.pick("alice", "bob")}
		}
		t := map[string]any{"apiVersion": "v1", "kind": kind, "metadata": md}
		if kind == "Namespace" {
			md["name"] = g.pick(nsNames...)
			// The label every cluster gives a Namespace, written out so
			// that the CLI's trigger has it too.
			md["labels"].(map[string]any)["kubernetes.io/metadata.name"] = md["name"]
		} else {
			md["name"] = g.pick(cmNames...)
			md["namespace"] = g.pick("default", "apps")
			t["data"] = map[string]any{"list": strings.Join(anyStrings(g.some("a", "b", "c", "d")), ","), "size": g.pick("1", "3", "12")}
		}
		key := fmt.Sprint(md["namespace"], "/", md["name"])
		if used[key] {
			continue
		}
		used[key] = true
		triggers = append(triggers, t)
	}
	var rules []any
	for i := range 1 + g.r.IntN(3) {
		rules = append(rules, g.rule(fmt.Sprintf("rule-%d", i), kind))
	}
	pol := map[string]any{"apiVersion": "kyverno.io/v1", "kind": "ClusterPolicy",
		"metadata": map[string]any{"name": name}, "spec": map[string]any{"rules": rules}}
	c := Case{Name: name}
	c.Policy = mustYAML(pol)
	for _, t := range triggers {
		c.Resources = append(c.Resources, "---\n"...)
		c.Resources = append(c.Resources, mustYAML(t)...)
	}
	return c
}

func anyStrings(v []any) []string {
	out := make([]string, len(v))
	for i, x := range v {
		out[i] = x.(string)
	}
	return out
}

func mustYAML(v any) []byte {
	b, err := source.Marshal(v)
	if err != nil {
		panic(err) // the generator builds plain JSON values
	}
	return b
}

func (g gen) filter(kind string, exclude bool) map[string]any {
	res := map[string]any{"kinds": []any{kind}}
	if exclude || g.chance(0.3) {
		switch g.r.IntN(4) {
		case 0:
			names := nsNames
			if kind == "ConfigMap" {
				names = cmNames
			}
			n := g.pick(names...)
			res["names"] = []any{g.pick(n, n[:2]+"*", "*-"+n[len(n)-1:], "?"+n[1:])}
		case 1:
			k := g.pick(labelKeys...)
			res["selector"] = map[string]any{"matchLabels": map[string]any{k: g.pick(labelValues[k]...)}}
		case 2:
			k := g.pick(labelKeys...)
			expr := map[string]any{"key": k, "operator": g.pick("In", "NotIn", "Exists", "DoesNotExist")}
			if op := expr["operator"]; op == "In" || op == "NotIn" {
				expr["values"] = g.some(labelValues[k]...) // Exists and DoesNotExist take none
			}
			res["selector"] = map[string]any{"matchExpressions": []any{expr}}
		case 3:
			res["annotations"] = map[string]any{"owner": g.pick("alice", "bob", "*", "?*")}
		}
		if kind == "ConfigMap" && g.chance(0.3) {
			res["namespaces"] = []any{g.pick("default", "apps", "ap*")}
		}
	}
	return map[string]any{"resources": res}
}

func (g gen) rule(name, kind string) map[string]any {
	r := map[string]any{"name": name}
	if g.chance(0.8) {
		r["match"] = map[string]any{"any": []any{g.filter(kind, false)}}
	} else {
		r["match"] = map[string]any{"all": []any{g.filter(kind, false), g.filter(kind, false)}}
	}
	if g.chance(0.3) {
		r["exclude"] = map[string]any{"any": []any{g.filter(kind, true)}}
	}
	if g.chance(0.4) {
		r["context"] = []any{
			map[string]any{"name": "who", "variable": map[string]any{"value": g.pick("platform", "Team-X", "a-b-c")}},
			map[string]any{"name": "env", "variable": map[string]any{"jmesPath": "request.object.metadata.labels.env", "default": "none"}},
		}
	}
	if g.chance(0.6) {
		var conds []any
		for range 1 + g.r.IntN(2) {
			conds = append(conds, g.condition())
		}
		r["preconditions"] = map[string]any{g.pick("any", "all"): conds}
	}
	ns := "{{ request.object.metadata.name }}"
	if kind == "ConfigMap" {
		ns = "{{ request.object.metadata.namespace }}"
	}
	data := map[string]any{}
	for range 1 + g.r.IntN(4) {
		data[fmt.Sprintf("k%d", len(data))] = g.value(r["context"] != nil)
	}
	body := map[string]any{"data": data}
	if g.chance(0.4) {
		body["metadata"] = map[string]any{"labels": map[string]any{"origin": g.pick("generated", "{{ request.object.kind }}", "{{ to_lower(request.object.kind) }}")}}
	}
	target := map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": ns, "data": body}
	gen := map[string]any{"synchronize": g.chance(0.5)}
	if kind == "ConfigMap" && g.chance(0.3) {
		// Names carry the trigger's, so that two triggers never write
		// one object (the CLI reports each trigger's objects apart).
		target["name"] = "each-" + name + "-{{ request.object.metadata.name }}-{{ element }}"
		target["list"] = "split(request.object.data.list, ',')"
		body["data"].(map[string]any)["index"] = "{{ to_string(elementIndex) }}"
		gen["foreach"] = []any{target}
	} else {
		target["name"] = "gen-" + name + "-{{ request.object.metadata.name }}"
		for k, v := range target {
			gen[k] = v
		}
	}
	r["generate"] = gen
	return r
}

// condition is a precondition with a random operator.
func (g gen) condition() map[string]any {
	switch g.r.IntN(5) {
	case 0:
		return map[string]any{"key": "{{ request.object.metadata.labels.env || '' }}",
			"operator": g.pick("Equals", "NotEquals"), "value": g.pick("dev", "prod", "")}
	case 1:
		return map[string]any{"key": "{{ request.object.metadata.labels.team || 'none' }}",
			"operator": g.pick("In", "NotIn", "AnyIn", "AllIn", "AnyNotIn", "AllNotIn"), "value": g.some("a", "b", "none")}
	case 2:
		return map[string]any{"key": "{{ to_number(request.object.metadata.labels.count || '0') }}",
			"operator": g.pick("GreaterThan", "GreaterThanOrEquals", "LessThan", "LessThanOrEquals"), "value": g.r.IntN(12)}
	case 3:
		return map[string]any{"key": "{{ keys(request.object.metadata.labels || `{}`) }}",
			"operator": g.pick("AnyIn", "AllIn", "AnyNotIn", "AllNotIn"), "value": g.some(labelKeys...)}
	}
	return map[string]any{"key": "{{ request.object.metadata.name }}",
		"operator": g.pick("Equals", "NotEquals"), "value": g.pick("team-*", "team-a", "*-x", "?ettings")}
}

// value is a string-valued variable expression from Kyverno's functions.
func (g gen) value(ctx bool) string {
	x := g.pick("request.object.metadata.name", "request.object.metadata.labels.env || 'none'",
		"request.object.kind", "request.object.metadata.annotations.owner || 'nobody'")
	if ctx {
		x = g.pick(x, "who", "env")
	}
	exprs := []string{
		"%s", "to_upper(%s)", "to_lower(%s)", "truncate(%s, `3`)", "split(%s, '-')[0]",
		"replace_all(%s, 'a', 'A')", "replace(%s, 'e', 'E', `1`)", "base64_encode(%s)", "sha256(%s)", "md5(%s)", "sha1(%s)",
		"trim(%s, 'at')", "trim_prefix(%s, 'team-')", "regex_replace_all('[aeiou]', %s, '_')",
		"regex_replace_all_literal('[aeiou]', %s, '$1')", "to_string(length(%s))", "join('-', [%s, 'x'])",
		"to_string(compare(%s, 'm'))", "to_string(regex_match('^t', %s))", "to_string(equal_fold(%s, 'TEAM-A'))",
		"to_string(pattern_match('t*', %s))", "base64_decode(base64_encode(%s))", "to_string(split(%s, ''))",
		"path_canonicalize(join('/', ['', %s, '..', 'x']))", "to_string(contains(%s, 'a'))", "to_string(starts_with(%s, 'te'))",
		"to_string(items(object_from_lists([%s], ['v']), 'k', 'v'))", "to_string(lookup(object_from_lists(['a'], [%s]), 'a'))",
		"to_string(semver_compare('1.2.3', '>=1.0.0'))", "to_string(add(length(%s), `2`))", "to_string(multiply(length(%s), `1.5`))",
		"to_string(divide(`10`, `4`))", "to_string(modulo(length(%s), `3`))", "subtract('100Mi', '50Mi')",
		"to_string(round(`2.567`, `1`))", "to_string(sum([`1`, length(%s)]))", "to_string(to_boolean('TRUE'))",
		"to_string(parse_json('{\"a\": [1, 2]}'))", "to_string(parse_yaml('a: yes'))", "to_string(label_match(`{\"a\": \"b\"}`, `{\"a\": \"b\", \"c\": \"d\"}`))",
		"time_add('2024-01-01T00:00:00Z', '90m')", "to_string(time_before('2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'))",
		"time_truncate('2024-01-01T10:37:00Z', '1h')", "time_to_cron('2024-01-01T10:37:00Z')", "time_utc('2024-01-01T10:37:00+02:00')",
		"image_normalize('nginx:1.2')", "to_string(time_diff('2024-01-01T00:00:00Z', '2024-01-02T00:00:00Z'))",
	}
	e := g.pick(exprs...)
	if strings.Contains(e, "%s") {
		e = fmt.Sprintf(e, x)
	}
	if g.chance(0.3) {
		return "pre-{{ " + e + " }}-post"
	}
	return "{{ " + e + " }}"
}
