package migrate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// ---- strings with {{ }} variables ----------------------------------------

// piece is literal text or a JMESPath expression of a string.
type piece struct {
	text string
	expr bool
}

// splitVars cuts a string into literal text and {{ }} expressions, with
// Kyverno's escape: \{{ is a literal {{.
func splitVars(s string) []piece {
	var out []piece
	var lit strings.Builder
	for i := 0; i < len(s); {
		if strings.HasPrefix(s[i:], `\{{`) {
			lit.WriteString("{{")
			i += 3
			continue
		}
		if strings.HasPrefix(s[i:], "{{") {
			depth, j := 0, i+2
			end := -1
			for ; j < len(s); j++ {
				switch {
				case s[j] == '{':
					depth++
				case s[j] == '}' && depth > 0:
					depth--
				case strings.HasPrefix(s[j:], "}}") && depth == 0:
					end = j
				}
				if end >= 0 {
					break
				}
			}
			if end < 0 {
				lit.WriteString(s[i:])
				break
			}
			if lit.Len() > 0 {
				out = append(out, piece{text: lit.String()})
				lit.Reset()
			}
			out = append(out, piece{text: s[i+2 : end], expr: true})
			i = end + 2
			continue
		}
		lit.WriteByte(s[i])
		i++
	}
	if lit.Len() > 0 || len(out) == 0 {
		out = append(out, piece{text: lit.String()})
	}
	return out
}

func hasVars(s string) bool {
	for _, p := range splitVars(s) {
		if p.expr {
			return true
		}
	}
	return false
}

// stringExpr turns a string with variables into a CEL expression: a
// literal, the typed value of a lone variable, or a concatenation.
func (rc *ruleConv) stringExpr(s string, sc *scope, what string, at ...any) (string, bool) {
	pieces := splitVars(s)
	if len(pieces) == 1 && !pieces[0].expr {
		return quote(pieces[0].text), true
	}
	var parts []string
	for _, p := range pieces {
		if !p.expr {
			parts = append(parts, quote(p.text))
			continue
		}
		t, err := rc.translate(p.text, sc)
		if !rc.ok(err, what+" {{"+p.text+"}}", at...) {
			return quote(s), false
		}
		if len(pieces) == 1 {
			return t, true
		}
		parts = append(parts, "string("+t+")")
	}
	return strings.Join(parts, " + "), true
}

// translate translates one JMESPath expression and records what it needs.
func (rc *ruleConv) translate(expr string, sc *scope) (string, error) {
	t, err := translateJMESPath(expr, sc)
	if err != nil {
		return "", err
	}
	if len(t.admission) > 0 {
		rc.usesUser = true
	}
	rc.readsOperation = rc.readsOperation || t.operation
	if t.valueDefault != "" {
		rc.note(fmt.Sprintf("{{%s}}: the default after || is used in CEL only when %s is an absent optional; "+
			"when it is null, false or empty it stays (JMESPath takes the default), and when it fails the policy fails "+
			"(Kyverno's orValue lets the error through)", expr, t.valueDefault))
	}
	return t.cel, nil
}

// celValue renders a JSON-shaped value whose strings may hold variables as
// a CEL literal.
func (rc *ruleConv) celValue(v any, sc *scope, at []any) (string, bool) {
	ok := true
	var walk func(v any, at []any) string
	walk = func(v any, at []any) string {
		switch x := v.(type) {
		case map[string]any:
			var parts []string
			for _, k := range sortedKeys(x) {
				if hasVars(k) {
					rc.unconverted("a variable in a key has no CEL literal form", "build the key in CEL: {KEY_EXPRESSION: VALUE}", append(at, k)...)
					ok = false
				}
				parts = append(parts, quote(k)+": "+walk(x[k], append(at, k)))
			}
			return "{" + strings.Join(parts, ", ") + "}"
		case []any:
			var parts []string
			for i, e := range x {
				parts = append(parts, walk(e, append(at, i)))
			}
			return "[" + strings.Join(parts, ", ") + "]"
		case string:
			s, good := rc.stringExpr(x, sc, "variable", at...)
			ok = ok && good
			if good && hasVars(x) && underStringMap(at) && !strings.HasPrefix(s, "string(") {
				s = "string(" + s + ")" // label and annotation values are strings
			}
			return s
		default:
			s, err := literal(x)
			if err != nil {
				ok = false
				return "null"
			}
			return s
		}
	}
	return walk(v, at), ok
}

// underStringMap reports whether a path is a label or annotation value.
func underStringMap(at []any) bool {
	n := len(at)
	if n < 2 {
		return false
	}
	k, _ := at[n-2].(string)
	return k == "labels" || k == "annotations"
}

