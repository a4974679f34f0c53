// Package export turns a scenario into a chainsaw Test that checks what
// Kyverno did: after each of the scenario's operations it inserts an assert
// of every object Kyverno created, updated, reverted, recreated or kept in
// that operation, as genplay computed it, and an error for every object
// Kyverno deleted or that must stay absent (a downstream the user deleted
// and Kyverno did not recreate). After an operation that writes a policy it
// first waits for the policy to be ready, as Kyverno's own chainsaw tests
// do (their _step-templates/*-ready.yaml). Run on a real cluster, the file
// verifies that Kyverno behaves as the simulation says; run with genplay
// test, it passes.
//
// The user's text is kept byte for byte, comments included: the checks are
// inserted as new sequence items after each operation, at its indentation,
// each preceded by a comment that says which event of the timeline it
// checks. Operations that come from a file: or a step template, or that are
// written in flow style, get their checks in a new step right after their
// step. The objects are asserted without what a real API server sets
// differently (uid, resourceVersion, creationTimestamp, generation,
// managedFields, status, the uids in Kyverno's trigger and source labels and
// in ownerReferences), and the test namespace genplay fixes, when the Test
// does not name one, is written ($namespace) (or joined around $namespace
// in a longer string), since chainsaw picks a random one.
//
// One implementation serves the CLI (genplay export) and the browser (the
// tools build's "export" tool).
package export

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/genplay/genplay/engine"
	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// AbsenceWait is how long an exported test sleeps before checking that an
// object is absent: chainsaw's error passes as soon as the object is gone,
// so without it the check could pass before Kyverno recreated the object.
// Kyverno's own tests sleep 3s before such checks.
const AbsenceWait = 3 * time.Second

// Result is an exported test.
type Result struct {
	// Text is the chainsaw Test with its checks.
	Text string `json:"text"`
	// Asserts and Errors count the inserted assert and error operations
	// (policy readiness included in Asserts).
	Asserts int `json:"asserts"`
	Errors  int `json:"errors"`
}

// markerAPIVersion is the kind of the objects the export run checks the
// absence of after each operation, to find the operation's timeline steps:
// no cluster serves it, so the checks pass and change nothing.
const (
	markerAPIVersion = "export.genplay.invalid/v1"
	markerKind       = "OperationEnd"
)

// Test exports the scenario in data (file names it, as for engine.Run) as
// a chainsaw Test with checks. opts are the options of the run (Families,
// Files, ...). It fails when the scenario does not load, does not pass, or
// was skipped: a test exported from a failing run would check nothing
// useful. The exported text is run again before it is returned, and must
// pass.
func Test(file string, data []byte, opts engine.Options) (*Result, error) {
	tests, diags := scenario.LoadData(opts.Files, file, data)
	if diags.HasErrors() {
		return nil, fmt.Errorf("the scenario does not load: %s", diags.Errors()[0].Error())
	}
	if len(tests) == 0 {
		return nil, errors.New("no chainsaw Test found: a scenario is a document with apiVersion: chainsaw.kyverno.io/v1alpha1 and kind: Test")
	}
	t := tests[0]
	ops := withMarkers(t)
	runOpts := opts
	// The markers are operations and steps of the timeline too.
	lim := runOpts.Limits
	lim.Operations = 2*orDefault(lim.Operations, engine.DefaultLimits.Operations) + 1
	lim.TimelineBytes = 2 * orDefault(lim.TimelineBytes, engine.DefaultLimits.TimelineBytes)
	runOpts.Limits = lim
	res := engine.RunTest(t, runOpts)
	if err := usable(res); err != nil {
		return nil, err
	}
	ns := ""
	if t.Namespace == "" {
		ns = engine.TestNamespace
	}
	checks, err := collect(res, ops, ns)
	if err != nil {
		return nil, err
	}
	out, err := insert(data, t, checks)
	if err != nil {
		return nil, err
	}
	r := &Result{Text: string(out)}
	for _, c := range checks {
		for _, k := range c.items {
			if k.op == scenario.OpAssert {
				r.Asserts++
			} else if k.op == scenario.OpError {
				r.Errors++
			}
		}
	}
	again := engine.Run(file, out, opts)
	if err := usable(again); err != nil {
		return nil, fmt.Errorf("internal error: the exported test does not pass in genplay (please report it): %w", err)
	}
	return r, nil
}

