package migrate

import (
	"encoding/hex"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/digest"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/labels"
	"github.com/genplay/genplay/engine/policy"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// APIVersion is the version of the GeneratingPolicies the converter writes:
// v1, served by Kyverno 1.17 and later (templates need 1.19).
const APIVersion = "policies.kyverno.io/v1"

// kinds resolves kinds to resources and scope with the simulated API
// server's table of built-in kinds.
var kinds = cluster.NewStore(nil)

// ConvertPolicy converts every generate rule of a parsed ClusterPolicy or
// Policy, for the latest Kyverno release. The policy should be one
// policy.Parse accepted.
func ConvertPolicy(p *policy.Policy) (*Policy, []Finding) { return ConvertPolicyFor(p, "") }

// ConvertPolicyFor is ConvertPolicy for Kyverno release kyverno ("" the
// latest): what the release's GeneratingPolicy accepts, and its behaviour
// in the notes.
func ConvertPolicyFor(p *policy.Policy, kyverno string) (*Policy, []Finding) {
	out := &Policy{Key: p.Key(), Pos: p.Source.Pos()}
	var findings []Finding
	pc := &policyConv{p: p, findings: &findings, kyverno: release(kyverno)}
	var generateRules []*policy.Rule
	var kept []any
	rawRules, _ := mapOf(p.Raw, "spec")["rules"].([]any)
	for i := range p.Spec.Rules {
		r := &p.Spec.Rules[i]
		if r.Generate != nil {
			generateRules = append(generateRules, r)
		} else if i < len(rawRules) {
			kept = append(kept, rawRules[i])
			pc.finding(r, Unconverted, "", fmt.Sprintf("rule %s is not a generate rule: it stays in the %s (a GeneratingPolicy only generates)", r.Name, p.Kind),
				"migrate validate rules to a ValidatingPolicy and mutate rules to a MutatingPolicy", ruleTypeField(r))
		}
	}
	if len(generateRules) == 0 {
		pc.policyFinding(Unconverted, "spec.rules", "the policy has no generate rule: nothing to convert", "")
		out.Status = None
		return out, findings
	}
	if p.Spec.ApplyRules == "One" && len(generateRules) > 1 {
		pc.policyFinding(Unconverted, "spec.applyRules",
			"applyRules: One stops at the first generate rule that applies; separate GeneratingPolicies all apply",
			"merge the rules into one GeneratingPolicy whose generate expression chooses: COND1 ? generator.apply(...) : (COND2 ? generator.apply(...) : true)")
	}
	single := len(generateRules) == 1
	var statuses []string
	for _, r := range generateRules {
		rc := &ruleConv{policyConv: pc, r: r, single: single}
		res := rc.convert()
		out.Rules = append(out.Rules, res)
		statuses = append(statuses, res.Status)
	}
	if len(kept) > 0 {
		statuses = append(statuses, Partial)
		k := p.Raw.DeepCopy()
		delete(k, "status")
		spec := mapOf(k, "spec")
		spec["rules"] = kept
		delete(spec, "generateExisting")
		out.Kept = k
		y, err := source.Marshal(map[string]any(k))
		if err == nil {
			out.KeptYAML = fmt.Sprintf("# genplay migrate: the rules of %s that are not generate rules, unchanged\n%s", p.Key(), y)
		}
	}
	if p.Spec.ApplyRules == "One" && len(generateRules) > 1 {
		statuses = append(statuses, Partial)
	}
	out.Status = combine(statuses)
	return out, findings
}

func ruleTypeField(r *policy.Rule) string {
	for _, k := range []string{"validate", "mutate", "verifyImages"} {
		if _, ok := r.Raw[k]; ok {
			return k
		}
	}
	return ""
}

type policyConv struct {
	p        *policy.Policy
	findings *[]Finding
	kyverno  upstream.Version
}

// release reads a release for the converter: the latest when it is empty
// or not one genplay simulates (the adapters check what users write).
func release(kyverno string) upstream.Version {
	v, err := upstream.Parse(kyverno)
	if err != nil {
		return upstream.Latest
	}
	return v
}

func (pc *policyConv) policyFinding(kind, field, msg, recipe string) {
	var path []any
	for _, part := range strings.Split(field, ".") {
		path = append(path, part)
	}
	*pc.findings = append(*pc.findings, Finding{Pos: pc.p.Source.Pos(path...), Policy: pc.p.Key(), Field: field,
		Kind: kind, Message: msg, Recipe: recipe})
}

func (pc *policyConv) finding(r *policy.Rule, kind, field, msg, recipe string, at ...any) {
	path := []any{"spec", "rules", r.Index}
	for _, a := range at {
		if s, ok := a.(string); ok && s == "" {
			continue
		}
		path = append(path, a)
	}
	if field == "" && len(at) > 0 {
		field = fieldString(at)
	}
	*pc.findings = append(*pc.findings, Finding{Pos: pc.p.Source.Pos(path...), Policy: pc.p.Key(), Rule: r.Name,
		Field: field, Kind: kind, Message: msg, Recipe: recipe})
}

// fieldString renders a path of keys and indexes as "a.b[0].c".
func fieldString(path []any) string {
	var b strings.Builder
	for _, p := range path {
		switch x := p.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", x)
		case string:
			if x == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(x)
		}
	}
	return b.String()
}

