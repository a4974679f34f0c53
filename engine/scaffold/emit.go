package scaffold

import (
	"fmt"
	"path"
	"reflect"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/internal/k8sname"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
)

// span maps lines of an input file to lines of the scenario.
type span struct {
	file            string
	inStart, inEnd  int
	outStart, fixed int // fixed: every input line maps to outStart (a rendered document)
}

type lineMap []span

func (m lineMap) at(pos source.Pos) int {
	for _, s := range m {
		if s.file == pos.File && pos.Line >= s.inStart && pos.Line <= s.inEnd {
			if s.fixed != 0 {
				return s.outStart
			}
			return s.outStart + pos.Line - s.inStart
		}
	}
	return 0
}

// writer builds the scenario text and counts its lines.
type writer struct {
	b     strings.Builder
	line  int // lines written so far
	lines lineMap
}

func (w *writer) printf(format string, args ...any) {
	s := fmt.Sprintf(format, args...)
	w.b.WriteString(s)
	w.line += strings.Count(s, "\n")
}

// block writes text (lines ending in \n) indented by indent spaces.
func (w *writer) block(text, indent string) {
	for _, l := range strings.SplitAfter(text, "\n") {
		if l == "" {
			continue
		}
		if strings.TrimSpace(l) == "" {
			w.printf("\n")
			continue
		}
		w.printf("%s%s", indent, l)
	}
}

// object writes an object under `resource:` at indent: the input's own text
// when it reads back the same, else rendered.
func (w *writer) object(it item, indent string) {
	if it.in != nil {
		// The text as written, when it reads back as the object (what the
		// API server set, left out, is not in it).
		if text, start, ok := chunk(it.in.data, it.in.doc.Line); ok && sameValue(text, indent, map[string]any(it.obj)) {
			w.lines = append(w.lines, span{file: it.in.doc.File, inStart: start, inEnd: start + strings.Count(text, "\n") - 1, outStart: w.line + 1})
			w.block(text, indent)
			return
		}
		end := it.in.doc.Line + 1<<20
		w.lines = append(w.lines, span{file: it.in.doc.File, inStart: it.in.doc.Line, inEnd: end, outStart: w.line + 1, fixed: 1})
	}
	w.block(render(it.obj), indent)
}

// sameValue reports whether text, indented, reads back as v.
func sameValue(text, indent string, v any) bool {
	var b strings.Builder
	b.WriteString("x:\n")
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.TrimSpace(l) != "" {
			b.WriteString(indent + l)
		} else if l != "" {
			b.WriteString("\n")
		}
	}
	docs, diags := source.Parse("check", []byte(b.String()))
	if diags.HasErrors() || len(docs) != 1 {
		return false
	}
	m, _ := docs[0].Value.(map[string]any)
	return len(m) == 1 && reflect.DeepEqual(m["x"], v)
}