func orDefault(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// usable says why a run cannot be exported, if it cannot.
func usable(res *timeline.Result) error {
	for _, d := range res.Diagnostics {
		if d.Severity == "error" {
			what := "the scenario fails"
			if res.Invalid {
				what = "the scenario is not valid"
			}
			return fmt.Errorf("%s at %s: %s (export a scenario that passes)", what, d.Where(), d.Message)
		}
	}
	switch {
	case res.Skipped != "":
		return fmt.Errorf("the scenario is skipped (%s): only a scenario genplay runs can be exported", res.Skipped)
	case !res.Passed:
		return errors.New("the scenario fails: export a scenario that passes")
	}
	return nil
}

// opRef is one operation of the test: where it is and its marker.
type opRef struct {
	step    int
	finally bool
	index   int // in the step's Try or Finally
	op      *scenario.Operation
	marker  string // the marker step's summary
	writes  bool   // apply/create/update/patch
	deletes bool
	// next is the operation after it in the test as written, or nil.
	next *scenario.Operation
}

// withMarkers puts a marker check after every operation of t's steps (try
// and finally) and returns the operations in order.
func withMarkers(t *scenario.Test) []opRef {
	var ops []opRef
	for i := range t.Steps {
		st := &t.Steps[i]
		for _, fin := range []bool{false, true} {
			list := &st.Try
			if fin {
				list = &st.Finally
			}
			var out []scenario.Operation
			orig := *list
			for j := range orig {
				op := orig[j]
				var next *scenario.Operation
				if j+1 < len(orig) {
					next = &orig[j+1]
				}
				name := fmt.Sprintf("op-%d", len(ops))
				ref := resource.Ref{APIVersion: markerAPIVersion, Kind: markerKind, Name: name}
				ops = append(ops, opRef{step: i, finally: fin, index: j, marker: scenario.OpError + " " + ref.String(),
					writes:  op.Type == scenario.OpApply || op.Type == scenario.OpCreate || op.Type == scenario.OpUpdate || op.Type == scenario.OpPatch,
					deletes: op.Type == scenario.OpDelete, next: next})
				out = append(out, op, scenario.Operation{Type: scenario.OpError, Pos: op.Pos, ContinueOnError: true,
					Resources: []scenario.Resource{{Object: resource.Object{"apiVersion": markerAPIVersion, "kind": markerKind,
						"metadata": map[string]any{"name": name}}}}})
			}
			*list = out
		}
	}
	for i := range ops {
		list := t.Steps[ops[i].step].Try
		if ops[i].finally {
			list = t.Steps[ops[i].step].Finally
		}
		ops[i].op = &list[2*ops[i].index]
	}
	return ops
}

// check is one inserted operation.
type check struct {
	op      string // assert, error or sleep
	comment string
	body    map[string]any // the operation's value
}

// checks are the operations inserted after one operation of the test.
type checks struct {
	at    opRef
	items []check
}

// collect reads the marked run: for each operation, the checks of what
// Kyverno did in it.
func collect(res *timeline.Result, ops []opRef, ns string) ([]checks, error) {
	var out []checks
	prev := res.Initial
	start := 0
	next := 0
	for st, cluster := range res.Clusters() {
		if next >= len(ops) || st.Operation != scenario.OpError || st.Summary != ops[next].marker {
			continue
		}
		op := ops[next]
		next++
		c := checks{at: op}
		now := cluster.Objects()
		c.items = opChecks(op, res.Steps[start:st.Index], prev, now, ns)
		if len(c.items) > 0 {
			out = append(out, c)
		}
		prev = now
		start = st.Index + 1
	}
	if next != len(ops) {
		return nil, fmt.Errorf("internal error: the export run reached %d of %d operations", next, len(ops))
	}
	return out, nil
}

// opChecks are the checks after one operation whose timeline steps are
// steps, with the cluster before and after.
func opChecks(op opRef, steps []timeline.Step, before, after []resource.Object, ns string) []check {
	beforeIdx, afterIdx := index(before), index(after)
	var items []check
	// Readiness of the policies the operation wrote.
	if op.writes {
		for _, r := range op.op.Resources {
			ref := r.Object.Ref()
			if ref.Namespace == "" && ns != "" && (r.Object.Kind() == "Policy" || r.Object.Kind() == "NamespacedGeneratingPolicy") {
				ref.Namespace = ns
			}
			if obj, ok := afterIdx[ref]; ok && !asserts(op.next, ref) {
				if c, ok := ready(obj, ns); ok {
					items = append(items, c)
				}
			}
		}
	}
	// What Kyverno touched, in the order the timeline says it, with the
	// first reason given for it.
	var order []resource.Ref
	why := map[resource.Ref]string{}
	note := func(ref resource.Ref, reason string) {
		if _, seen := why[ref]; !seen {
			order = append(order, ref)
			if ns != "" {
				reason = strings.ReplaceAll(reason, " "+ns+"/", " $namespace/")
			}
			why[ref] = reason
		}
	}
	for _, st := range steps {
		for _, e := range st.Events {
			if e.Actor != timeline.ActorKyverno || e.Object == nil {
				continue
			}
			switch e.Action {
			case timeline.ActionCreated, timeline.ActionUpdated, timeline.ActionDeleted, timeline.ActionReverted,
				timeline.ActionRecreated, timeline.ActionKept, timeline.ActionIgnored, timeline.ActionUnlabelled:
				if isPolicyKind(e.Object.Kind) {
					continue // its readiness is checked above
				}
				if strings.HasPrefix(e.Object.APIVersion, "admissionregistration.k8s.io/") {
					continue // Kyverno's webhook configuration: genplay renders it only roughly
				}
				via := ""
				if e.Policy != "" {
					via = " (" + e.Policy
					if e.Rule != "" {
						via += ", rule " + e.Rule
					}
					via += ")"
				}
				note(*e.Object, "Kyverno "+e.Action+" "+e.Object.String()+via+": "+e.Reason)
			}
		}
		// A downstream someone else changed (the user deleted it, a
		// namespace's deletion took it): what Kyverno then did, or did not.
		for _, ch := range st.Changes {
			obj, ok := afterIdx[ch.Object]
			if !ok {
				obj, ok = beforeIdx[ch.Object]
			}
			if ok && isDownstream(obj) {
				if ch.Change == timeline.ChangeDeleted {
					note(ch.Object, "a downstream Kyverno generated was deleted in this step, and Kyverno did not recreate it")
				} else {
					note(ch.Object, "a downstream Kyverno generated was "+ch.Change+" in this step, and Kyverno left it so")
				}
			}
		}
	}
	var absent []check
	for _, ref := range order {
		if obj, ok := afterIdx[ref]; ok {
			items = append(items, check{op: scenario.OpAssert, comment: why[ref],
				body: map[string]any{"resource": clean(obj, ns)}})
			continue
		}
		absent = append(absent, check{op: scenario.OpError, comment: why[ref] + " (so it must be absent)",
			body: map[string]any{"resource": refObject(ref, ns)}})
	}
	if len(absent) > 0 {
		items = append(items, check{op: scenario.OpSleep,
			comment: "give Kyverno time to act before checking what must be absent, as Kyverno's own tests do",
			body:    map[string]any{"duration": AbsenceWait.String()}})
		items = append(items, absent...)
	}
	return items
}

func index(objs []resource.Object) map[resource.Ref]resource.Object {
	m := make(map[resource.Ref]resource.Object, len(objs))
	for _, o := range objs {
		m[o.Ref()] = o
	}
	return m
}

func isPolicyKind(kind string) bool {
	switch kind {
	case "ClusterPolicy", "Policy", "GeneratingPolicy", "NamespacedGeneratingPolicy":
		return true
	}
	return false
}

// isDownstream reports whether Kyverno generated obj: it carries the
// labels Kyverno's generate controllers put on a downstream.
func isDownstream(obj resource.Object) bool {
	_, cpol := obj.Label("generate.kyverno.io/policy-name")
	_, managed := obj.Label("app.kubernetes.io/managed-by")
	return cpol && managed
}

// ready is the readiness check of a policy, as Kyverno's chainsaw step
// templates write it.
// asserts reports whether op is an assert of the object ref (one that names
// no namespace is in the test's): the test waits for it already, as
// Kyverno's own tests wait for a policy's readiness right after applying it.
func asserts(op *scenario.Operation, ref resource.Ref) bool {
	if op == nil || op.Type != scenario.OpAssert {
		return false
	}
	for _, r := range op.Resources {
		got := r.Object.Ref()
		if got.Kind == ref.Kind && got.Name == ref.Name && (got.Namespace == "" || got.Namespace == ref.Namespace) {
			return true
		}
	}
	return false
}

func ready(obj resource.Object, ns string) (check, bool) {
	meta := map[string]any{"name": obj.Name()}
	if n := obj.Namespace(); n != "" && n != ns {
		meta["namespace"] = n
	}
	res := map[string]any{"apiVersion": obj.APIVersion(), "kind": obj.Kind(), "metadata": meta}
	switch obj.Kind() {
	case "ClusterPolicy", "Policy":
		res["status"] = map[string]any{"conditions": []any{map[string]any{"reason": "Succeeded", "status": "True", "type": "Ready"}}}
	case "GeneratingPolicy":
		res["status"] = map[string]any{"conditionStatus": map[string]any{
			"(conditions[?type == 'WebhookConfigured'])": []any{map[string]any{
				"message": "Webhook configured.", "reason": "Succeeded", "status": "True", "type": "WebhookConfigured"}},
			"(conditions[?type == 'RBACPermissionsGranted'])": []any{map[string]any{
				"message": "Policy is ready for reporting.", "reason": "Succeeded", "status": "True", "type": "RBACPermissionsGranted"}},
			"ready": true,
		}}
	case "NamespacedGeneratingPolicy":
		// Kyverno's template waits for it to exist only.
	default:
		return check{}, false
	}
	return check{op: scenario.OpAssert, comment: "wait until Kyverno reports " + obj.Ref().String() + " ready",
		body: map[string]any{"resource": res}}, true
}

// serverSet are the metadata fields a real API server sets to its own
// values.
var serverSet = []string{"uid", "resourceVersion", "creationTimestamp", "generation", "managedFields", "selfLink"}

// perClusterLabels are Kyverno's labels whose values are uids.
var perClusterLabels = []string{"generate.kyverno.io/trigger-uid", "generate.kyverno.io/source-uid"}

// clean is obj as an assertion that holds on a real cluster.
func clean(obj resource.Object, ns string) resource.Object {
	o := obj.DeepCopy()
	delete(o, "status")
	meta := o.Metadata()
	for _, k := range serverSet {
		delete(meta, k)
	}
	if labels, ok := meta["labels"].(map[string]any); ok {
		for _, k := range perClusterLabels {
			delete(labels, k)
		}
		if len(labels) == 0 {
			delete(meta, "labels")
		}
	}
	if owners, ok := meta["ownerReferences"].([]any); ok {
		for _, ow := range owners {
			if m, ok := ow.(map[string]any); ok {
				delete(m, "uid")
			}
		}
	}
	if ns != "" && obj.Namespace() == ns {
		delete(meta, "namespace") // chainsaw's assert looks in the test namespace
	}
	return resource.Object(assertion(map[string]any(o), ns).(map[string]any))
}

// assertion writes the values of v as a chainsaw assertion that they hold:
// a string chainsaw would read as an expression or an escape is escaped
// (assert.Literal), and with a test namespace ns, every string equal to it
// is ($namespace), chainsaw's binding for the random one it creates.
func assertion(v any, ns string) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			t[k] = assertion(x, ns)
		}
	case []any:
		for i, x := range t {
			t[i] = assertion(x, ns)
		}
	case string:
		if ns == "" {
			return assert.Literal(t)
		}
		if t == ns {
			return "($namespace)"
		}
		if strings.Contains(t, ns) {
			// A name made from the namespace: join its parts around it.
			var parts []string
			for i, p := range strings.Split(t, ns) {
				if i > 0 {
					parts = append(parts, "$namespace")
				}
				if p != "" {
					parts = append(parts, jmespathString(p))
				}
			}
			return "(join('', [" + strings.Join(parts, ", ") + "]))"
		}
		return assert.Literal(t)
	}
	return v
}