// ruleConv converts one generate rule.
type ruleConv struct {
	*policyConv
	r      *policy.Rule
	single bool
	broken bool // a piece could not be converted
	fatal  bool // no GeneratingPolicy can be produced

	sc       scope // variables as variables.name
	inline   scope // variables inlined (for matchConditions)
	trigger  string
	gp       gpolOut
	usesUser bool
	// readsOperation: an expression reads request.operation.
	readsOperation bool
	// inExclude is set while an exclude filter is converted.
	inExclude bool
}

// gpolOut is the GeneratingPolicy being built.
type gpolOut struct {
	name, namespace  string
	resourceRules    []resourceRule
	namespaceSel     *labels.Selector
	nsSelOrigin      string
	conditions       []named
	variables        []named
	generate         []generation
	sync, orphan     bool
	existing         bool
	skipBackground   bool
	ssa              bool
	annotations      map[string]any
	labels           map[string]any
	matchOrigin      string
	resourceNameRule bool
}

type resourceRule struct {
	group, version, resource string
	operations               []string
	names                    []string
}

type named struct {
	name, expr, origin string
}

type generation struct {
	origin     string
	expression string
	template   string // YAML text with (( )) placeholders
}

func (rc *ruleConv) unconverted(msg, recipe string, at ...any) {
	rc.broken = true
	rc.finding(rc.r, Unconverted, "", msg, recipe, at...)
}

func (rc *ruleConv) note(msg string, at ...any) {
	rc.finding(rc.r, Note, "", msg, "", at...)
}

// refusal reports a translation error; it returns false when err is set.
func (rc *ruleConv) ok(err error, what string, at ...any) bool {
	if err == nil {
		return true
	}
	u, isU := err.(*unconvertible)
	if !isU {
		u = &unconvertible{reason: err.Error()}
	}
	rc.unconverted(what+": "+u.reason, u.recipe, at...)
	return false
}

func (rc *ruleConv) origin(field string) string {
	return fmt.Sprintf("from rule %s, %s", rc.r.Name, field)
}

