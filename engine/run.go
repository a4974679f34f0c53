package engine

import (
	"errors"
	"fmt"
	"maps"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/upstream"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/script"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Run loads a scenario (a chainsaw Test) and runs it. file names it in
// diagnostics and, when opts.Files is set, is its path there: the files
// its operations name are read next to it. Without opts.Files, an
// operation that names a file is an error at its line. Run never panics
// and never returns nil: input errors come back as Result.Diagnostics, an
// internal error as a diagnostic that says so.
func Run(file string, data []byte, opts Options) (res *timeline.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = internalError(file, r)
		}
	}()
	if res := checkKyvernoVersion(file, opts); res != nil {
		return res
	}
	tests, diags := scenario.LoadData(opts.Files, file, data)
	diags = diags.Capped(maxDiagnostics)
	if diags.HasErrors() {
		return &timeline.Result{Format: timeline.FormatVersion, Kyverno: string(opts.kyverno()), Initial: []resource.Object{}, Steps: []timeline.Step{}, Invalid: true,
			Diagnostics: diagnostics(diags)}
	}
	if len(tests) == 0 {
		return &timeline.Result{Format: timeline.FormatVersion, Kyverno: string(opts.kyverno()), Initial: []resource.Object{}, Steps: []timeline.Step{}, Invalid: true, Diagnostics: []timeline.Diagnostic{{
			File: file, Line: 1, Column: 1, Severity: "error",
			Message: "no chainsaw Test found: a scenario is a document with apiVersion: chainsaw.kyverno.io/v1alpha1 and kind: Test",
		}}}
	}
	res = RunTest(tests[0], opts)
	res.Diagnostics = append(diagnostics(diags), res.Diagnostics...)
	return res
}

// checkKyvernoVersion refuses options that name a release genplay does not
// simulate, with a diagnostic that lists those it does; nil when they are
// fine.
func checkKyvernoVersion(file string, opts Options) *timeline.Result {
	if _, err := upstream.Parse(opts.KyvernoVersion); err != nil {
		return &timeline.Result{Format: timeline.FormatVersion, Steps: []timeline.Step{}, Invalid: true, Diagnostics: []timeline.Diagnostic{{
			File: file, Severity: "error", Message: err.Error()}}}
	}
	return nil
}

// internalError reports a recovered panic as data: the input is kept by
// the caller, and the message says it is genplay's fault, not the user's.
func internalError(file string, r any) *timeline.Result {
	stack := string(debug.Stack())
	if len(stack) > 2000 {
		stack = stack[:2000]
	}
	return &timeline.Result{Format: timeline.FormatVersion, Initial: []resource.Object{}, Steps: []timeline.Step{}, Diagnostics: []timeline.Diagnostic{{
		File: file, Line: 1, Column: 1, Severity: "error",
		Message: fmt.Sprintf("%s (not a problem with your input; please report it): %v\n%s", internalErrorPrefix, r, stack),
	}}}
}

// TestNamespace is the namespace chainsaw would create for a test that
// does not name one (chainsaw picks a random name; genplay a fixed one, so
// runs replay byte for byte).
const TestNamespace = "chainsaw-test"

// RunTest runs one loaded chainsaw Test in a fresh simulated cluster.
func RunTest(t *scenario.Test, opts Options) (res *timeline.Result) {
	if res := checkKyvernoVersion(t.File, opts); res != nil {
		return res
	}
	r := &runner{s: NewSession(opts), t: t}
	defer func() {
		if p := recover(); p != nil {
			res = internalError(t.File, p)
		}
	}()
	r.res = &timeline.Result{Format: timeline.FormatVersion, Kyverno: string(opts.kyverno()), Test: t.Name, Initial: r.s.initial, Steps: []timeline.Step{}, Passed: true}
	if pos, err := checkSize(t, r.s.opts.Limits); err != nil {
		r.res.Passed, r.res.Invalid = false, true
		r.diag(pos, err.Error())
		return r.res
	}
	r.run()
	r.limited(source.Pos{}) // a limit the last operation reached
	r.res.Steps = r.s.steps
	if r.res.Steps == nil {
		r.res.Steps = []timeline.Step{} // the contract: always a list
	}
	r.res.Diagnostics = append(r.res.Diagnostics, r.s.diags...)
	if r.res.Diagnostics == nil {
		r.res.Diagnostics = []timeline.Diagnostic{}
	}
	return r.res
}