// jmespathString is s as a JMESPath raw string literal.
func jmespathString(s string) string {
	return "'" + strings.ReplaceAll(s, `'`, `\'`) + "'"
}

// refObject is the object to check the absence of.
func refObject(ref resource.Ref, ns string) map[string]any {
	meta := map[string]any{"name": ref.Name}
	if ref.Namespace != "" && ref.Namespace != ns {
		meta["namespace"] = ref.Namespace
	}
	return map[string]any{"apiVersion": ref.APIVersion, "kind": ref.Kind, "metadata": meta}
}

// render writes checks as YAML sequence items at indent, with lines ending
// in eol.
func render(items []check, indent int, eol string) ([]byte, error) {
	var b bytes.Buffer
	pad := strings.Repeat(" ", indent)
	for _, c := range items {
		for _, line := range strings.Split(c.comment, "\n") {
			b.WriteString(pad + "# genplay: " + line + eol)
		}
		y, err := source.Marshal(map[string]any{c.op: c.body})
		if err != nil {
			return nil, err
		}
		lines := strings.Split(strings.TrimSuffix(string(y), "\n"), "\n")
		for i, line := range lines {
			lead := "  "
			if i == 0 {
				lead = "- "
			}
			b.WriteString(pad + lead + line + eol)
		}
	}
	return b.Bytes(), nil
}