func (rc *ruleConv) convert() Rule {
	p, r := rc.p, rc.r
	g := r.Generate
	rc.trigger = "object"
	if rc.generatesOnDelete() {
		rc.trigger = `(request.operation == 'DELETE' ? oldObject : object)`
	}
	rc.sc = scope{vars: map[string]string{}, trigger: rc.trigger}
	rc.inline = scope{vars: map[string]string{}, trigger: rc.trigger}
	rc.gp.name = rc.policyName()
	rc.gp.namespace = p.Namespace
	rc.gp.sync = g.Synchronize
	rc.gp.orphan = g.OrphanDownstreamOnPolicyDelete
	rc.gp.existing = p.GenerateExisting(r)
	rc.gp.skipBackground = r.SkipBackgroundRequests
	rc.gp.ssa = p.Spec.UseServerSideApply
	meta := p.Raw.Metadata()
	if a, ok := meta["annotations"].(map[string]any); ok {
		rc.gp.annotations = a
	}
	if l, ok := meta["labels"].(map[string]any); ok {
		rc.gp.labels = l
	}
	rc.match()
	rc.context()
	rc.preconditions()
	rc.generation()
	rc.familyNotes()
	res := Rule{Rule: r.Name, Status: Full}
	if rc.broken {
		res.Status = Partial
	}
	if rc.fatal {
		res.Status = None
		return res
	}
	res.Name = rc.gp.name
	res.YAML = rc.emit()
	docs, diags := source.Parse("converted", []byte(res.YAML))
	if !diags.HasErrors() && len(docs) == 1 {
		res.Object, _ = docs[0].Object()
	}
	return res
}

// policyName is the policy's name when it has one generate rule, else
// policy-rule, cut to 63 characters with a hash when longer.
func (rc *ruleConv) policyName() string {
	if rc.single {
		return rc.p.Name
	}
	name := strings.ToLower(rc.p.Name + "-" + rc.r.Name)
	name = regexp.MustCompile(`[^a-z0-9.-]+`).ReplaceAllString(name, "-")
	if len(name) > 63 {
		sum := digest.SHA256([]byte(name))
		name = strings.TrimRight(name[:54], "-.") + "-" + hex.EncodeToString(sum[:])[:8]
	}
	return name
}

func (rc *ruleConv) generatesOnDelete() bool {
	for _, f := range append(append([]policy.Filter{}, rc.r.Match.Any...), rc.r.Match.All...) {
		if slices.Contains(f.Resources.Operations, "DELETE") {
			return true
		}
	}
	return false
}

// ---- match and exclude ----------------------------------------------------

// kindRef is one entry of match.resources.kinds, resolved.
type kindRef struct {
	group, version, kind, sub string
	resource                  string
	namespaced                bool
	known                     bool
}

func resolveKind(s string) (kindRef, error) {
	parts := strings.Split(s, "/")
	var k kindRef
	last := parts[len(parts)-1]
	if len(parts) > 1 && last != "" && unicode.IsLower(rune(last[0])) {
		k.sub = last
		parts = parts[:len(parts)-1]
	}
	switch len(parts) {
	case 1:
		k.kind = parts[0]
	case 2:
		k.version, k.kind = parts[0], parts[1]
	case 3:
		k.group, k.version, k.kind = parts[0], parts[1], parts[2]
	default:
		return k, refuse("", "the kind %q is not of the form [group/][version/]Kind[/subresource]", s)
	}
	if strings.ContainsAny(k.kind, "*?") {
		return k, refuse("list the kinds one by one", "the wildcard kind %q has no resourceRules equivalent", s)
	}
	if k.group == "*" {
		k.group = ""
	}
	apiVersion := ""
	if k.version != "" && k.version != "*" {
		apiVersion = resource.GVK{Group: k.group, Version: k.version}.APIVersion()
	}
	info, ok := kinds.KindInfo(apiVersion, k.kind)
	if !ok && apiVersion != "" {
		info, ok = kinds.KindInfo("", k.kind)
		ok = ok && info.Group == k.group
	}
	if ok {
		k.known = true
		k.group, k.resource, k.namespaced = info.Group, info.Resource, info.Namespaced
		if k.version == "" {
			k.version = info.Version
		}
	} else {
		k.resource = pluralGuess(k.kind)
		k.namespaced = true
		if k.version == "" {
			k.version = "*"
		}
	}
	return k, nil
}