type runner struct {
	s        *Session
	t        *scenario.Test
	res      *timeline.Result
	ns       string
	bindings map[string]any
	limitErr error // a limit stopped the run (limits.go)
	// positioned is set when the current write was rejected with
	// diagnostics that already point at the offending fields.
	positioned bool
	// scripts runs the test's script and command operations (made at the
	// first one), which share its scratch folder.
	scripts script.Runner
	// outputs are the bindings the last operation's outputs exported.
	outputs map[string]any
}

func (r *runner) run() {
	r.ns = r.t.Namespace
	if r.ns == "" {
		r.ns = TestNamespace
	}
	base := map[string]any{"namespace": r.ns, "test": map[string]any{"name": r.t.Name}, "values": map[string]any{}}
	var err error
	if r.bindings, err = scenario.ResolveBindings(base, r.t.Bindings); err != nil {
		r.diag(r.t.Pos, err.Error())
		r.res.Passed, r.res.Invalid = false, true
		return
	}
	if !r.install() {
		return
	}
	if r.needsNamespace() {
		r.s.begin("", "namespace", "chainsaw creates the test namespace "+r.ns)
		if _, err := r.s.core.Create(Admin, resource.Object{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": r.ns}}); err == nil {
			r.s.userEvent(timeline.ActionCreated, resource.Ref{APIVersion: "v1", Kind: "Namespace", Name: r.ns},
				"chainsaw creates a namespace for each test and puts namespaced resources without a namespace there")
		}
		r.s.end()
	}
	for i := range r.t.Steps {
		step := &r.t.Steps[i]
		bindings, err := scenario.ResolveBindings(r.bindings, step.Bindings)
		if err != nil {
			r.diag(step.Pos, err.Error())
			r.res.Passed, r.res.Invalid = false, true
			return
		}
		name := step.Name
		if name == "" {
			name = fmt.Sprintf("step-%d", i+1)
		}
		ok := r.operations(name, step.Try, bindings)
		r.operations(name, step.Finally, bindings)
		if r.res.Skipped != "" || !ok {
			return
		}
	}
}

// needsNamespace reports whether any operation puts a namespaced resource
// in the test namespace.
func (r *runner) needsNamespace() bool {
	if r.t.Namespace != "" {
		return true
	}
	for _, step := range r.t.Steps {
		for _, ops := range [][]scenario.Operation{step.Try, step.Finally} {
			for _, op := range ops {
				for _, res := range op.Resources {
					if res.Object.Namespace() != "" || res.Object.Kind() == "" {
						continue
					}
					if ns, known := r.s.store.Namespaced(res.Object.APIVersion(), res.Object.Kind()); ns || !known {
						if !known && !strings.Contains(fmt.Sprint(res.Object["metadata"]), "namespace") {
							continue
						}
						return true
					}
				}
			}
		}
	}
	return false
}

func (r *runner) diag(pos source.Pos, msg string) {
	r.res.Diagnostics = append(r.res.Diagnostics, timeline.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Col, Severity: "error", Message: msg})
}