// templateValue rewrites the strings of a data value for a template with
// interpolate: cel: variables become (( )) placeholders, literal (( are
// escaped. It reports whether any placeholder was written.
func (rc *ruleConv) templateValue(v any, at []any) (any, bool) {
	placeholders := false
	var walk func(v any, at []any) any
	walk = func(v any, at []any) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				if hasVars(k) {
					rc.unconverted("a variable in a key: template placeholders are not allowed in mapping keys", "build the object in a generate expression instead", append(at, k)...)
				}
				out[k] = walk(e, append(at, k))
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e, append(at, i))
			}
			return out
		case string:
			pieces := splitVars(x)
			var b strings.Builder
			for _, p := range pieces {
				if !p.expr {
					b.WriteString(strings.ReplaceAll(p.text, "((", `\((`))
					continue
				}
				t, err := rc.translate(p.text, &rc.sc)
				if !rc.ok(err, "variable {{"+p.text+"}}", at...) {
					b.WriteString("{{" + strings.ReplaceAll(p.text, "((", `\((`) + "}}") // kept literally, visible in the downstream
					continue
				}
				placeholders = true
				b.WriteString("(( " + t + " ))")
			}
			return b.String()
		}
		return v
	}
	out := walk(v, at)
	return out, placeholders
}

// ---- context ---------------------------------------------------------------

var celIdentFix = regexp.MustCompile(`[^A-Za-z0-9_]`)

func (rc *ruleConv) context() {
	for i, c := range rc.r.Context {
		m, _ := c.(map[string]any)
		name, _ := m["name"].(string)
		at := []any{"context", i}
		ident := celIdentFix.ReplaceAllString(name, "_")
		if ident == "" || (ident[0] >= '0' && ident[0] <= '9') {
			ident = "v_" + ident
		}
		expr, ok := rc.contextExpr(m, &rc.sc, at)
		if !ok {
			continue
		}
		inline, _ := rc.contextExprQuiet(m, &rc.inline)
		rc.gp.variables = append(rc.gp.variables, named{name: ident, expr: expr, origin: rc.origin(fmt.Sprintf("context[%d] (%s)", i, name))})
		rc.sc.vars[name] = "variables." + ident
		rc.inline.vars[name] = group(inline, precPrimary)
	}
}

// contextExprQuiet is contextExpr without findings (the second rendering,
// with variables inlined, reports nothing new).
func (rc *ruleConv) contextExprQuiet(m map[string]any, sc *scope) (string, bool) {
	saved := *rc.findings
	broken := rc.broken
	s, ok := rc.contextExpr(m, sc, nil)
	*rc.findings = saved
	rc.broken = broken
	return s, ok
}

func (rc *ruleConv) contextExpr(m map[string]any, sc *scope, at []any) (string, bool) {
	switch {
	case m["variable"] != nil:
		v := mapOf(m, "variable")
		jp, _ := v["jmesPath"].(string)
		value, hasValue := v["value"]
		def, hasDefault := v["default"]
		at := append(at, "variable")
		if hasValue && jp != "" {
			rc.unconverted("a variable with both value and jmesPath (a JMESPath query over a literal) is not translated", "compute the value in CEL directly", at...)
			return "", false
		}
		if hasValue {
			return rc.celValue(value, sc, append(at, "value"))
		}
		if hasDefault {
			d, err := json.Marshal(def)
			if err == nil {
				jp = "(" + jp + ") || `" + string(d) + "`"
			}
		}
		t, err := rc.translate(jp, sc)
		if !rc.ok(err, "context variable jmesPath", append(at, "jmesPath")...) {
			return "", false
		}
		return t, true
	case m["configMap"] != nil:
		cm := mapOf(m, "configMap")
		at := append(at, "configMap")
		name, ok1 := rc.stringExpr(str(cm["name"]), sc, "configMap.name", append(at, "name")...)
		ns, ok2 := rc.stringExpr(str(cm["namespace"]), sc, "configMap.namespace", append(at, "namespace")...)
		if !ok1 || !ok2 {
			return "", false
		}
		if rc.p.Kind == policy.KindPolicy {
			return fmt.Sprintf(`resource.get('v1', 'configmaps', %s)`, name), true
		}
		return fmt.Sprintf(`resource.get('v1', 'configmaps', %s, %s)`, ns, name), true
	case m["apiCall"] != nil:
		return rc.apiCall(mapOf(m, "apiCall"), sc, append(at, "apiCall"))
	case m["globalReference"] != nil:
		gr := mapOf(m, "globalReference")
		at := append(at, "globalReference")
		name, ok := rc.stringExpr(str(gr["name"]), sc, "globalReference.name", append(at, "name")...)
		if !ok {
			return "", false
		}
		base := fmt.Sprintf("globalContext.Get(%s, '')", name)
		if jp, _ := gr["jmesPath"].(string); jp != "" {
			rel := *sc
			rel.vars = withCurrent(sc.vars, base)
			t, err := rc.translate(jp, &rel)
			if !rc.ok(err, "globalReference jmesPath", append(at, "jmesPath")...) {
				return "", false
			}
			return t, true
		}
		return base, true
	case m["imageRegistry"] != nil:
		rc.unconverted("imageRegistry context entries are not translated", "use image.GetMetadata(REFERENCE) in a variable", append(at, "imageRegistry")...)
		return "", false
	}
	rc.unconverted("this context entry has no CEL equivalent", "", at...)
	return "", false
}