func pluralGuess(kind string) string {
	k := strings.ToLower(kind)
	switch {
	case strings.HasSuffix(k, "s"), strings.HasSuffix(k, "x"), strings.HasSuffix(k, "ch"), strings.HasSuffix(k, "sh"):
		return k + "es"
	case strings.HasSuffix(k, "y") && len(k) > 1 && !strings.ContainsRune("aeiou", rune(k[len(k)-2])):
		return k[:len(k)-1] + "ies"
	}
	return k + "s"
}

func (k kindRef) resourceName() string {
	if k.sub != "" {
		return k.resource + "/" + k.sub
	}
	return k.resource
}

var defaultOperations = []string{"CREATE", "UPDATE"}

func (rc *ruleConv) match() {
	r := rc.r
	block, blockName := r.Match.Any, "any"
	if len(block) == 0 {
		block, blockName = r.Match.All, "all"
	}
	if len(block) == 0 {
		rc.unconverted("the rule has no match block", "", "match")
		rc.fatal = true
		return
	}
	at := func(i int, rest ...any) []any {
		if _, legacy := mapOf(r.Raw, "match")["resources"]; legacy && len(r.Match.Any) == 0 && len(r.Match.All) == 1 {
			return append([]any{"match"}, rest...)
		}
		return append([]any{"match", blockName, i}, rest...)
	}
	// resourceRules: the union of the filters' kinds.
	var opsSets [][]string
	for i, f := range block {
		ops := f.Resources.Operations
		if len(ops) == 0 {
			ops = defaultOperations
			for _, k := range f.Resources.Kinds {
				if kr, err := resolveKind(k); err == nil && kr.sub != "" {
					ops = []string{"CREATE", "UPDATE", "CONNECT"}
				}
			}
		}
		opsSets = append(opsSets, ops)
		if len(f.Resources.Kinds) == 0 {
			rc.unconverted("a match filter without kinds has no resourceRules equivalent", "list the kinds", at(i, "resources")...)
		}
		for _, ks := range f.Resources.Kinds {
			kr, err := resolveKind(ks)
			if !rc.ok(err, "match kind", at(i, "resources", "kinds")...) {
				continue
			}
			if !kr.known {
				rc.note(fmt.Sprintf("the kind %q is not one genplay knows: its resource name is guessed as %q; check it against `kubectl api-resources`", ks, kr.resource), at(i, "resources", "kinds")...)
			}
			rc.addResourceRule(kr, ops)
		}
	}
	if len(rc.gp.resourceRules) == 0 {
		rc.fatal = true
		return
	}
	sameOps := true
	for _, o := range opsSets {
		sameOps = sameOps && slices.Equal(o, opsSets[0])
	}
	rc.gp.matchOrigin = rc.origin("match")
	var preds []string
	if len(block) == 1 {
		// One filter: names and the namespace selector fit matchConstraints.
		f := block[0]
		pred := rc.filterPred(f, false, true, func(rest ...any) []any { return at(0, rest...) })
		if pred != "" {
			preds = append(preds, pred)
		}
	} else {
		for i, f := range block {
			pred := rc.filterPred(f, true, false, func(rest ...any) []any { return at(i, rest...) })
			if !sameOps {
				ops := opsSets[i]
				p := fmt.Sprintf("request.operation in %s", celList(ops))
				if pred == "" {
					pred = p
				} else {
					pred = celAnd(p, pred)
				}
			}
			if pred == "" {
				pred = "true"
			}
			preds = append(preds, pred)
		}
	}
	if len(preds) > 0 {
		expr := celOr(preds...)
		if blockName == "all" {
			expr = celAnd(preds...)
		}
		rc.gp.conditions = append(rc.gp.conditions, named{name: "match", expr: expr, origin: rc.origin("match." + blockName)})
	}
	rc.exclude()
}