// operations runs a list of operations; it stops at the first failure,
// as chainsaw does, and reports whether all succeeded.
func (r *runner) operations(stepName string, ops []scenario.Operation, bindings map[string]any) bool {
	for i := range ops {
		op := &ops[i]
		if r.limited(op.Pos) {
			return false
		}
		opBindings, err := scenario.ResolveBindings(bindings, op.Bindings)
		if err != nil {
			r.diag(op.Pos, err.Error())
			r.res.Passed = false
			return false
		}
		r.outputs = nil
		if !r.operation(stepName, op, opBindings) {
			if op.ContinueOnError {
				continue
			}
			return false
		}
		if len(r.outputs) > 0 {
			// chainsaw's outputs: bound for the operations after this one
			// in the step.
			bindings = maps.Clone(bindings)
			maps.Copy(bindings, r.outputs)
		}
	}
	return true
}

// operation runs one operation as one or more timeline steps.
func (r *runner) operation(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	switch op.Type {
	case scenario.OpApply, scenario.OpCreate, scenario.OpUpdate, scenario.OpPatch:
		for _, res := range op.Resources {
			if !r.write(stepName, op, res, bindings) {
				return false
			}
		}
		return true
	case scenario.OpDelete:
		return r.delete(stepName, op, bindings)
	case scenario.OpAssert, scenario.OpError:
		return r.check(stepName, op, bindings)
	case scenario.OpSleep:
		r.s.begin(stepName, op.Type, "sleep "+op.Duration.String())
		r.s.Sleep(op.Duration)
		r.s.end()
		return true
	case scenario.OpScript, scenario.OpCommand:
		return r.script(stepName, op, bindings)
	case scenario.OpWait:
		// The simulation has converged after every step: nothing to wait for.
		return true
	default:
		// get, describe, events, podLogs, proxy: diagnostics for a person
		// reading a failed run on a real cluster; they change nothing.
		return true
	}
}

// render applies chainsaw templating and the test namespace to a resource.
func (r *runner) render(op *scenario.Operation, res scenario.Resource, bindings map[string]any) (resource.Object, error) {
	obj := res.Object.DeepCopy()
	if op.Template {
		out, err := scenario.Render(obj, bindings)
		if err != nil {
			return nil, err
		}
		m, ok := out.(resource.Object)
		if !ok {
			if mm, ok2 := out.(map[string]any); ok2 {
				m = resource.Object(mm)
			} else {
				return nil, fmt.Errorf("templating did not give an object")
			}
		}
		obj = m
	}
	if obj.Namespace() == "" && obj.Kind() != "" {
		if namespaced, known := r.s.store.Namespaced(obj.APIVersion(), obj.Kind()); namespaced && known {
			obj.Metadata()["namespace"] = r.ns
		}
	}
	return obj, nil
}

func (r *runner) write(stepName string, op *scenario.Operation, res scenario.Resource, bindings map[string]any) bool {
	obj, err := r.render(op, res, bindings)
	if err != nil {
		r.s.begin(stepName, op.Type, op.Type+" (templating failed)")
		return r.finish(op, nil, err, bindings, res.Pos())
	}
	r.s.begin(stepName, op.Type, op.Type+" "+obj.Ref().String())
	var warnings []string
	if op.DryRun {
		err = nil
	} else {
		before := len(r.s.diags)
		r.s.admissionChanges, r.s.warningChanges = nil, nil
		_, warnings, err = r.s.Put(op.Type, obj, res.Doc.Sub(res.Path...))
		r.positioned = err != nil && len(r.s.diags) > before
		if !r.positioned && len(op.Expect) == 0 {
			r.positioned = r.fieldErrors(err, res)
		}
	}
	var unsupported *scenario.UnsupportedError
	if errors.As(err, &unsupported) {
		// The write cannot be simulated honestly here (a CEL policy in a
		// build without the CEL family): the test skips, and says why where
		// the resource is written.
		r.skip(op, unsupported)
		pos := res.Pos()
		// An error, so that the playground says the scenario did not run
		// rather than showing the steps before it as a passing run.
		r.s.diags = append(r.s.diags, timeline.Diagnostic{File: pos.File, Line: pos.Line, Column: pos.Col, Severity: "error",
			Message: "not simulated: " + unsupported.Reason})
		r.res.Passed = false
		r.s.end()
		return false
	}
	r.s.cur.Warnings = warnings
	for _, w := range warnings {
		ref := obj.Ref()
		r.s.Event(timeline.Event{Actor: timeline.ActorKyverno, Action: timeline.ActionWarned, Object: &ref, Reason: w,
			VersionChanges: r.s.warningChanges})
	}
	if err != nil {
		ref := obj.Ref()
		r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionRejected, Object: &ref, Reason: err.Error(),
			VersionChanges: r.s.admissionChanges})
	}
	return r.finish(op, obj, err, bindings, res.Pos())
}

