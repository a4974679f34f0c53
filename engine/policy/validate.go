package policy

import (
	"encoding/json"
	"fmt"
	"github.com/genplay/genplay/engine/internal/schema"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kyverno/go-jmespath"

	"github.com/genplay/genplay/engine/internal/nesting"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/internal/wildcard"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/variables"
)

// KindResolver tells the scope of a kind. apiVersion may be empty when a
// policy names a kind without its version; known is false for kinds the
// cluster does not serve.
type KindResolver interface {
	Namespaced(apiVersion, kind string) (namespaced, known bool)
}

// userVariables are the admission-only variables rejected in background mode.
var userVariables = []*regexp.Regexp{
	regexp.MustCompile(`[^\.](serviceAccountName)\b`),
	regexp.MustCompile(`[^\.](serviceAccountNamespace)\b`),
	regexp.MustCompile(`[^\.](request.userInfo)\b`),
	regexp.MustCompile(`[^\.](request.roles)\b`),
	regexp.MustCompile(`[^\.](request.clusterRoles)\b`),
}

// userVariableWords are words each of userVariables needs, in order: a
// cheap test before the regexp, which is slow over a long expression.
var userVariableWords = []string{"serviceAccountName", "serviceAccountNamespace", "userInfo", "roles", "clusterRoles"}

// anchorKey matches the keys of Kyverno's pattern anchors: (k), +(k), =(k), X(k), <(k), ^(k).
var anchorKey = regexp.MustCompile(`^([+<=X^])?\((.+)\)$`)

// backgroundHint precedes background-mode errors, as in Kyverno.
const backgroundHint = "only select variables are allowed in background mode. Set spec.background=false to disable background mode for this policy rule: "

// ValidateAt runs the checks of Kyverno's policy webhook that matter for
// generate rules, plus the generic rule checks they depend on, as Kyverno
// release kyverno does them. kinds may be nil: scope checks are then
// skipped. changes name the changes between releases whose checks refused
// something.
func ValidateAt(p *Policy, kinds KindResolver, kyverno upstream.Version) (diags source.Diagnostics, changes []string) {
	v := &validator{p: p, kinds: kinds, kyverno: kyverno, d: &schema.Diags{Doc: p.Source, File: p.File}}
	v.validate()
	return v.d.Result(), v.changes
}

type validator struct {
	p       *Policy
	kinds   KindResolver
	kyverno upstream.Version
	d       *schema.Diags
	changes []string
}

// refusedBy records that a change's check refused the policy.
func (v *validator) refusedBy(c *upstream.Change) {
	if !slices.Contains(v.changes, c.ID) {
		v.changes = append(v.changes, c.ID)
	}
}

// globalReferenceName: Kyverno v1.19.0 refuses a globalReference context
// entry without a name at admission; v1.18.2 admitted it, and the rule
// failed when it ran.
var globalReferenceName = upstream.Register(upstream.Change{
	ID: "kyverno#16003", Since: upstream.V1_19_0, Family: upstream.FamilyLegacy,
	Title:  "a globalReference context entry needs a name",
	Before: "admit a globalReference context entry without a name (the rule fails when it runs)",
	After:  "refuse it at admission: \"a name is required for globalReference context entry\"",
	Files:  []string{"pkg/validation/policy/validate.go"},
})

// confineGlobalReference: Kyverno v1.19.1 refuses a globalReference
// context entry in a namespaced Policy (GHSA-59v6-2x73-wfg4).
var confineGlobalReference = upstream.Register(upstream.Change{
	ID: "kyverno#17455", Since: upstream.V1_19_1, Family: upstream.FamilyLegacy,
	Title:  "namespaced policies cannot read the global context",
	Before: "admit a globalReference context entry in a namespaced Policy",
	After:  "refuse it at admission: \"globalReference is not allowed in namespaced policies\"",
	Files:  []string{"pkg/validation/policy/validate.go", "pkg/engine/context/loaders/globalcontext.go"},
})

// scope resolves a kind; known is false for unknown kinds, kinds with
// variables, or without a resolver.
func (v *validator) scope(apiVersion, kind string) (namespaced, known bool) {
	if v.kinds == nil || kind == "" || hasVariable(apiVersion) || hasVariable(kind) {
		return false, false
	}
	return v.kinds.Namespaced(apiVersion, kind)
}