// sortedInsertions orders text insertions by line, last first, so that
// applying one does not move the next.
type insertion struct {
	after int // insert after this line (1-based; 0 = at the top)
	seq   int // order among insertions after the same line
	text  []byte
}

func sortInsertions(ins []insertion) {
	sort.SliceStable(ins, func(i, j int) bool {
		if ins[i].after != ins[j].after {
			return ins[i].after > ins[j].after
		}
		return ins[i].seq > ins[j].seq
	})
}

// insert puts the checks into the test's text: after their operation when
// it is a block sequence item of the test's file, else in a new step after
// the operation's step.
func insert(data []byte, t *scenario.Test, all []checks) ([]byte, error) {
	docs, _ := source.Parse(t.File, data)
	var doc *source.Document
	for _, d := range docs {
		if p := d.Pos(); p.Line == t.Pos.Line {
			doc = d
			break
		}
	}
	if doc == nil {
		return nil, errors.New("internal error: the test's document is not in its text")
	}
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	lines := strings.SplitAfter(string(data), "\n")
	var ins []insertion
	later := map[int][]check{} // by step: checks for a new step after it
	var laterSteps []int
	for _, c := range all {
		list := "try"
		if c.at.finally {
			list = "finally"
		}
		placed := false
		if c.at.op.Pos.File == t.File {
			pos := doc.Pos("spec", "steps", c.at.step, list, c.at.index)
			if end, dash, ok := itemEnd(lines, pos); ok {
				text, err := render(c.items, dash, eol)
				if err != nil {
					return nil, err
				}
				ins = append(ins, insertion{after: end, seq: len(ins), text: text})
				placed = true
			}
		}
		if !placed {
			if _, ok := later[c.at.step]; !ok {
				laterSteps = append(laterSteps, c.at.step)
			}
			later[c.at.step] = append(later[c.at.step], c.items...)
		}
	}
	for _, i := range laterSteps {
		pos := doc.Pos("spec", "steps", i)
		end, dash, ok := itemEnd(lines, pos)
		if !ok {
			return nil, fmt.Errorf("%s: cannot place the checks of this step: write spec.steps as a block sequence", pos)
		}
		name := t.Steps[i].Name
		if name == "" {
			name = fmt.Sprintf("step-%d", i+1)
		}
		body, err := render(later[i], dash, eol)
		if err != nil {
			return nil, err
		}
		pad := strings.Repeat(" ", dash)
		head, err := source.Marshal(map[string]any{"name": name + ": genplay's checks"})
		if err != nil {
			return nil, err
		}
		text := pad + "- " + strings.TrimSuffix(string(head), "\n") + eol + pad + "  try:" + eol
		text += indentLines(string(body), 2)
		ins = append(ins, insertion{after: end, seq: len(ins), text: []byte(text)})
	}
	sortInsertions(ins)
	for _, in := range ins {
		if in.after > 0 && !strings.HasSuffix(lines[in.after-1], "\n") {
			lines[in.after-1] += eol // the last line had no line break
		}
		rest := append([]string{string(in.text)}, lines[in.after:]...)
		lines = append(lines[:in.after], rest...)
	}
	return []byte(strings.Join(lines, "")), nil
}