// chunk returns the lines of the document whose content starts at line
// (1-based), without its --- markers and trailing blank lines, and the
// line the chunk starts at. ok is false when the document cannot be copied
// as text (content on a marker line, directives).
func chunk(data []byte, line int) (string, int, bool) {
	lines := strings.SplitAfter(string(data), "\n")
	if line < 1 || line > len(lines) {
		return "", 0, false
	}
	marker := func(l string) (bool, bool) { // is a marker, has content after it
		l = strings.TrimRight(l, "\r\n")
		l = strings.TrimPrefix(l, "\ufeff")
		for _, m := range []string{"---", "..."} {
			if l == m {
				return true, false
			}
			if strings.HasPrefix(l, m+" ") || strings.HasPrefix(l, m+"\t") {
				rest := strings.TrimSpace(l[3:])
				return true, rest != "" && !strings.HasPrefix(rest, "#")
			}
		}
		return false, false
	}
	start := line - 1
	for start > 0 {
		if is, content := marker(lines[start-1]); is {
			if content && start-1 == line-1 {
				return "", 0, false
			}
			break
		}
		start--
	}
	if is, _ := marker(lines[line-1]); is {
		return "", 0, false
	}
	end := line - 1
	for end < len(lines) {
		if is, _ := marker(lines[end]); is {
			break
		}
		end++
	}
	for end > start && strings.TrimSpace(lines[end-1]) == "" {
		end--
	}
	var b strings.Builder
	for _, l := range lines[start:end] {
		l = strings.TrimPrefix(strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r"), "\ufeff")
		if strings.HasPrefix(l, "%") {
			return "", 0, false
		}
		b.WriteString(l + "\n")
	}
	return b.String(), start + 1, true
}

// render writes an object as YAML: apiVersion, kind and metadata (name,
// namespace first) first, then the other fields sorted.
func render(obj resource.Object) string {
	var b strings.Builder
	one := func(k string, v any) {
		y, err := source.Marshal(map[string]any{k: v})
		if err != nil {
			y = []byte(fmt.Sprintf("# cannot render %s: %v\n", k, err))
		}
		b.Write(y)
	}
	order := []string{"apiVersion", "kind"}
	for _, k := range order {
		if v, ok := obj[k]; ok {
			one(k, v)
		}
	}
	if meta, ok := obj["metadata"].(map[string]any); ok {
		b.WriteString("metadata:\n")
		for _, k := range []string{"name", "namespace"} {
			if v, ok := meta[k]; ok {
				y, _ := source.Marshal(map[string]any{k: v})
				b.WriteString(indentLines(string(y), "  "))
			}
		}
		rest := map[string]any{}
		for k, v := range meta {
			if k != "name" && k != "namespace" {
				rest[k] = v
			}
		}
		if len(rest) > 0 {
			y, _ := source.Marshal(rest)
			b.WriteString(indentLines(string(y), "  "))
		}
	}
	var keys []string
	for k := range obj {
		if k != "apiVersion" && k != "kind" && k != "metadata" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		one(k, obj[k])
	}
	return b.String()
}

func indentLines(s, indent string) string {
	var b strings.Builder
	for _, l := range strings.SplitAfter(s, "\n") {
		if l != "" {
			b.WriteString(indent + l)
		}
	}
	return b.String()
}

// comment writes a comment at indent, one line per line of text.
func (w *writer) comment(text, indent string) {
	for _, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		w.printf("%s# %s\n", indent, l)
	}
}

const (
	opIndent  = "    "       // "- apply:" under try:
	resIndent = "          " // the object under "resource:"
)

func (w *writer) apply(it item, op string, template bool) {
	if it.comment != "" {
		w.comment(it.comment, opIndent)
	}
	w.printf("%s- %s:\n", opIndent, op)
	if !template {
		w.printf("%s    template: false\n", opIndent)
	}
	w.printf("%s    resource:\n", opIndent)
	w.object(it, resIndent)
}