// scopeOfKindSelector resolves "Kind", "v1/Kind" or "group/v1/Kind"
// (a "Kind/subresource" suffix is not a scope of its own and stays unknown).
func (v *validator) scopeOfKindSelector(sel string) (namespaced, known bool) {
	parts := strings.Split(sel, "/")
	switch len(parts) {
	case 1:
		return v.scope("", parts[0])
	case 2:
		return v.scope(parts[0], parts[1])
	case 3:
		return v.scope(parts[0]+"/"+parts[1], parts[2])
	}
	return false, false
}

func (v *validator) namespaced() bool { return v.p.Kind == KindPolicy }

func (v *validator) validate() {
	p, d := v.p, v.d
	spec, _ := p.Raw["spec"].(map[string]any)
	specPath := schema.Path{"spec"}
	if _, ok := spec["generateExistingOnPolicyUpdate"]; ok {
		fp := specPath.Key("generateExistingOnPolicyUpdate")
		d.Errorf(fp, "%s: Forbidden: remove the deprecated field and use spec.generate[*].generateExisting instead", fp)
	}
	if t, ok := spec["webhookTimeoutSeconds"].(float64); ok && (t < 1 || t > 30) {
		fp := specPath.Key("webhookTimeoutSeconds")
		d.Errorf(fp, "%s: Invalid value: %v: the timeout value must be between 1 and 30 seconds", fp, t)
	}
	if v.namespaced() && len(schema.ListOf(spec, "validationFailureActionOverrides")) > 0 {
		fp := specPath.Key("validationFailureActionOverrides")
		d.Errorf(fp, "%s: Forbidden: Use of validationFailureActionOverrides is supported only with ClusterPolicy", fp)
	}
	if !p.Spec.Admission {
		fp := specPath.Key("admission")
		if !p.Spec.Background {
			d.Errorf(fp, "disabling both admission and background processing is not allowed")
		} else if slices.ContainsFunc(p.Spec.Rules, func(r Rule) bool {
			return r.Generate != nil || r.Raw["mutate"] != nil || r.Raw["verifyImages"] != nil
		}) {
			d.Errorf(fp, "disabling admission processing is only allowed with validation policies")
		}
	}
	v.ruleNames()
	if p.Spec.Background {
		v.backgroundVariables()
	}
	v.invalidVariables()
	for i := range p.Spec.Rules {
		v.rule(&p.Spec.Rules[i])
	}
}

func rulePath(i int) schema.Path { return schema.Path{"spec", "rules", i} }

func (v *validator) ruleNames() {
	seen := map[string]bool{}
	for i, r := range v.p.Spec.Rules {
		if seen[r.Name] {
			fp := rulePath(i).Key("name")
			v.d.Errorf(fp, "%s: Invalid value: %q: Duplicate rule name: '%s'", fp, r.Name, r.Name)
		}
		seen[r.Name] = true
	}
}

// backgroundVariables rejects userInfo filters and admission-only variables
// in background mode.
func (v *validator) backgroundVariables() {
	mutateExisting := false
	for i, r := range v.p.Spec.Rules {
		if m, ok := r.Raw["mutate"].(map[string]any); ok && len(schema.ListOf(m, "targets")) > 0 {
			mutateExisting = true
		}
		for _, blk := range []string{"match", "exclude"} {
			if fp := userInfoPath(rulePath(i).Key(blk), schema.AsMap(r.Raw[blk])); fp != nil {
				v.d.Errorf(fp, "%sinvalid variable used at path: %s", backgroundHint, strings.ReplaceAll(fp.String(), ".", "/"))
			}
		}
	}
	if mutateExisting {
		return
	}
	reported := map[string]bool{}
	walkStrings(map[string]any(v.p.Raw), nil, func(fp schema.Path, s string) {
		if len(fp) > 0 && (fp[0] == "status" || (len(fp) > 2 && fp[0] == "metadata" && fp[1] == "annotations" &&
			fp[2] == "kubectl.kubernetes.io/last-applied-configuration")) {
			return
		}
		for start, end := range variables.Spans(s) {
			m := s[start:end]
			for i, re := range userVariables {
				if strings.Contains(m, userVariableWords[i]) && re.MatchString(m) && !reported[m] {
					reported[m] = true
					v.d.Errorf(fp, "%svariable %s is not allowed", backgroundHint, m)
				}
			}
		}
	})
}