// indentLines indents every line of s by n spaces.
func indentLines(s string, n int) string {
	pad := strings.Repeat(" ", n)
	var b strings.Builder
	for _, line := range strings.SplitAfter(s, "\n") {
		if line != "" {
			b.WriteString(pad + line)
		}
	}
	return b.String()
}

// itemEnd finds the block sequence item whose content starts at pos: the
// column of its dash and its last non-blank line (1-based). ok is false
// when the item is not written "- " on its first line (flow style, or the
// dash on a line of its own).
func itemEnd(lines []string, pos source.Pos) (end, dash int, ok bool) {
	if pos.Line < 1 || pos.Line > len(lines) || pos.Col < 3 {
		return 0, 0, false
	}
	first := []rune(strings.TrimRight(lines[pos.Line-1], "\r\n"))
	if pos.Col-1 > len(first) {
		return 0, 0, false
	}
	before := strings.TrimRight(string(first[:pos.Col-1]), " ")
	if !strings.HasSuffix(before, "-") || strings.TrimSpace(strings.TrimSuffix(before, "-")) != "" {
		return 0, 0, false
	}
	dash = len(before) - 1
	end = pos.Line
	for l := pos.Line + 1; l <= len(lines); l++ {
		text := strings.TrimRight(lines[l-1], "\r\n")
		trimmed := strings.TrimLeft(text, " ")
		if trimmed == "" {
			continue
		}
		if len(text)-len(trimmed) <= dash || strings.HasPrefix(trimmed, "---") || strings.HasPrefix(trimmed, "...") {
			break
		}
		end = l
	}
	return end, dash, true
}