// matchKinds are the kinds of every match filter, in order.
func (rc *ruleConv) matchKinds() []string {
	var out []string
	for _, f := range append(append([]policy.Filter{}, rc.r.Match.Any...), rc.r.Match.All...) {
		for _, k := range f.Resources.Kinds {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

func (rc *ruleConv) addResourceRule(kr kindRef, ops []string) {
	for i := range rc.gp.resourceRules {
		rr := &rc.gp.resourceRules[i]
		if rr.group == kr.group && rr.version == kr.version && rr.resource == kr.resourceName() {
			for _, o := range ops {
				if !slices.Contains(rr.operations, o) {
					rr.operations = append(rr.operations, o)
				}
			}
			return
		}
	}
	rc.gp.resourceRules = append(rc.gp.resourceRules, resourceRule{group: kr.group, version: kr.version,
		resource: kr.resourceName(), operations: slices.Clone(ops)})
}

func (rc *ruleConv) exclude() {
	r := rc.r
	block, blockName := r.Exclude.Any, "any"
	if len(block) == 0 {
		block, blockName = r.Exclude.All, "all"
	}
	if len(block) == 0 {
		return
	}
	at := func(i int, rest ...any) []any {
		if _, legacy := mapOf(r.Raw, "exclude")["resources"]; legacy && len(r.Exclude.Any) == 0 && len(r.Exclude.All) == 1 {
			return append([]any{"exclude"}, rest...)
		}
		return append([]any{"exclude", blockName, i}, rest...)
	}
	var preds []string
	for i, f := range block {
		if len(f.Resources.Kinds) == 0 {
			f.Resources.Kinds = rc.matchKinds() // an exclude filter without kinds is about the matched kinds
		}
		rc.inExclude = true
		before := len(*rc.findings)
		pred := rc.filterPred(f, len(f.Resources.Kinds) > 0 && !slices.Equal(f.Resources.Kinds, rc.matchKinds()), false, func(rest ...any) []any { return at(i, rest...) })
		rc.inExclude = false
		if unconvertedSince(*rc.findings, before) {
			// Part of this filter cannot be said in CEL: excluding on the
			// rest would exclude too much (everything, for a filter of roles
			// only); the filter is left out, and reported.
			continue
		}
		if pred == "" {
			pred = "true"
		}
		preds = append(preds, pred)
	}
	if len(preds) == 0 {
		return
	}
	expr := celOr(preds...)
	if blockName == "all" {
		expr = celAnd(preds...)
	}
	rc.gp.conditions = append(rc.gp.conditions, named{name: "exclude", expr: celNot(expr),
		origin: rc.origin("exclude." + blockName)})
}

func unconvertedSince(f []Finding, n int) bool {
	for _, x := range f[n:] {
		if x.Kind == Unconverted {
			return true
		}
	}
	return false
}

// filterPred is the CEL condition of one match/exclude filter. withKinds
// adds the kind test (needed when several filters share the resourceRules);
// constraints lets names and the namespace selector go to matchConstraints.
func (rc *ruleConv) filterPred(f policy.Filter, withKinds, constraints bool, at func(rest ...any) []any) string {
	var parts []string
	res := f.Resources
	var krs []kindRef
	for _, ks := range res.Kinds {
		if kr, err := resolveKind(ks); err == nil {
			krs = append(krs, kr)
		}
	}
	allNamespaces := len(krs) > 0
	anyNamespace := false
	for _, k := range krs {
		isNS := k.kind == "Namespace" && k.group == ""
		allNamespaces = allNamespaces && isNS
		anyNamespace = anyNamespace || isNS
	}
	if withKinds && len(krs) > 0 {
		var names []string
		for _, k := range krs {
			if k.sub != "" {
				rc.unconverted("a subresource kind in a filter next to other filters cannot be told apart in a condition", "give it a rule of its own", at("resources", "kinds")...)
				continue
			}
			if !slices.Contains(names, k.kind) {
				names = append(names, k.kind)
			}
		}
		if len(names) > 0 {
			parts = append(parts, "request.kind.kind in "+celList(names))
		}
	}
	names := res.Names
	if res.Name != "" {
		names = append([]string{res.Name}, names...)
	}
	if len(names) > 0 {
		wild := slices.ContainsFunc(names, hasWildcard)
		if constraints && !wild {
			for i := range rc.gp.resourceRules {
				rc.gp.resourceRules[i].names = names
			}
			rc.gp.resourceNameRule = true
		} else if p := stringsPred("request.name", names); p != "" {
			parts = append(parts, p)
		}
	}
	if len(res.Namespaces) > 0 {
		subject := "request.namespace"
		switch {
		case allNamespaces:
			subject = "request.name"
		case anyNamespace:
			subject = `(request.kind.kind == 'Namespace' ? request.name : request.namespace)`
		}
		if p := stringsPred(subject, res.Namespaces); p != "" {
			parts = append(parts, p)
		}
	}
	if res.Annotations != nil {
		parts = append(parts, rc.annotationsPred(res.Annotations))
	}
	if res.Selector != nil {
		if p, ok := rc.selectorPred(rc.trigger+".metadata", res.Selector, at("resources", "selector")); ok && p != "" {
			parts = append(parts, p)
		}
	}
	if res.NamespaceSelector != nil {
		switch {
		case allNamespaces:
			// Kyverno: "namespace selector is not applicable for namespace resource".
			parts = append(parts, "false")
			rc.note("a namespaceSelector never matches a Namespace in Kyverno's legacy match; the condition is false", at("resources", "namespaceSelector")...)
		case constraints && !anyNamespace && rc.gp.namespaceSel == nil && !hasWildcardSelector(res.NamespaceSelector):
			rc.gp.namespaceSel = res.NamespaceSelector
			rc.gp.nsSelOrigin = rc.origin("match.resources.namespaceSelector")
		default:
			rc.unconverted("this namespaceSelector cannot be expressed: matchConstraints has one namespaceSelector for all resource rules, and a Namespace is matched by its own labels there",
				"split the rule so that each GeneratingPolicy has one namespaceSelector", at("resources", "namespaceSelector")...)
		}
	}
	if len(f.Subjects) > 0 {
		var subs []string
		for _, s := range f.Subjects {
			switch s.Kind {
			case "ServiceAccount":
				subs = append(subs, fmt.Sprintf("request.userInfo.username == %s", quote("system:serviceaccount:"+s.Namespace+":"+s.Name)))
			case "User":
				subs = append(subs, fmt.Sprintf("request.userInfo.username == %s", quote(s.Name)))
			case "Group":
				subs = append(subs, fmt.Sprintf("%s in request.userInfo.groups", quote(s.Name)))
			}
		}
		// Kyverno ignores userInfo when there is no admission information
		// (background): the synthetic background request has no user.
		if rc.inExclude {
			// Without a user (background) the subjects do not exclude.
			parts = append(parts, celAnd("request.userInfo.username != ''", celOr(subs...)))
		} else {
			parts = append(parts, celOr(append([]string{"request.userInfo.username == ''"}, subs...)...))
		}
		rc.usesUser = true
		rc.note("userInfo is matched against request.userInfo; like Kyverno's legacy match, it is not checked in background evaluations, which have no user", at("subjects")...)
	}
	if len(f.Roles) > 0 || len(f.ClusterRoles) > 0 {
		what := "match"
		if rc.inExclude {
			what = "exclude (the filter is left out)"
		}
		rc.unconverted(what+" on roles/clusterRoles (computed by Kyverno from RBAC bindings) has no CEL equivalent",
			"match on the user's groups instead: \"GROUP\" in request.userInfo.groups", at()...)
	}
	return celAnd(parts...)
}

func hasWildcard(s string) bool { return strings.ContainsAny(s, "*?") }

func hasWildcardSelector(s *labels.Selector) bool {
	for k, v := range s.MatchLabels {
		if hasWildcard(k) || hasWildcard(v) {
			return true
		}
	}
	return false
}

// wildcardRegex turns a Kyverno wildcard into an anchored regular expression.
func wildcardRegex(w string) string {
	var b strings.Builder
	b.WriteByte('^')
	for _, r := range w {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteByte('.')
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteByte('$')
	return b.String()
}

// stringsPred: subject equals one of the values (Kyverno wildcards allowed).
func stringsPred(subject string, values []string) string {
	var exact, wild []string
	for _, v := range values {
		if strings.Trim(v, "*") == "" {
			return "" // * matches everything
		}
		if v == "?*" {
			wild = append(wild, v)
			continue
		}
		if hasWildcard(v) {
			wild = append(wild, v)
		} else {
			exact = append(exact, v)
		}
	}
	var ors []string
	if len(exact) == 1 {
		ors = append(ors, subject+" == "+quote(exact[0]))
	} else if len(exact) > 1 {
		ors = append(ors, subject+" in "+celList(exact))
	}
	for _, w := range wild {
		if w == "?*" {
			ors = append(ors, subject+" != ''")
			continue
		}
		ors = append(ors, subject+".matches("+quote(wildcardRegex(w))+")")
	}
	if len(ors) == 1 {
		return ors[0]
	}
	return celOr(ors...)
}

func (rc *ruleConv) annotationsPred(ann map[string]string) string {
	keys := sortedKeys(ann)
	var parts []string
	base := rc.trigger + ".metadata.?annotations"
	for _, k := range keys {
		v := ann[k]
		val := func(x string) string {
			if hasWildcard(v) {
				return x + ".matches(" + quote(wildcardRegex(v)) + ")"
			}
			return x + " == " + quote(v)
		}
		if hasWildcard(k) {
			parts = append(parts, fmt.Sprintf("%s.orValue({}).exists(k, k.matches(%s) && %s)", base, quote(wildcardRegex(k)),
				val(rc.trigger+".metadata.annotations[k]")))
			continue
		}
		parts = append(parts, fmt.Sprintf("(%s[?%s].hasValue() && %s)", base, quote(k), val(selectField(rc.trigger+".metadata.annotations", k, false))))
	}
	return celAnd(parts...)
}

// selectorPred renders a label selector over meta's labels, with
// Kubernetes' semantics (and Kyverno's for wildcard-free selectors).
func (rc *ruleConv) selectorPred(meta string, s *labels.Selector, at []any) (string, bool) {
	if hasWildcardSelector(s) {
		rc.unconverted("wildcards in a selector's matchLabels (Kyverno expands them against the object's labels) have no label-selector equivalent",
			"write the condition by hand: "+meta+".?labels.orValue({}).exists(k, k.matches(REGEX))", at...)
		return "", false
	}
	var parts []string
	opt := func(k string) string { return meta + ".?labels[?" + quote(k) + "]" }
	val := func(k string) string { return selectField(meta+".labels", k, false) }
	for _, k := range sortedKeys(s.MatchLabels) {
		parts = append(parts, fmt.Sprintf("(%s.hasValue() && %s == %s)", opt(k), val(k), quote(s.MatchLabels[k])))
	}
	for _, e := range s.MatchExpressions {
		switch e.Operator {
		case "In":
			parts = append(parts, fmt.Sprintf("(%s.hasValue() && %s in %s)", opt(e.Key), val(e.Key), celList(e.Values)))
		case "NotIn":
			parts = append(parts, fmt.Sprintf("!(%s.hasValue() && %s in %s)", opt(e.Key), val(e.Key), celList(e.Values)))
		case "Exists":
			parts = append(parts, opt(e.Key)+".hasValue()")
		case "DoesNotExist":
			parts = append(parts, "!"+opt(e.Key)+".hasValue()")
		default:
			rc.unconverted(fmt.Sprintf("the selector operator %q is not a label selector operator", e.Operator), "", at...)
		}
	}
	return celAnd(parts...), true
}

func celList(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = quote(v)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func mapOf(m map[string]any, k string) map[string]any {
	v, _ := m[k].(map[string]any)
	return v
}
