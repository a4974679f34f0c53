package shell

import (
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/script"
	"github.com/genplay/genplay/engine/timeline"
)

// New implements script.Interpreter: the interpreter of one test's script
// and command operations, which share the test's scratch folder (made at
// the first one that needs it). The adapters register it in
// engine.Options.Scripts.
func New(s script.Session, opts script.Options) script.Runner {
	return &testScripts{s: s, opts: opts}
}

var _ script.Interpreter = New

// testScripts runs one test's operations.
type testScripts struct {
	s    script.Session
	opts script.Options
	// scratch is the test's scratch folder (nil until an operation needs
	// it).
	scratch *Scratch
}

// Run runs one script or command operation of step stepName, with the
// operation's bindings resolved. Every kubectl call is one timeline step.
func (t *testScripts) Run(stepName string, op *scenario.Operation, bindings map[string]any) script.Outcome {
	r := &runner{s: t.s, opts: t.opts, test: t}
	r.out.OK = r.script(stepName, op, bindings)
	r.removeKubeconfig()
	return r.out
}

// runner runs one operation.
type runner struct {
	s    script.Session
	opts script.Options
	test *testScripts
	out  script.Outcome
	// writesFiles: the script writes files to the scratch folder, so a
	// file kubectl reads may be one of them.
	writesFiles bool
	// env is chainsaw's environment of the operation, vars the variables
	// of the shell running kubectl (which the script set, as
	// export KUBECONFIG=./temp): kubectl reads KUBECONFIG from vars, else
	// env. kubeconfig is the file chainsaw wrote for the operation (""
	// when none: the browser's builds).
	env, vars  map[string]string
	kubeconfig string
	// identity says how the current kubectl call names its user (--as,
	// a kubeconfig's client certificate), for the timeline.
	identity string
	// contextNamespace is the namespace of the context the current kubectl
	// call uses ("" when it sets none).
	contextNamespace string
}

// fail records the operation's failure.
func (r *runner) fail(msg string) { r.out.Failure = msg }

// userEvent records what the user did.
func (r *runner) userEvent(action string, ref resource.Ref, reason string) {
	r.s.Event(timeline.Event{Actor: timeline.ActorUser, Action: action, Object: &ref, Reason: reason})
}
