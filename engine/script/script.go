// Package script is the contract between the engine and the interpreter of
// chainsaw's script and command operations (package engine/shell): the
// Session the interpreter acts through, where a test's scripts run
// (Options), how an operation ended (Outcome), and the Interpreter an
// adapter registers in engine.Options.Scripts. The engine imports this
// package and not the interpreter, so that a build can leave the shell out
// (the browser's core wasm, for its size budget): a test with a script or
// command operation then skips, saying that this build has no shell, as a
// build without the CEL family skips a GeneratingPolicy.
package script

import (
	"io/fs"
	"time"

	"github.com/genplay/genplay/engine/admission"
	"github.com/genplay/genplay/engine/cluster"
	"github.com/genplay/genplay/engine/internal/budget"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/source"
	"github.com/genplay/genplay/engine/timeline"
)

// Interpreter starts the interpreter of one test's script and command
// operations: s is the simulation it acts on, opts where the test's
// scripts run. package shell's New is the one genplay has.
type Interpreter func(s Session, opts Options) Runner

// Runner runs one test's script and command operations, in order: they
// share the test's scratch folder.
type Runner interface {
	// Run runs one operation of step stepName, with the operation's
	// bindings resolved.
	Run(stepName string, op *scenario.Operation, bindings map[string]any) Outcome
}

// Session is what the interpreter needs from the simulation: reads of the
// cluster, writes as a user, the clock and the timeline. The engine's
// session implements it; neither this package nor the interpreter imports
// the engine.
type Session interface {
	// Store is the simulated cluster, for reads (Get, View, List, Kinds,
	// KindInfo, Namespaced). Writes go through the methods below, which
	// let Kyverno see them.
	Store() *cluster.Store
	// Now is the simulated clock's time; Sleep advances it (a script's
	// sleep).
	Now() time.Time
	Sleep(d time.Duration)

	// Put writes obj as the scenario's admin user, as a chainsaw operation
	// of type mode (scenario.OpApply, OpCreate, OpUpdate or OpPatch) does:
	// a policy goes through Kyverno's policy validation first (doc, when
	// set, positions its diagnostics); the returned strings are warnings.
	Put(mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error)
	// PutAs is Put as another user (kubectl --as): the same write, and the
	// admission webhook sees that user.
	PutAs(user admission.UserInfo, mode string, obj resource.Object, doc *source.Document) (resource.Object, []string, error)
	// UpdateApproval writes a CertificateSigningRequest's approval
	// subresource as user (kubectl certificate approve and deny): only its
	// conditions change, and the cluster's signer reacts.
	UpdateApproval(user admission.UserInfo, obj resource.Object) (resource.Object, error)
	// IsPolicy says which objects are policies (of any family).
	IsPolicy(obj resource.Object) bool
	// Remove deletes an object as the admin user; DeleteAs deletes an
	// object other than a policy as another user (kubectl --as).
	Remove(ref resource.Ref) error
	DeleteAs(user admission.UserInfo, ref resource.Ref) error
	// Admit sends Kyverno's webhook a request that stores nothing (the
	// CONNECT of kubectl exec).
	Admit(req admission.Request)
	// RestartBackgroundController restarts Kyverno's background controller
	// (kubectl rollout restart): its in-memory state is lost and rebuilt.
	RestartBackgroundController()

	// Begin starts a timeline step; End lets Kyverno react and records the
	// step; Current is the step begun and not yet ended (nil between
	// steps).
	Begin(stepName, operation, summary string)
	End() *timeline.Step
	Current() *timeline.Step
	// Event records an event on the current step.
	Event(e timeline.Event)
	// Limited reports whether a limit of the run has stopped it; the
	// first time, the session reports why at pos.
	Limited(pos source.Pos) bool
	// Budget is the run's work budget, which jq in a pipeline draws from.
	Budget() *budget.Budget
}

// Options say where a test's scripts run.
type Options struct {
	// Files is where kubectl -f and --patch-file read; nil: scripts can
	// read no files.
	Files fs.FS
	// File is the test's file in Files: paths are relative to its folder.
	File string
	// Namespace is the test namespace: $NAMESPACE, and kubectl's default.
	Namespace string
	// Admin is the user kubectl acts as without --as.
	Admin admission.UserInfo
}

// Outcome is how a script or command operation ended.
type Outcome struct {
	// OK: the operation succeeded and its check held.
	OK bool
	// Skipped says why the test cannot be simulated honestly (a command
	// genplay cannot run); the test is then skipped, not failed.
	Skipped string
	// Failure is the error to report at the operation when it failed; ""
	// when OK, skipped, or stopped by a limit (which the session reports).
	Failure string
	// Outputs are the bindings the operation's outputs export to the
	// operations after it in its step (chainsaw's outputs), when OK.
	Outputs map[string]any
}
