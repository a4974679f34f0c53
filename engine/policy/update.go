package policy

import (
	"encoding/json"
	"github.com/genplay/genplay/engine/internal/schema"
	"slices"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Messages of Kyverno's checks on a policy update.
const (
	// MsgImmutableRule is the error for a changed rule spec of a generate rule.
	MsgImmutableRule = "changes of immutable fields of a rule spec in a generate rule is disallowed"
	// MsgStaleTargets is the warning for a changed generate pattern or a removed rule.
	MsgStaleTargets = "no synchronization will be performed to the old target resource upon policy updates: changes in the generate rule pattern could result in stale targets"
)

// ValidateUpdate runs Kyverno's checks of an update from old to new (see
// immutableGenerateFields): a changed generate pattern or a removed generate
// rule is a warning, a changed rule spec an error. As in Kyverno, the
// warning wins: when patterns changed, the rule spec is not compared.
func ValidateUpdate(old, new *Policy) source.Diagnostics {
	if old == nil || new == nil {
		return nil
	}
	d := &schema.Diags{Doc: new.Source, File: new.File}
	oldSync := slices.ContainsFunc(old.Spec.Rules, func(r Rule) bool { return r.Generate != nil && r.Generate.Synchronize })
	oldRules, oldGens := hashes(old, oldSync)
	newRules, newGens := hashes(new, oldSync)
	if missing, ok := firstMissing(oldGens, newGens); ok {
		d.Warnf(updatePath(old, new, missing, true), "%s", MsgStaleTargets)
		return d.Result()
	}
	if missing, ok := firstMissing(oldRules, newRules); ok {
		d.Errorf(updatePath(old, new, missing, false), "%s", MsgImmutableRule)
	}
	return d.Result()
}

// hashes returns, per generate rule name, the canonical rule spec (without
// generate) and the canonical generate pattern, keyed by their content.
func hashes(p *Policy, oldSync bool) (rules, gens map[string]string) {
	rules, gens = map[string]string{}, map[string]string{}
	for i := range p.Spec.Rules {
		r := &p.Spec.Rules[i]
		if r.Generate == nil {
			continue
		}
		rules[ruleHash(r, oldSync)] = r.Name
		gens[generationHash(r)] = r.Name
	}
	return rules, gens
}

// firstMissing returns the name of the first old rule (by sorted hash) whose
// hash is not in new; false when new is a superset.
func firstMissing(old, new map[string]string) (string, bool) {
	for _, h := range resource.SortedKeys(old) {
		if _, ok := new[h]; !ok {
			return old[h], true
		}
	}
	return "", false
}

// updatePath points at the first changed field of the new rule with the name
// of the changed old rule: a field of generate when gen is set, another field
// of the rule otherwise. When the rule is gone it points at a new rule with
// a new name, else at spec.rules.
func updatePath(old, new *Policy, name string, gen bool) schema.Path {
	o, n := old.Rule(name), new.Rule(name)
	if o == nil || n == nil {
		// Renamed or removed: point at the first new generate rule that
		// differs from every old one, else at spec.rules.
		for i := range new.Spec.Rules {
			nr := &new.Spec.Rules[i]
			if nr.Generate != nil && old.Rule(nr.Name) == nil {
				return rulePath(nr.Index).Key("name")
			}
		}
		return schema.Path{"spec", "rules"}
	}
	rp := rulePath(n.Index)
	if gen {
		og, ng := schema.AsMap(o.Raw["generate"]), schema.AsMap(n.Raw["generate"])
		for _, k := range []string{"apiVersion", "kind", "name", "namespace", "uid", "clone", "cloneList"} {
			if !resource.Equal(canonical(og[k]), canonical(ng[k])) {
				return rp.Key("generate", k)
			}
		}
		return rp.Key("generate")
	}
	keys := resource.SortedKeys(n.Raw)
	for _, k := range resource.SortedKeys(o.Raw) {
		if _, ok := n.Raw[k]; !ok {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if k != "generate" && !resource.Equal(canonical(o.Raw[k]), canonical(n.Raw[k])) {
			return rp.Key(k)
		}
	}
	return rp
}

// TargetChanged reports whether the generate pattern of a rule changed in a
// way that leaves old downstreams stale: apiVersion, kind, name, namespace,
// clone or cloneList (Kyverno's generation hash). Changes to synchronize,
// data, foreach, orphanDownstreamOnPolicyDelete and generateExisting do not count.
func TargetChanged(old, new *Rule) bool {
	if old == nil || new == nil {
		return old != new
	}
	if (old.Generate == nil) != (new.Generate == nil) {
		return true
	}
	if old.Generate == nil {
		return false
	}
	return generationHash(old) != generationHash(new)
}

// RemovedRules returns the rules of old that new no longer has, by name.
func RemovedRules(old, new *Policy) []Rule {
	if old == nil {
		return nil
	}
	var out []Rule
	for _, r := range old.Spec.Rules {
		if new == nil || new.Rule(r.Name) == nil {
			out = append(out, r)
		}
	}
	return out
}

// mutableGenerateFields change freely on update.
var mutableGenerateFields = []string{"synchronize", "data", "foreach", "orphanDownstreamOnPolicyDelete", "generateExisting"}

func generationHash(r *Rule) string {
	g := map[string]any{}
	for k, v := range schema.AsMap(r.Raw["generate"]) {
		if !slices.Contains(mutableGenerateFields, k) {
			g[k] = v
		}
	}
	return hashOf(g)
}

// ruleHash is the rule without generate, with CRD defaults applied; match is
// left out when no rule of the old policy synchronizes.
func ruleHash(r *Rule, oldSync bool) string {
	m := map[string]any{}
	for k, v := range r.Raw {
		if k == "generate" || (k == "match" && !oldSync) {
			continue
		}
		m[k] = v
	}
	if _, ok := m["skipBackgroundRequests"]; !ok {
		m["skipBackgroundRequests"] = true
	}
	return hashOf(m)
}

// hashOf renders a canonical JSON form: empty values dropped, keys sorted.
func hashOf(v any) string {
	data, err := json.Marshal(canonical(v))
	if err != nil {
		return ""
	}
	return string(data)
}

// canonical drops the values Kyverno's typed model omits when marshalling:
// nulls, empty strings, empty maps and empty lists.
func canonical(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if c := canonical(e); c != nil {
				out[k] = c
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case []any:
		if len(t) == 0 {
			return nil
		}
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = canonical(e)
		}
		return out
	case string:
		if t == "" {
			return nil
		}
	}
	return v
}
