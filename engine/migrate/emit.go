package migrate

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/gpol"
	"github.com/genplay/genplay/engine/policy"
)

// emit writes the GeneratingPolicy as YAML, with a comment naming the
// origin of each piece. Keys are written in a fixed order, so the same
// input gives the same bytes.
func (rc *ruleConv) emit() string {
	var b strings.Builder
	g := &rc.gp
	p, r := rc.p, rc.r
	kind := gpol.KindGeneratingPolicy
	if p.Kind == policy.KindPolicy {
		kind = gpol.KindNamespacedGeneratingPolicy
	}
	fmt.Fprintf(&b, "# genplay migrate: %s, rule %s", p.Key(), r.Name)
	if pos := p.Source.Pos("spec", "rules", r.Index); pos.Line > 0 {
		fmt.Fprintf(&b, " (%s)", pos)
	}
	b.WriteString("\n")
	fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n", APIVersion, kind, yq(g.name))
	if g.namespace != "" {
		fmt.Fprintf(&b, "  namespace: %s\n", yq(g.namespace))
	}
	writeMap(&b, "  ", "labels", g.labels)
	writeMap(&b, "  ", "annotations", g.annotations)
	b.WriteString("spec:\n")
	fmt.Fprintf(&b, "  # %s\n  matchConstraints:\n    resourceRules:\n", g.matchOrigin)
	for _, rr := range g.resourceRules {
		fmt.Fprintf(&b, "    - apiGroups: [%s]\n      apiVersions: [%s]\n      resources: [%s]\n      operations: [%s]\n",
			yq(rr.group), yq(rr.version), yq(rr.resource), yqList(rr.operations))
		if len(rr.names) > 0 {
			fmt.Fprintf(&b, "      resourceNames: [%s]\n", yqList(rr.names))
		}
	}
	if g.namespaceSel != nil {
		fmt.Fprintf(&b, "    # %s\n    namespaceSelector:\n", g.nsSelOrigin)
		writeSelector(&b, "      ", g.namespaceSel)
	}
	if len(g.conditions) > 0 {
		b.WriteString("  matchConditions:\n")
		for _, c := range g.conditions {
			fmt.Fprintf(&b, "    # %s\n    - name: %s\n      expression: %s\n", c.origin, yq(c.name), yexpr(c.expr, "        "))
		}
	}
	if len(g.variables) > 0 {
		b.WriteString("  variables:\n")
		for _, v := range g.variables {
			fmt.Fprintf(&b, "    # %s\n    - name: %s\n      expression: %s\n", v.origin, yq(v.name), yexpr(v.expr, "        "))
		}
	}
	fmt.Fprintf(&b, "  # from rule %s, generate.synchronize, orphanDownstreamOnPolicyDelete, generateExisting", r.Name)
	if !r.SkipBackgroundRequests {
		b.WriteString(", skipBackgroundRequests")
	}
	b.WriteString("\n  evaluation:\n")
	fmt.Fprintf(&b, "    synchronize:\n      enabled: %t\n", g.sync)
	fmt.Fprintf(&b, "    orphanDownstreamOnPolicyDelete:\n      enabled: %t\n", g.orphan)
	fmt.Fprintf(&b, "    generateExisting:\n      enabled: %t\n", g.existing)
	if !g.skipBackground {
		b.WriteString("    skipBackgroundRequests: false\n")
	}
	if g.ssa {
		b.WriteString("  # from spec.useServerSideApply\n  useServerSideApply: true\n")
	}
	b.WriteString("  generate:\n")
	for _, gen := range g.generate {
		fmt.Fprintf(&b, "    # %s\n", gen.origin)
		if gen.template != "" {
			text, interpolate, _ := strings.Cut(gen.template, "\x00")
			fmt.Fprintf(&b, "    - template:\n        interpolate: %s\n        value: |\n", interpolate)
			for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
				if line == "" {
					b.WriteString("\n")
					continue
				}
				b.WriteString("          " + line + "\n")
			}
			continue
		}
		fmt.Fprintf(&b, "    - expression: %s\n", yexpr(gen.expression, "        "))
	}
	return b.String()
}