// The variables Kyverno's policy validation allows besides the rule's
// context entries (allowedVariablesBackground, and ReservedKeys without
// background processing, in pkg/validation/policy): matched anywhere in the
// variable's expression.
var (
	allowedBackground = regexp.MustCompile(`request\.|element|elementIndex|@|images|images\.|image\.|([a-z_0-9]+\()[^{}]`)
	allowedAdmission  = regexp.MustCompile(`request|serviceAccountName|serviceAccountNamespace|element|elementIndex|@|images|image|([a-z_0-9]+\()[^{}]`)
)

// invalidVariables rejects variables a generate rule cannot resolve, as
// Kyverno's hasInvalidVariables does by substituting the rule against a
// mock context: each variable, innermost first, must match the allowed
// pattern or one of the rule's context entries (name*, or for a configMap
// name.data and name.metadata and what is under them).
func (v *validator) invalidVariables() {
	allowed := allowedBackground
	if !v.p.Spec.Background {
		allowed = allowedAdmission
	}
	for i, r := range v.p.Spec.Rules {
		if r.Generate == nil {
			continue
		}
		entries := append([]any{}, r.Context...)
		for _, fe := range r.Generate.ForEach {
			entries = append(entries, fe.Context...)
		}
		var patterns []string
		for _, raw := range entries {
			e := schema.AsMap(raw)
			name := schema.StringOr(e, "name", "")
			switch {
			case e["apiCall"] != nil || e["globalReference"] != nil || e["imageRegistry"] != nil || e["variable"] != nil:
				patterns = append(patterns, name+"*")
			case e["configMap"] != nil:
				patterns = append(patterns, name+".data", name+".metadata", name+".data.*", name+".metadata.*")
			}
		}
		reported := false
		walkStrings(r.Raw, rulePath(i), func(fp schema.Path, s string) {
			if reported || !strings.Contains(s, "{{") || len(fp) > 3 && (fp[3] == "match" || fp[3] == "exclude") {
				return
			}
			if q := invalidVariable(s, allowed, patterns); q != "" {
				reported = true
				v.d.Errorf(fp, "policy contains invalid variables: variable substitution failed for rule %s: variable %s must match regex \"%s\" or patterns %v",
					r.Name, q, allowed, patterns)
			}
		})
	}
}

// invalidVariable returns the first variable of s, innermost first, that
// neither allowed nor any pattern matches, or "".
func invalidVariable(s string, allowed *regexp.Regexp, patterns []string) string {
	for range 32 { // nesting is bounded; each round removes the innermost variables
		var b strings.Builder
		last, found := 0, false
		for start, end := range variables.Spans(s) {
			found = true
			q := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s[start+2:end-2]), "-"))
			// Kyverno's mock context drops double quotes first ({{ "my-map.data".key }}).
			q = strings.ReplaceAll(q, `"`, "")
			b.WriteString(s[last:start])
			last = end
			if !parses(q) {
				// Kyverno refuses the policy ("invalid JMESPath query");
				// genplay fails the rule where it runs (engine/doc.go).
				b.WriteString(s[start:end])
				continue
			}
			if !allowed.MatchString(q) && !slices.ContainsFunc(patterns, func(p string) bool { return wildcard.Match(p, q) }) {
				return q
			}
			b.WriteString("null")
		}
		if !found {
			return ""
		}
		b.WriteString(s[last:])
		s = b.String()
	}
	return ""
}

// parses reports whether q is a JMESPath expression within the engine's
// nesting bounds, counting brackets inside literals too.
func parses(q string) (ok bool) {
	depth, deepest := 0, 0
	for _, c := range q {
		switch c {
		case '(', '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ')', ']', '}':
			depth--
		}
	}
	if deepest > nesting.Max || nesting.Check(q) != nil {
		return false
	}
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	_, err := jmespath.NewParser().Parse(q)
	return err == nil
}