// emit writes the scenario.
func (wr *wrapper) emit(policies []*policyItem, before, after []item) (string, lineMap) {
	w := &writer{}
	name := testName(policies)
	w.printf("# genplay wrapped %s into this scenario: the policies, then a trigger for each\n", path.Base(wr.file))
	w.printf("# generate rule and what it should generate. Edit it, add steps, press Run.\n")
	w.printf("apiVersion: %s\nkind: Test\nmetadata:\n  name: %s\nspec:\n", scenario.APIVersion, name)
	w.printf("  description: %s\n", quote(description(policies)))
	w.printf("  steps:\n")
	if len(before) > 0 {
		w.printf("  - name: create what the policies need\n    try:\n")
		for _, it := range before {
			w.apply(it, "apply", true)
		}
	}
	for _, p := range policies {
		w.printf("  - name: %s\n    try:\n", quote("create the "+p.obj.Kind()+" "+p.obj.Name()))
		w.apply(p.item, "apply", p.cel == nil)
		w.printf("%s- assert:\n%s    resource:\n", opIndent, opIndent)
		w.block(render(readiness(p)), resIndent)
	}
	created := map[string]resource.Object{} // what each step applied, by kind/namespace/name
	for _, p := range policies {
		for _, s := range p.steps {
			t := s.trigger
			k := key(t.kind.Kind, t.namespace, t.name)
			obj := t.object()
			// A trigger an earlier step created as it is now (two rules with
			// one match) is not applied again: this step checks what it made.
			again := created[k] != nil && resource.Equal(created[k], obj) && !t.update
			what := "create the " + t.kind.Kind + " " + t.name
			if again {
				what = "the " + t.kind.Kind + " " + t.name + " again"
			}
			if s.rule != "" {
				what += " (rule " + s.rule + ")"
			}
			w.printf("  - name: %s\n    try:\n", quote(what))
			if again {
				w.printf("%s# the trigger created above matches %s %s too\n%s- assert:\n%s    resource:\n", opIndent, p.obj.Kind(), p.obj.Name(), opIndent, opIndent)
				w.block(render(obj), resIndent)
			} else {
				if t.namespace != "" && !isSystemNamespace(t.namespace) || len(t.nsLabels) > 0 {
					ns := resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": t.namespace}}
					if len(t.nsLabels) > 0 {
						ns.Metadata()["labels"] = stringMap(t.nsLabels)
					}
					if nk := key("Namespace", "", t.namespace); created[nk] == nil || !resource.Equal(created[nk], ns) {
						w.apply(item{obj: ns, comment: "the trigger's namespace"}, "apply", true)
						created[nk] = ns
					}
				}
				why := fmt.Sprintf("a trigger %s %s selects: %s", p.obj.Kind(), p.obj.Name(), strings.Join(t.why, "; "))
				if created[k] != nil {
					why = "the same trigger, changed: " + why
				}
				created[k] = obj
				w.apply(item{obj: obj, comment: why}, "apply", true)
			}
			if t.update && !again {
				w.apply(item{obj: t.updated(), comment: "an update of the trigger: the match selects UPDATE"}, "apply", true)
			}
			for _, a := range s.asserts {
				w.printf("%s# what the policy should generate\n%s- assert:\n%s    resource:\n", opIndent, opIndent, opIndent)
				w.block(render(a), resIndent)
			}
		}
	}
	if len(after) > 0 {
		w.printf("  - name: create the test's resources\n    try:\n")
		for _, it := range after {
			w.apply(it, "apply", true)
		}
	}
	return w.b.String(), w.lines
}

// readiness is the assert that waits for a policy to be ready, as Kyverno's
// conformance tests' step templates do.
func readiness(p *policyItem) resource.Object {
	meta := map[string]any{"name": p.obj.Name()}
	if ns := p.obj.Namespace(); ns != "" {
		meta["namespace"] = ns
	}
	obj := resource.Object{"apiVersion": p.obj.APIVersion(), "kind": p.obj.Kind(), "metadata": meta}
	if p.cel != nil {
		obj["status"] = map[string]any{"conditionStatus": map[string]any{"ready": true}}
	} else {
		obj["status"] = map[string]any{"conditions": []any{map[string]any{"reason": "Succeeded", "status": "True", "type": "Ready"}}}
	}
	return obj
}

func testName(policies []*policyItem) string {
	name := policies[0].obj.Name()
	if len(policies) > 1 {
		name += "-and-more"
	}
	if len(name) > 63 || !k8sname.IsDNS1123Subdomain(name) {
		return "wrapped-policies"
	}
	return name
}

func description(policies []*policyItem) string {
	var names []string
	for _, p := range policies {
		names = append(names, p.obj.Kind()+" "+p.obj.Name())
	}
	return "What " + strings.Join(names, ", ") + " generate(s), wrapped by genplay."
}

// quote renders a string as a YAML scalar: plain when safe, else
// double-quoted.
func quote(s string) string {
	y, err := source.Marshal(s)
	if err != nil {
		return fmt.Sprintf("%q", s)
	}
	return strings.TrimSuffix(string(y), "\n")
}