// yq renders a string as a YAML scalar: plain when that reads back as the
// same string, double-quoted (JSON quoting is valid YAML) otherwise.
func yq(s string) string {
	if plainSafe.MatchString(s) && !yamlSpecial.MatchString(s) {
		return s
	}
	b, _ := json.Marshal(s)
	return string(b)
}

var (
	plainSafe   = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9._/-]*$`)
	yamlSpecial = regexp.MustCompile(`^(?i:y|n|yes|no|on|off|true|false|null|~)$`)
)

// yd renders an expression as a YAML double-quoted scalar.
func yd(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func yqList(l []string) string {
	q := make([]string, len(l))
	for i, s := range l {
		q[i] = yq(s)
	}
	return strings.Join(q, ", ")
}

// yexpr renders a CEL expression: quoted on one line when short, a literal
// block otherwise. An expression that chainsaw would read as one of its own
// ("(...)": its templating is on by default, so a converted policy pasted
// into a chainsaw test would not apply) is broken into lines at its
// top-level && and ||, and kept with its final line break (|) when it has
// none: chainsaw's forms never span lines.
func yexpr(expr, indent string) string {
	literal := assert.ReadLiterally(expr)
	if !strings.Contains(expr, "\n") && len(expr) <= 100 && literal {
		return yd(expr)
	}
	text := wrap(expr, !literal)
	chomp := "|-"
	if !assert.ReadLiterally(text) {
		chomp = "|"
	}
	return chomp + "\n" + indent + strings.Join(strings.Split(text, "\n"), "\n"+indent)
}

// wrap breaks an expression longer than 100 bytes (or any, with force) at
// its top-level " && " and " || " for reading.
func wrap(expr string, force bool) string {
	if len(expr) <= 100 && !force {
		return expr
	}
	var b strings.Builder
	depth := 0
	inStr := byte(0)
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case inStr != 0:
			if c == '\\' && i+1 < len(expr) {
				b.WriteByte(c)
				i++
				c = expr[i]
			} else if c == inStr {
				inStr = 0
			}
		case c == '"' || c == '\'':
			inStr = c
		case c == '(' || c == '[' || c == '{':
			depth++
		case c == ')' || c == ']' || c == '}':
			depth--
		case depth == 0 && (strings.HasPrefix(expr[i:], " && ") || strings.HasPrefix(expr[i:], " || ")):
			b.WriteString("\n" + expr[i+1:i+3])
			i += 2
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func writeMap(b *strings.Builder, indent, key string, m map[string]any) {
	if len(m) == 0 {
		return
	}
	fmt.Fprintf(b, "%s%s:\n", indent, key)
	for _, k := range sortedKeys(m) {
		fmt.Fprintf(b, "%s  %s: %s\n", indent, yq(k), yq(fmt.Sprint(m[k])))
	}
}

func writeSelector(b *strings.Builder, indent string, s *policy.LabelSelector) {
	if len(s.MatchLabels) > 0 {
		fmt.Fprintf(b, "%smatchLabels:\n", indent)
		for _, k := range sortedKeys(s.MatchLabels) {
			fmt.Fprintf(b, "%s  %s: %s\n", indent, yq(k), yq(s.MatchLabels[k]))
		}
	}
	if len(s.MatchExpressions) > 0 {
		fmt.Fprintf(b, "%smatchExpressions:\n", indent)
		for _, e := range s.MatchExpressions {
			fmt.Fprintf(b, "%s  - key: %s\n%s    operator: %s\n", indent, yq(e.Key), indent, e.Operator)
			if len(e.Values) > 0 {
				fmt.Fprintf(b, "%s    values: [%s]\n", indent, yqList(e.Values))
			}
		}
	}
}