// userInfoPath returns the first userInfo filter (roles, clusterRoles,
// subjects) of a match or exclude block, in Kyverno's order.
func userInfoPath(base schema.Path, m map[string]any) schema.Path {
	defined := func(f map[string]any) string {
		for _, k := range []string{"roles", "clusterRoles", "subjects"} {
			if len(schema.ListOf(f, k)) > 0 {
				return k
			}
		}
		return ""
	}
	if k := defined(m); k != "" {
		return base.Key(k)
	}
	for _, blk := range []string{"any", "all"} {
		for j, f := range schema.ListOf(m, blk) {
			if k := defined(schema.AsMap(f)); k != "" {
				return base.Key(blk).Index(j).Key(k)
			}
		}
	}
	return nil
}

// walkStrings calls fn for every map key and string value under v.
func walkStrings(v any, fp schema.Path, fn func(schema.Path, string)) {
	switch t := v.(type) {
	case map[string]any:
		for _, k := range resource.SortedKeys(t) {
			kp := fp.Key(k) // a fresh slice nobody appends to in place: shared by both calls
			fn(kp, k)
			walkStrings(t[k], kp, fn)
		}
	case []any:
		for i, e := range t {
			walkStrings(e, fp.Index(i), fn)
		}
	case string:
		fn(fp, t)
	}
}

func hasVariable(s string) bool { return variables.HasVariables(s) }

// firstVariable returns the path of the first string with a variable under v.
func firstVariable(v any, base schema.Path) schema.Path {
	var found schema.Path
	walkStrings(v, base, func(fp schema.Path, s string) {
		if found == nil && hasVariable(s) {
			found = fp
		}
	})
	return found
}

func (v *validator) rule(r *Rule) {
	d, rp := v.d, rulePath(r.Index)
	ops := 0
	for _, k := range []string{"mutate", "validate", "generate", "verifyImages"} {
		if r.Raw[k] != nil {
			ops++
		}
	}
	switch {
	case ops == 0:
		d.Errorf(rp, "%s: Invalid value: %q: No operation defined in the rule '%s'.(supported operations: mutate,validate,generate,verifyImages)", rp, r.Name, r.Name)
	case ops > 1:
		d.Errorf(rp, "%s: Invalid value: %q: Multiple operations defined in the rule '%s', only one operation (mutate,validate,generate,verifyImages) is allowed per rule", rp, r.Name, r.Name)
	}
	for _, blk := range []string{"exclude", "match"} {
		if fp := firstVariable(r.Raw[blk], rp.Key(blk)); fp != nil {
			d.Errorf(fp, "policy contains invalid variables: rule %q should not have variables in %s section", r.Name, blk)
		}
	}
	v.matchBlock(r, "match")
	v.matchBlock(r, "exclude")
	v.context(rp.Key("context"), r.Context)
	if r.Generate != nil {
		v.generate(r)
	}
}