// finish ends the step, applying the operation's expect entries to err.
func (r *runner) finish(op *scenario.Operation, obj resource.Object, err error, bindings map[string]any, pos source.Pos) bool {
	step := r.s.cur
	ok := true
	if len(op.Expect) > 0 {
		var errVal any
		if err != nil {
			errVal = err.Error()
		}
		b := withBinding(bindings, "error", errVal)
		var failures []string
		for _, e := range op.Expect {
			if e.Match != nil && obj != nil && len(assert.Match(e.Match, map[string]any(obj), b)) > 0 {
				continue
			}
			failures = append(failures, assert.Match(e.Check, map[string]any(obj), b)...)
		}
		step.Check = &timeline.Check{Passed: len(failures) == 0, Failures: failures}
		if err != nil {
			step.Error = err.Error()
		}
		ok = len(failures) == 0
	} else if err != nil {
		step.Error = err.Error()
		ok = false
	}
	if !ok {
		r.res.Passed = false
		msg := step.Error
		if step.Check != nil && len(step.Check.Failures) > 0 {
			msg = strings.Join(step.Check.Failures, "; ")
		}
		if pos.Line == 0 {
			pos = op.Pos
		}
		if len(op.Expect) > 0 || !r.positioned {
			r.diag(pos, msg) // otherwise validation already pointed at the fields
		} else {
			r.res.Invalid = true
		}
	}
	r.positioned = false
	r.s.end()
	return ok
}

// fieldErrors puts the API server's field errors of an Invalid rejection
// (metadata.name: Invalid value ...) at the fields of the resource as
// written, and reports whether it did.
func (r *runner) fieldErrors(err error, res scenario.Resource) bool {
	var se *cluster.StatusError
	if !errors.As(err, &se) || se.Reason != cluster.ReasonInvalid || len(se.Causes) == 0 || res.Doc == nil {
		return false
	}
	doc := res.Doc.Sub(res.Path...)
	kind, _ := res.Object["kind"].(string)
	for _, c := range se.Causes {
		pos := doc.Pos(fieldPath(c.Field)...)
		r.diag(pos, fmt.Sprintf("%s %q is invalid: %s", kind, res.Object.Name(), c.Error()))
	}
	return true
}

