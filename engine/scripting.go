package engine

import (
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/internal/budget"

	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/script"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Scripts is the interpreter of script and command operations an adapter
// registers in Options.Scripts: package engine/shell's New.
type Scripts = script.Interpreter

// script runs a script or command operation with the interpreter the
// adapter registered (Options.Scripts); a build without one (the browser's
// core wasm) skips the test, as it skips a policy of a family it lacks.
func (r *runner) script(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	if r.s.opts.Scripts == nil {
		r.skip(op, &scenario.UnsupportedError{Reason: "runs a shell, and this build of genplay has no shell " +
			"(the browser's core build leaves kubectl's simulation out); run the scenario with the genplay CLI"})
		// An error, so that the playground says the scenario did not run
		// rather than showing the steps before it as a passing run.
		r.s.diags = append(r.s.diags, timeline.Diagnostic{File: op.Pos.File, Line: op.Pos.Line, Column: op.Pos.Col, Severity: "error",
			Message: "not simulated: the " + op.Type + " operation needs a shell, which this build of genplay leaves out"})
		r.res.Passed = false
		return false
	}
	if r.scripts == nil {
		r.scripts = r.s.opts.Scripts(scriptSession{r}, script.Options{Files: r.s.opts.Files, File: r.t.File, Namespace: r.ns, Admin: Admin})
	}
	out := r.scripts.Run(stepName, op, bindings)
	switch {
	case out.Skipped != "":
		r.res.Skipped = out.Skipped
	case out.Failure != "":
		r.res.Passed = false
		r.diag(op.Pos, out.Failure)
	}
	r.outputs = out.Outputs
	return out.OK
}

// scriptSession is the runner's session as script.Session.
type scriptSession struct{ r *runner }

func (x scriptSession) Store() *cluster.Store { return x.r.s.store }
func (x scriptSession) Now() time.Time        { return x.r.s.clock.Now() }
func (x scriptSession) Sleep(d time.Duration) { x.r.s.Sleep(d) }

func (x scriptSession) Put(mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error) {
	return x.r.s.Put(mode, obj, doc)
}

func (x scriptSession) PutAs(user admission.UserInfo, mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error) {
	return x.r.s.PutAs(user, mode, obj, doc)
}

func (x scriptSession) UpdateApproval(user admission.UserInfo, obj resource.Object) (resource.Object, error) {
	return x.r.s.UpdateApproval(user, obj)
}

func (x scriptSession) IsPolicy(obj resource.Object) bool { return x.r.s.IsPolicy(obj) }

func (x scriptSession) Remove(ref resource.Ref) error { return x.r.s.Remove(ref) }

func (x scriptSession) DeleteAs(user admission.UserInfo, ref resource.Ref) error {
	return x.r.s.core.Delete(user, ref)
}

func (x scriptSession) Admit(req admission.Request) { x.r.s.core.Admit(req) }

func (x scriptSession) RestartBackgroundController() { x.r.s.RestartBackgroundController() }

func (x scriptSession) Begin(stepName, operation, summary string) {
	x.r.s.begin(stepName, operation, summary)
}

func (x scriptSession) End() *timeline.Step         { return x.r.s.end() }
func (x scriptSession) Current() *timeline.Step     { return x.r.s.cur }
func (x scriptSession) Event(e timeline.Event)      { x.r.s.Event(e) }
func (x scriptSession) Limited(pos source.Pos) bool { return x.r.limited(pos) }
func (x scriptSession) Budget() *budget.Budget      { return x.r.s.budget }