// matchBlock checks one match or exclude block of a rule.
func (v *validator) matchBlock(r *Rule, blk string) {
	d, bp := v.d, rulePath(r.Index).Key(blk)
	m := schema.AsMap(r.Raw[blk])
	if m == nil {
		return
	}
	anyF, allF := schema.ListOf(m, "any"), schema.ListOf(m, "all")
	if len(anyF) > 0 && len(allF) > 0 {
		d.Errorf(bp, "%s: Invalid value: Can't specify any and all together", bp)
	}
	if (len(anyF) > 0 || len(allF) > 0) && m["resources"] != nil {
		d.Errorf(bp.Key("resources"), "path: %s.: can't specify any/all together with %s resources", bp, blk)
	}
	type filter struct {
		path schema.Path
		m    map[string]any
	}
	var filters []filter
	for _, sub := range []string{"any", "all"} {
		for j, f := range schema.ListOf(m, sub) {
			filters = append(filters, filter{bp.Key(sub).Index(j), schema.AsMap(f)})
		}
	}
	if hasLegacyMatch(m) {
		filters = append(filters, filter{bp, m})
	}
	for _, f := range filters {
		res := schema.AsMap(f.m["resources"])
		rdp := f.path.Key("resources")
		if res["name"] != nil && schema.StringOr(res, "name", "") != "" && len(schema.ListOf(res, "names")) > 0 {
			d.Errorf(rdp, "%s: Invalid value: Both name and names can not be specified together", f.path)
		}
		if sel, ok := res["selector"].(map[string]any); ok && !selectorHasWildcard(sel) &&
			len(schema.AsMap(sel["matchLabels"])) == 0 && len(schema.ListOf(sel, "matchExpressions")) == 0 {
			fp := f.path.Key("selector")
			d.Errorf(rdp.Key("selector"), "%s: Invalid value: The requirements are not specified in selector", fp)
		}
		if sel, ok := res["selector"].(map[string]any); ok && !selectorHasWildcard(sel) {
			if msg := selectorError(sel); msg != "" {
				d.Errorf(rdp.Key("selector"), "%s: Invalid value: %s: %s", f.path.Key("selector"), selectorJSON(sel), msg)
			}
		}
		kinds := schema.StringsOf(res, "kinds")
		if v.namespaced() {
			if len(schema.ListOf(res, "namespaces")) > 0 {
				fp := f.path.Key("namespaces")
				d.Errorf(rdp.Key("namespaces"), "%s: Forbidden: Filtering namespaces not allowed in namespaced policies", fp)
			}
			for k, kind := range kinds {
				if ns, known := v.scopeOfKindSelector(kind); known && !ns {
					fp := f.path.Key("kinds").Index(k)
					d.Errorf(rdp.Key("kinds").Index(k), "%s: Forbidden: Cluster wide resource '%s' not allowed in namespaced policy", fp, kind)
				}
			}
		}
		v.wildcardKinds(r, rdp.Key("kinds"), f.path.Key("kinds"), kinds)
	}
	if blk == "match" && r.Generate != nil {
		// Kyverno checks any, else all, else the legacy filter.
		var group []filter
		for _, f := range filters {
			if len(anyF) > 0 && f.path[len(f.path)-2] == "any" ||
				len(anyF) == 0 && len(allF) > 0 && f.path[len(f.path)-2] == "all" {
				group = append(group, f)
			}
		}
		if len(anyF) == 0 && len(allF) == 0 {
			group = []filter{{bp, m}}
		}
		for _, f := range group {
			if len(schema.StringsOf(schema.AsMap(f.m["resources"]), "kinds")) == 0 {
				d.Errorf(f.path, "at least one element must be specified in a kind block, the kind attribute is mandatory when working with the resources element")
			}
		}
	}
}

// wildcardKinds applies Kyverno's rules for kinds: ["*"].
func (v *validator) wildcardKinds(r *Rule, at, shown schema.Path, kinds []string) {
	if !slices.Contains(kinds, "*") {
		return
	}
	switch {
	case v.p.Spec.Background:
		v.d.Errorf(at, "path: %s: wildcard policy not allowed in background mode. Set spec.background=false to disable background mode for this policy rule", shown)
	case len(kinds) > 1:
		v.d.Errorf(at, "path: %s: wildcard policy can not deal with more than one kind", shown)
	case r.Generate != nil || r.Raw["verifyImages"] != nil:
		v.d.Errorf(at, "path: %s: wildcard policy does not support rule type", shown)
	}
}

// selectorError is the error metav1.LabelSelectorAsSelector returns for a
// selector's expressions (labels.NewRequirement's field errors), or "".
func selectorError(sel map[string]any) string {
	for _, raw := range schema.ListOf(sel, "matchExpressions") {
		e := schema.AsMap(raw)
		op := schema.StringOr(e, "operator", "")
		values := schema.StringsOf(e, "values")
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				return "values: Invalid value: " + jsonOf(values) + ": for 'in', 'notin' operators, values set can't be empty"
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				return "values: Invalid value: " + jsonOf(values) + ": values set must be empty for exists and does not exist"
			}
		default:
			return strconv.Quote(op) + " is not a valid label selector operator"
		}
	}
	return ""
}