// currentKey names the JMESPath current node (@ and relative paths) in a
// scope's vars.
const currentKey = "@"

func withCurrent(vars map[string]string, current string) map[string]string {
	out := make(map[string]string, len(vars)+1)
	for k, v := range vars {
		out[k] = v
	}
	out[currentKey] = current
	return out
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// apiCall translates a Kubernetes API call to resource.get / resource.List.
func (rc *ruleConv) apiCall(a map[string]any, sc *scope, at []any) (string, bool) {
	if a["service"] != nil {
		rc.unconverted("an apiCall to a service has no resource-library equivalent",
			"call the service with http.Get(URL) (or http.Post(URL, BODY)) in a variable", append(at, "service")...)
		return "", false
	}
	if method, _ := a["method"].(string); method != "" && method != "GET" {
		rc.unconverted(fmt.Sprintf("an apiCall with method %s is not translated", method),
			"use resource.post(API_VERSION, RESOURCE, NAMESPACE, BODY) for a create", append(at, "method")...)
		return "", false
	}
	urlPath, _ := a["urlPath"].(string)
	if strings.Contains(urlPath, "?") {
		rc.unconverted("query parameters in an apiCall urlPath are not translated",
			"filter the list in CEL: resource.List(...).items.filter(i, COND), or pass a labels map to resource.List", append(at, "urlPath")...)
		return "", false
	}
	segs := strings.Split(strings.Trim(urlPath, "/"), "/")
	var apiVersion string
	var rest []string
	switch {
	case len(segs) >= 2 && segs[0] == "api":
		apiVersion, rest = segs[1], segs[2:]
	case len(segs) >= 3 && segs[0] == "apis":
		apiVersion, rest = segs[1]+"/"+segs[2], segs[3:]
	default:
		rc.unconverted(fmt.Sprintf("the apiCall urlPath %q is not a Kubernetes resource path", urlPath), "", append(at, "urlPath")...)
		return "", false
	}
	ns := "''"
	if len(rest) >= 3 && rest[0] == "namespaces" {
		var ok bool
		if ns, ok = rc.stringExpr(rest[1], sc, "apiCall namespace", append(at, "urlPath")...); !ok {
			return "", false
		}
		rest = rest[2:]
	}
	var call string
	switch len(rest) {
	case 1:
		if rc.p.Kind == policy.KindPolicy {
			call = fmt.Sprintf("resource.List(%s, %s)", quote(apiVersion), quote(rest[0]))
		} else {
			call = fmt.Sprintf("resource.List(%s, %s, %s)", quote(apiVersion), quote(rest[0]), ns)
		}
	case 2:
		name, ok := rc.stringExpr(rest[1], sc, "apiCall name", append(at, "urlPath")...)
		if !ok {
			return "", false
		}
		if rc.p.Kind == policy.KindPolicy {
			call = fmt.Sprintf("resource.get(%s, %s, %s)", quote(apiVersion), quote(rest[0]), name)
		} else {
			call = fmt.Sprintf("resource.get(%s, %s, %s, %s)", quote(apiVersion), quote(rest[0]), ns, name)
		}
	default:
		rc.unconverted(fmt.Sprintf("the apiCall urlPath %q is not a list or a get of one resource", urlPath), "", append(at, "urlPath")...)
		return "", false
	}
	if jp, _ := a["jmesPath"].(string); jp != "" {
		rel := *sc
		rel.vars = withCurrent(sc.vars, call)
		t, err := rc.translate(jp, &rel)
		if !rc.ok(err, "apiCall jmesPath", append(at, "jmesPath")...) {
			return "", false
		}
		return t, true
	}
	return call, true
}

// ---- preconditions ---------------------------------------------------------

func (rc *ruleConv) preconditions() {
	pre := rc.r.Preconditions
	if pre == nil {
		return
	}
	if l, ok := pre.([]any); ok { // the legacy list: all must hold
		if p, ok := rc.conditions(l, []any{"preconditions"}, " && "); ok && p != "" {
			rc.gp.conditions = append(rc.gp.conditions, named{name: "preconditions", expr: p, origin: rc.origin("preconditions")})
		}
		return
	}
	m, _ := pre.(map[string]any)
	if l, ok := m["any"].([]any); ok && len(l) > 0 {
		if p, ok := rc.conditions(l, []any{"preconditions", "any"}, " || "); ok && p != "" {
			rc.gp.conditions = append(rc.gp.conditions, named{name: "preconditions-any", expr: p, origin: rc.origin("preconditions.any")})
		}
	}
	if l, ok := m["all"].([]any); ok && len(l) > 0 {
		if p, ok := rc.conditions(l, []any{"preconditions", "all"}, " && "); ok && p != "" {
			rc.gp.conditions = append(rc.gp.conditions, named{name: "preconditions-all", expr: p, origin: rc.origin("preconditions.all")})
		}
	}
}

// conditions joins the conditions of a list; a condition that cannot be
// translated is reported and left out (the whole list is then left out when
// joined with ||, since dropping one alternative would narrow it).
func (rc *ruleConv) conditions(l []any, at []any, join string) (string, bool) {
	var parts []string
	all := true
	for i, c := range l {
		m, _ := c.(map[string]any)
		p, ok := rc.condition(m, &rc.inline, append(append([]any{}, at...), i))
		if !ok {
			all = false
			continue
		}
		parts = append(parts, p)
	}
	if !all && join == " || " {
		return "", false
	}
	if join == " || " {
		return celOr(parts...), true
	}
	return celAnd(parts...), true
}

// condition translates one precondition {key, operator, value}.
func (rc *ruleConv) condition(m map[string]any, sc *scope, at []any) (string, bool) {
	op, _ := m["operator"].(string)
	key, ok1 := rc.celValue(m["key"], sc, append(at, "key"))
	val, ok2 := rc.celValue(m["value"], sc, append(at, "value"))
	if !ok1 || !ok2 {
		return "", false
	}
	strVal, valIsString := m["value"].(string)
	wild := valIsString && !hasVars(strVal) && hasWildcard(strVal)
	listWild := false
	if l, ok := m["value"].([]any); ok {
		for _, e := range l {
			if s, ok := e.(string); ok && hasWildcard(s) {
				listWild = true
			}
		}
	}
	keys := "[dyn(" + key + ")].flatten()"
	switch strings.ToLower(op) {
	case "equals", "equal":
		if wild {
			return fmt.Sprintf("string(%s).matches(%s)", key, quote(wildcardRegex(strVal))), true
		}
		return key + " == " + val, true
	case "notequals", "notequal":
		if wild {
			return fmt.Sprintf("!string(%s).matches(%s)", key, quote(wildcardRegex(strVal))), true
		}
		return key + " != " + val, true
	case "anyin", "allin", "in", "anynotin", "allnotin", "notin":
		if listWild || wild {
			rc.unconverted("wildcards in the value of an "+op+" precondition are not translated",
				"test each pattern: LIST.exists(x, x.matches(REGEX))", append(at, "value")...)
			return "", false
		}
		if valIsString {
			val = "[" + val + "]"
		}
		switch strings.ToLower(op) {
		case "anyin":
			return fmt.Sprintf("%s.exists(x, x in %s)", keys, val), true
		case "allin", "in":
			return fmt.Sprintf("%s.all(x, x in %s)", keys, val), true
		case "anynotin":
			return fmt.Sprintf("%s.exists(x, !(x in %s))", keys, val), true
		default:
			return fmt.Sprintf("%s.all(x, !(x in %s))", keys, val), true
		}
	case "greaterthan", "greaterthanorequals", "lessthan", "lessthanorequals":
		sym := map[string]string{"greaterthan": ">", "greaterthanorequals": ">=", "lessthan": "<", "lessthanorequals": "<="}[strings.ToLower(op)]
		switch v := m["value"].(type) {
		case float64:
			return fmt.Sprintf("double(%s) %s double(%s)", key, sym, val), true
		case string:
			if !hasVars(v) && isQuantity(v) {
				return fmt.Sprintf("quantity(string(%s)).compareTo(quantity(%s)) %s 0", key, val, sym), true
			}
		}
		rc.unconverted(fmt.Sprintf("the %s precondition compares values whose type is only known at run time (numbers, quantities, durations or versions)", op),
			"compare in CEL with the type you mean: double(A) > double(B), quantity(A).compareTo(quantity(B)) > 0, duration(A) > duration(B)", append(at, "operator")...)
		return "", false
	}
	if strings.HasPrefix(strings.ToLower(op), "duration") {
		rc.unconverted(fmt.Sprintf("the %s precondition operator has no CEL counterpart of the same semantics", op),
			"compare durations in CEL: duration(A) > duration(B)", append(at, "operator")...)
		return "", false
	}
	rc.unconverted(fmt.Sprintf("the precondition operator %q has no CEL equivalent", op), "", append(at, "operator")...)
	return "", false
}

var quantityRE = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|P|E|Ki|Mi|Gi|Ti|Pi|Ei)?$`)

func isQuantity(s string) bool { return quantityRE.MatchString(s) }

// ---- generate --------------------------------------------------------------

func (rc *ruleConv) generation() {
	g := rc.r.Generate
	if len(g.ForEach) > 0 {
		for i, fe := range g.ForEach {
			rc.foreach(i, fe)
		}
		return
	}
	rc.target(g.Target, []any{"generate"}, nil, nil)
}

// targetScope is the scope of a target: the rule's, or a foreach's.
func (rc *ruleConv) targetNamespace(t policy.Target, sc *scope, at []any) (string, bool, bool) {
	info, known := kinds.KindInfo(t.APIVersion, t.Kind)
	namespaced := !known || info.Namespaced
	if !namespaced {
		return "''", false, true
	}
	if t.Namespace == "" && rc.p.Kind != policy.KindPolicy {
		rc.note("the namespaced target has no namespace: Kyverno rejects such a rule", append(at, "namespace")...)
	}
	ns, ok := rc.stringExpr(t.Namespace, sc, "generate.namespace", append(at, "namespace")...)
	return ns, true, ok
}

// apply renders generator.apply for the policy's kind.
func (rc *ruleConv) apply(ns, list string) string {
	if rc.p.Kind == policy.KindPolicy {
		return "generator.apply(" + list + ")"
	}
	return "generator.apply(" + ns + ", " + list + ")"
}

// target converts one generate pattern: the rule's (iterate nil), or a
// foreach entry's, whose every generation iterate wraps in the loop.
func (rc *ruleConv) target(t policy.Target, at []any, sc *scope, iterate func(string) string) {
	if sc == nil {
		sc = &rc.sc
	}
	field := fieldString(at)
	foreach := iterate != nil
	if !foreach {
		iterate = func(expr string) string { return expr }
	}
	switch {
	case t.CloneList != nil:
		rc.cloneList(t, at, sc, iterate)
	case t.Clone != nil:
		rc.clone(t, at, sc, iterate)
	default:
		if !foreach {
			rc.dataTemplate(t, at)
			return
		}
		obj, ok := rc.dataObject(t, sc, at)
		ns, _, ok2 := rc.targetNamespace(t, sc, at)
		if !ok || !ok2 {
			rc.broken = true
		}
		rc.gp.generate = append(rc.gp.generate, generation{origin: rc.origin(field + ".data"), expression: iterate(rc.apply(ns, "["+obj+"]"))})
	}
}

// desired is the downstream a data pattern describes: data with apiVersion,
// name and namespace forced from the rule and kind defaulted (Kyverno's
// generator does the same).
func desired(t policy.Target, namespaced bool) map[string]any {
	doc := map[string]any{}
	if m, ok := t.Data.(map[string]any); ok {
		doc = resource.Object(m).DeepCopy()
	}
	doc["apiVersion"] = t.APIVersion
	if k, _ := doc["kind"].(string); k == "" {
		doc["kind"] = t.Kind
	}
	meta, _ := doc["metadata"].(map[string]any)
	if meta == nil {
		meta = map[string]any{}
	}
	meta["name"] = t.Name
	if namespaced {
		meta["namespace"] = t.Namespace
	} else {
		delete(meta, "namespace")
	}
	doc["metadata"] = meta
	return doc
}

func (rc *ruleConv) dataTemplate(t policy.Target, at []any) {
	info, known := kinds.KindInfo(t.APIVersion, t.Kind)
	namespaced := !known || info.Namespaced
	doc := desired(t, namespaced)
	if rc.p.Kind == policy.KindPolicy && t.Namespace == "" {
		delete(doc["metadata"].(map[string]any), "namespace")
	}
	rendered, placeholders := rc.templateValue(doc, append(at, "data"))
	y, err := source.Marshal(rendered)
	if err != nil {
		rc.unconverted("the data cannot be written as YAML: "+err.Error(), "", append(at, "data")...)
		return
	}
	text := string(y)
	interpolate := "none"
	if placeholders {
		interpolate = "cel"
	} else {
		text = strings.ReplaceAll(text, `\((`, "((") // no interpolation: nothing to escape
	}
	rc.gp.generate = append(rc.gp.generate, generation{origin: rc.origin(fieldString(at) + ".data"), template: text + "\x00" + interpolate})
}

func (rc *ruleConv) dataObject(t policy.Target, sc *scope, at []any) (string, bool) {
	info, known := kinds.KindInfo(t.APIVersion, t.Kind)
	namespaced := !known || info.Namespaced
	return rc.celValue(desired(t, namespaced), sc, append(at, "data"))
}

// resourceOf maps a target apiVersion and kind to its resource name.
func (rc *ruleConv) resourceOf(apiVersion, kind string, at []any) (string, bool) {
	if hasVars(apiVersion) || hasVars(kind) {
		rc.unconverted("a variable in the target's apiVersion or kind: the resource to read cannot be known when converting",
			"name the resource: resource.get(API_VERSION, RESOURCE, NAMESPACE, NAME)", at...)
		return "", false
	}
	info, ok := kinds.KindInfo(apiVersion, kind)
	if !ok {
		res := pluralGuess(kind)
		rc.note(fmt.Sprintf("the kind %s is not one genplay knows: its resource name is guessed as %q", kind, res), at...)
		return res, true
	}
	return info.Resource, true
}

func (rc *ruleConv) clone(t policy.Target, at []any, sc *scope, iterate func(string) string) {
	cat := append(append([]any{}, at...), "clone")
	res, ok := rc.resourceOf(t.APIVersion, t.Kind, at)
	if !ok {
		rc.fatal = true
		return
	}
	name, ok1 := rc.stringExpr(t.Clone.Name, sc, "clone.name", append(cat, "name")...)
	srcNS, ok2 := rc.stringExpr(t.Clone.Namespace, sc, "clone.namespace", append(cat, "namespace")...)
	ns, _, ok3 := rc.targetNamespace(t, sc, at)
	if !ok1 || !ok2 || !ok3 {
		rc.fatal = true
		return
	}
	get := fmt.Sprintf("resource.get(%s, %s, %s, %s)", quote(t.APIVersion), quote(res), srcNS, name)
	if rc.p.Kind == policy.KindPolicy {
		get = fmt.Sprintf("resource.get(%s, %s, %s)", quote(t.APIVersion), quote(res), name)
	}
	obj := get
	if t.Name != t.Clone.Name {
		target, ok := rc.stringExpr(t.Name, sc, "generate.name", append(at, "name")...)
		if !ok {
			rc.fatal = true
			return
		}
		// The downstream's name differs from the source's: rebuild the
		// object under the new name. uid and resourceVersion stay, so that
		// Kyverno labels the copy with source-uid and tracks it as a clone.
		obj = fmt.Sprintf(`cel.bind(source, %s, {"apiVersion": source.apiVersion, "kind": source.kind, `+
			`"metadata": {"name": %s, "uid": source.metadata.uid, "resourceVersion": source.metadata.resourceVersion, `+
			`?"labels": source.metadata.?labels, ?"annotations": source.metadata.?annotations}, `+
			`?"data": source.?data, ?"stringData": source.?stringData, ?"binaryData": source.?binaryData, ?"type": source.?type, `+
			`?"immutable": source.?immutable, ?"spec": source.?spec, ?"rules": source.?rules, ?"roleRef": source.?roleRef, ?"subjects": source.?subjects})`,
			get, target)
		rc.note("the downstream is named differently from its source: the copy is rebuilt field by field (data, stringData, binaryData, type, immutable, spec, rules, roleRef, subjects, labels, annotations); other top-level fields of the source are not copied", append(at, "name")...)
	}
	rc.gp.generate = append(rc.gp.generate, generation{origin: rc.origin(fieldString(at) + ".clone"), expression: iterate(rc.apply(ns, "["+obj+"]"))})
}

func (rc *ruleConv) cloneList(t policy.Target, at []any, sc *scope, iterate func(string) string) {
	cl := t.CloneList
	cat := append(append([]any{}, at...), "cloneList")
	srcNS, ok := rc.stringExpr(cl.Namespace, sc, "cloneList.namespace", append(cat, "namespace")...)
	if !ok {
		rc.fatal = true
		return
	}
	ns := "''"
	if t.Namespace != "" {
		if ns, ok = rc.stringExpr(t.Namespace, sc, "generate.namespace", append(at, "namespace")...); !ok {
			rc.fatal = true
			return
		}
	}
	for i, k := range cl.Kinds {
		kr, err := resolveKind(k)
		if !rc.ok(err, "cloneList kind", append(cat, "kinds", i)...) {
			rc.fatal = true
			continue
		}
		apiVersion := resource.GVK{Group: kr.group, Version: kr.version}.APIVersion()
		var list string
		var labelArg string
		filter := ""
		if cl.Selector != nil {
			if hasWildcardSelector(cl.Selector) {
				rc.unconverted("wildcards in the cloneList selector", "", append(cat, "selector")...)
			}
			if len(cl.Selector.MatchExpressions) == 0 {
				var parts []string
				for _, lk := range sortedKeys(cl.Selector.MatchLabels) {
					v, ok := rc.stringExpr(cl.Selector.MatchLabels[lk], sc, "cloneList selector", append(cat, "selector", "matchLabels", lk)...)
					if ok && hasVars(cl.Selector.MatchLabels[lk]) {
						v = "string(" + v + ")"
					}
					parts = append(parts, quote(lk)+": "+v)
				}
				labelArg = ", {" + strings.Join(parts, ", ") + "}"
			} else {
				pred, _ := rc.selectorPred("s.metadata", cl.Selector, append(cat, "selector"))
				filter = ".items.filter(s, " + pred + ")"
				list = "dyn(" // the List object is a map(string, any): its items need dyn to be iterated
			}
		}
		call := fmt.Sprintf("resource.List(%s, %s, %s%s)", quote(apiVersion), quote(kr.resource), srcNS, labelArg)
		if rc.p.Kind == policy.KindPolicy {
			call = fmt.Sprintf("resource.List(%s, %s%s)", quote(apiVersion), quote(kr.resource), labelArg)
		}
		if list == "dyn(" {
			call = "dyn(" + call + ")"
		}
		list = call
		arg := "[" + list + "]"
		if filter != "" {
			arg = list + filter
		}
		rc.gp.generate = append(rc.gp.generate, generation{origin: rc.origin(fmt.Sprintf("%s.cloneList.kinds[%d]", fieldString(at), i)),
			expression: iterate(rc.apply(ns, arg))})
	}
}

func (rc *ruleConv) foreach(i int, fe policy.ForEach) {
	at := []any{"generate", "foreach", i}
	sc := rc.sc
	sc.vars = withCurrent(rc.sc.vars, "")
	delete(sc.vars, currentKey)
	sc.element = "element"
	byIndex := usesElementIndex(fe)
	if byIndex {
		sc.elementIndex = "elementIndex"
	}
	list, err := rc.translate(fe.List, &rc.sc) // the list is evaluated outside the loop
	if !rc.ok(err, "foreach list", append(at, "list")...) {
		rc.fatal = true
		return
	}
	// The entry's own context: one cel.bind per entry, inside the loop.
	type bind struct{ name, expr string }
	var binds []bind
	for j, c := range fe.Context {
		m, _ := c.(map[string]any)
		name, _ := m["name"].(string)
		ident := celIdentFix.ReplaceAllString(name, "_")
		if ident == "" || (ident[0] >= '0' && ident[0] <= '9') {
			ident = "v_" + ident
		}
		expr, ok := rc.contextExpr(m, &sc, append(append([]any{}, at...), "context", j))
		if !ok {
			continue
		}
		binds = append(binds, bind{ident, expr})
		sc.vars[name] = ident
	}
	// Its preconditions: a condition inside the loop (they may read the
	// entry's context).
	var conds []string
	if fe.Preconditions != nil {
		saved := rc.inline
		rc.inline = sc
		m, _ := fe.Preconditions.(map[string]any)
		if l, ok := fe.Preconditions.([]any); ok {
			m = map[string]any{"all": l}
		}
		for _, part := range []struct{ key, join string }{{"any", " || "}, {"all", " && "}} {
			if l, ok := m[part.key].([]any); ok && len(l) > 0 {
				if p, ok := rc.conditions(l, append(append([]any{}, at...), "preconditions", part.key), part.join); ok && p != "" {
					conds = append(conds, p)
				}
			}
		}
		rc.inline = saved
	}
	iterate := func(expr string) string {
		if len(conds) > 0 {
			expr = group(celAnd(conds...), precOr) + " ? " + group(expr, precOr) + " : true"
		}
		for k := len(binds) - 1; k >= 0; k-- {
			expr = "cel.bind(" + binds[k].name + ", " + binds[k].expr + ", " + expr + ")"
		}
		if byIndex {
			// elementIndex: iterate over the indexes (CEL's macros give none).
			return "cel.bind(elements, " + list + ", lists.range(size(elements)).all(elementIndex, cel.bind(element, elements[elementIndex], " + expr + ")))"
		}
		return list + ".all(element, " + expr + ")"
	}
	rc.target(fe.Target, at, &sc, iterate)
}

// usesElementIndex reports whether a foreach entry's pattern reads elementIndex.
func usesElementIndex(fe policy.ForEach) bool {
	return strings.Contains(fmt.Sprint(fe.Data, fe.Name, fe.Namespace, fe.Clone, fe.CloneList), "elementIndex")
}

// familyNotes are the behaviour differences between the families that
// depend on this rule's settings (GENERATING-POLICY.md §3.8 against
// SEMANTICS.md §2.5).
func (rc *ruleConv) familyNotes() {
	g := rc.r.Generate
	at := []any{"generate", "synchronize"}
	data := g.Clone == nil && g.CloneList == nil
	v := rc.kyverno
	if data && g.Synchronize && !gpol.ResyncInPlace.In(v) {
		rc.note(fmt.Sprintf("with synchronize, a GeneratingPolicy of Kyverno %s deletes and recreates its downstreams on every policy update and hourly scan "+
			"(new UIDs; GENERATING-POLICY.md §3.7, kyverno#17594; from %s they are updated in place, %s)", v, gpol.ResyncInPlace.Since, gpol.ResyncInPlace.ID), at...)
	}
	if data && g.Synchronize && !gpol.RecreateTracked.In(v) {
		rc.note(fmt.Sprintf("with synchronize, a GeneratingPolicy of Kyverno %s does not recreate a downstream deleted a second time until the next re-sync "+
			"(kyverno#17265; fixed in %s, %s)", v, gpol.RecreateTracked.Since, gpol.RecreateTracked.ID), at...)
	}
	if !data && g.Synchronize && !g.OrphanDownstreamOnPolicyDelete && policy.CleanupClones.In(v) {
		rc.note(fmt.Sprintf("deleting the policy deletes clone downstreams for a ClusterPolicy of Kyverno %s (%s) but keeps them for a GeneratingPolicy "+
			"(clones carry source-uid; RemoveWatchersForPolicy)", v, policy.CleanupClones.ID), at...)
	}
	if !g.Synchronize && gpol.TriggerUpdateInPlace.In(v) {
		rc.note("without synchronize, a GeneratingPolicy still rewrites an existing downstream it manages each time it runs for the trigger (trigger UPDATE, generateExisting); a ClusterPolicy never updates it (GENERATING-POLICY.md §3.4)", at...)
	}
	if g.Synchronize && !gpol.TriggerUpdateInPlace.In(v) {
		rc.note(fmt.Sprintf("with synchronize, a GeneratingPolicy of Kyverno %s deletes and recreates its downstream on every trigger update (new UIDs); "+
			"from %s it is updated in place (%s)", v, gpol.TriggerUpdateInPlace.Since, gpol.TriggerUpdateInPlace.ID), at...)
	}
	for _, f := range append(append([]policy.Filter{}, rc.r.Match.Any...), rc.r.Match.All...) {
		ops := f.Resources.Operations
		if len(ops) == 0 {
			continue
		}
		if g.Synchronize && !containsAny(ops, "UPDATE") {
			rc.note("operations without UPDATE: with synchronize, every UPDATE of the trigger (even a no-op) deletes its downstreams in a GeneratingPolicy (GENERATING-POLICY.md §3.9, kyverno#17452); a ClusterPolicy keeps them", "match")
		}
		if g.Synchronize {
			rc.note("operations listed: a ClusterPolicy does not self-heal downstreams (kyverno#10574), a GeneratingPolicy's watcher does", "match")
		}
		break
	}
	if rc.p.Kind == policy.KindPolicy && g.Synchronize {
		rc.note("for a NamespacedGeneratingPolicy, Kyverno 1.19's watcher cache is keyed by namespace/name but filtered by the policy-name label (the name): deleting the trigger or the policy, a trigger that stops matching and policy-change re-syncs delete or refresh nothing (GENERATING-POLICY.md §3.6 ⚠); reverts and recreates still work", at...)
	}
	if rc.readsOperation {
		rc.note("request.operation is CREATE in a GeneratingPolicy's background evaluations (generateExisting, re-sync) and \"\" in a ClusterPolicy's: an expression such as request.operation || 'BACKGROUND' no longer tells them apart (GENERATING-POLICY.md §3.2)")
	}
	if !g.Synchronize && rc.usesUser {
		return
	}
	if rc.usesUser && (g.Synchronize || rc.gp.existing) {
		rc.unconverted("the rule reads admission information (request.userInfo); background evaluations (generateExisting, re-sync) see an empty user in a GeneratingPolicy",
			"keep the user-dependent part out of background paths, or turn generateExisting off", "generate")
	}
}

func containsAny(l []string, vals ...string) bool {
	for _, v := range vals {
		for _, e := range l {
			if e == v || e == "*" {
				return true
			}
		}
	}
	return false
}