// fieldPath splits an API field path ("spec.rules[0].name") into the keys
// and indexes source.Document.Pos takes.
func fieldPath(field string) []any {
	var out []any
	for _, part := range strings.Split(field, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			out = append(out, name)
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			if !ok {
				break
			}
			if n, err := strconv.Atoi(idx); err == nil {
				out = append(out, n)
			} else {
				out = append(out, idx)
			}
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return out
}

// withBinding returns bindings with one more name bound.
func withBinding(b map[string]any, name string, v any) map[string]any {
	out := maps.Clone(b)
	if out == nil {
		out = map[string]any{}
	}
	out[name] = v
	return out
}

func (r *runner) delete(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	var refs []resource.Ref
	var lastErr error
	if op.Ref != nil {
		ref := *op.Ref
		if out, err := scenario.Render(map[string]any{"apiVersion": ref.APIVersion, "kind": ref.Kind, "namespace": ref.Namespace, "name": ref.Name}, bindings); err == nil {
			m := out.(map[string]any)
			ref.APIVersion, ref.Kind = fmt.Sprint(m["apiVersion"]), fmt.Sprint(m["kind"])
			ref.Namespace, ref.Name = fmt.Sprint(m["namespace"]), fmt.Sprint(m["name"])
		}
		if ref.Namespace == "" {
			if namespaced, known := r.s.store.Namespaced(ref.APIVersion, ref.Kind); namespaced && known {
				ref.Namespace = r.ns
			}
		}
		if ref.Name != "" {
			refs = append(refs, resource.Ref{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name})
		} else {
			for _, obj := range r.s.store.List(cluster.Query{APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Labels: ref.Labels}) {
				refs = append(refs, obj.Ref())
			}
		}
	}
	for _, res := range op.Resources {
		obj, err := r.render(op, res, bindings)
		if err != nil {
			lastErr = err
			continue
		}
		refs = append(refs, obj.Ref())
	}
	if len(refs) == 0 {
		r.s.begin(stepName, op.Type, "delete (nothing matched)")
		return r.finish(op, nil, lastErr, bindings, op.Pos)
	}
	for _, ref := range refs {
		if r.limited(op.Pos) {
			return false
		}
		r.s.begin(stepName, op.Type, "delete "+ref.String())
		err := r.s.Remove(ref)
		if errors.Is(err, cluster.ErrNotFound) && len(op.Expect) == 0 {
			// chainsaw's delete succeeds when the object is already gone.
			r.s.Event(timeline.Event{Actor: timeline.ActorAPIServer, Action: timeline.ActionNote, Object: &ref, Reason: "already gone: " + err.Error()})
			err = nil
		}
		if !r.finish(op, nil, err, bindings, op.Pos) {
			return false
		}
	}
	return true
}

func (r *runner) check(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	list := func(apiVersion, kind, namespace string) []resource.Object {
		return r.s.store.List(cluster.Query{APIVersion: apiVersion, Kind: kind, Namespace: namespace})
	}
	for _, res := range op.Resources {
		expected, err := r.render(&scenario.Operation{Template: false}, res, bindings)
		if err != nil {
			r.s.begin(stepName, op.Type, op.Type+" (templating failed)")
			return r.finish(op, nil, err, bindings, res.Pos())
		}
		what := expected.Kind()
		if n := expected.Name(); n != "" && !strings.HasPrefix(n, "(") {
			what = expected.Ref().String()
		}
		r.s.begin(stepName, op.Type, op.Type+" "+what)
		var ok bool
		var failures []string
		if op.Type == scenario.OpAssert {
			ok, failures = assert.Resource(expected, list, bindings)
		} else {
			ok, failures = assert.Absent(expected, list, bindings)
		}
		r.s.cur.Check = &timeline.Check{Passed: ok, Failures: failures}
		if _, status := expected["status"]; !ok && op.Type == scenario.OpAssert && status &&
			expected.Kind() == "Pod" && expected.APIVersion() == "v1" {
			// A real cluster's kubelet runs the pod; genplay has none, so the
			// wait can never end: the test cannot be simulated honestly.
			r.skip(op, &scenario.UnsupportedError{Reason: "waits for the status of " + what +
				": genplay has no kubelet, so pods never run (a test that needs a running pod, such as an HTTP server, cannot be simulated)"})
			r.s.end()
			return false
		}
		if !ok {
			r.res.Passed = false
			r.diag(res.Pos(), op.Type+" failed: "+strings.Join(failures, "; "))
		}
		r.s.end()
		if !ok {
			return false
		}
	}
	return true
}

// skip ends the run as skipped: operation op cannot be simulated honestly,
// for the reason u gives.
func (r *runner) skip(op *scenario.Operation, u *scenario.UnsupportedError) {
	r.res.Skipped = fmt.Sprintf("%s: the %s %s", op.Pos, op.Type, u.Reason)
}