// selectorJSON is the selector as Go encodes a metav1.LabelSelector:
// matchLabels then matchExpressions, empty fields left out.
func selectorJSON(sel map[string]any) string {
	var b strings.Builder
	b.WriteByte('{')
	if ml := schema.AsMap(sel["matchLabels"]); len(ml) > 0 {
		b.WriteString(`"matchLabels":` + jsonOf(ml))
	}
	if exprs := schema.ListOf(sel, "matchExpressions"); len(exprs) > 0 {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.WriteString(`"matchExpressions":[`)
		for i, raw := range exprs {
			e := schema.AsMap(raw)
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`{"key":` + jsonOf(schema.StringOr(e, "key", "")) + `,"operator":` + jsonOf(schema.StringOr(e, "operator", "")))
			if v := schema.StringsOf(e, "values"); len(v) > 0 {
				b.WriteString(`,"values":` + jsonOf(v))
			}
			b.WriteByte('}')
		}
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

func jsonOf(v any) string {
	if s, ok := v.([]string); ok && s == nil {
		v = []string{}
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func selectorHasWildcard(sel map[string]any) bool {
	found := false
	walkStrings(sel, nil, func(_ schema.Path, s string) {
		if strings.ContainsAny(s, "*?") {
			found = true
		}
	})
	return found
}

// predefinedVariables may not be redefined by context entries.
var predefinedVariables = []string{"images", "request", "serviceAccountName", "serviceAccountNamespace", "element", "elementIndex"}

// context checks context entries as Kyverno's validateRuleContext does.
func (v *validator) context(cp schema.Path, entries []any) {
	for i, e := range entries {
		m := schema.AsMap(e)
		ep := cp.Index(i)
		fail := func(at schema.Path, format string, args ...any) {
			v.d.Errorf(at, "path: %s: %s", ep, fmt.Sprintf(format, args...))
		}
		name := schema.StringOr(m, "name", "")
		if name == "" {
			fail(ep, "a name is required for context entries")
			continue
		}
		for _, pre := range predefinedVariables {
			if name == pre || strings.HasPrefix(name, pre+".") {
				fail(ep.Key("name"), "entry name %s is invalid as it conflicts with a pre-defined variable %s", name, pre)
			}
		}
		var kinds []string
		for _, k := range []string{"configMap", "apiCall", "globalReference", "imageRegistry", "variable"} {
			if m[k] != nil {
				kinds = append(kinds, k)
			}
		}
		if len(kinds) != 1 {
			fail(ep, "exactly one of configMap or apiCall or imageRegistry or variable is required for context entries")
			continue
		}
		kp := ep.Key(kinds[0])
		body := schema.AsMap(m[kinds[0]])
		switch kinds[0] {
		case "configMap":
			if schema.StringOr(body, "name", "") == "" {
				fail(kp, "a name is required for configMap context entry")
			} else if schema.StringOr(body, "namespace", "") == "" {
				fail(kp, "a namespace is required for configMap context entry")
			}
		case "apiCall":
			if schema.StringOr(body, "urlPath", "") != "" && body["service"] != nil {
				fail(kp.Key("urlPath"), "a URLPath cannot be used for service API calls")
			}
			v.jmesPath(kp.Key("jmesPath"), ep, body)
		case "globalReference":
			if v.namespaced() && confineGlobalReference.In(v.kyverno) {
				fail(kp, "globalReference is not allowed in namespaced policies")
				v.refusedBy(confineGlobalReference)
				continue
			}
			if schema.StringOr(body, "name", "") == "" && globalReferenceName.In(v.kyverno) {
				fail(kp, "a name is required for globalReference context entry")
				v.refusedBy(globalReferenceName)
			}
			v.jmesPath(kp.Key("jmesPath"), ep, body)
		case "imageRegistry":
			if schema.StringOr(body, "reference", "") == "" {
				fail(kp, "a ref is required for imageRegistry context entry")
			}
			v.jmesPath(kp.Key("jmesPath"), ep, body)
		case "variable":
			v.jmesPath(kp.Key("jmesPath"), ep, body)
			jp := schema.StringOr(body, "jmesPath", "")
			if body["value"] == nil && jp == "" {
				fail(kp, "a variable must define a value or a jmesPath expression")
			}
			if body["default"] != nil && jp == "" {
				fail(kp.Key("default"), "a variable must define a default value only when a jmesPath expression is defined")
			}
		}
	}
}

// jmesPath checks that a jmesPath without variables parses.
func (v *validator) jmesPath(at, entry schema.Path, body map[string]any) {
	expr := schema.StringOr(body, "jmesPath", "")
	if expr == "" || strings.Contains(expr, "{{") {
		return
	}
	if err := parseJMESPath(expr); err != nil {
		v.d.Errorf(at, "path: %s: failed to parse JMESPath %s: %v", entry, expr, err)
	}
}

// parseJMESPath parses an expression, turning a parser panic into an error.
func parseJMESPath(expr string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if err := nesting.Check(expr); err != nil {
		return err
	}
	_, err = jmespath.NewParser().Parse(expr)
	return err
}
