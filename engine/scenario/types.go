package scenario

import (
	"time"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// APIVersion is the apiVersion of chainsaw's Test and StepTemplate.
const APIVersion = "chainsaw.kyverno.io/v1alpha1"

// Operation types.
const (
	OpApply    = "apply"
	OpCreate   = "create"
	OpUpdate   = "update"
	OpPatch    = "patch"
	OpDelete   = "delete"
	OpAssert   = "assert"
	OpError    = "error"
	OpSleep    = "sleep"
	OpWait     = "wait"
	OpScript   = "script"
	OpCommand  = "command"
	OpGet      = "get"
	OpDescribe = "describe"
	OpEvents   = "events"
	OpPodLogs  = "podLogs"
	OpProxy    = "proxy"
)

// Test is one chainsaw Test.
type Test struct {
	Name        string
	Description string
	// File is the test's file: the path given to Parse, or its path in the
	// fs.FS given to Load. Relative `file:` references resolve against its
	// folder.
	File string
	Pos  source.Pos
	// Namespace is spec.namespace; empty means chainsaw picks a random
	// "chainsaw-..." namespace per test.
	Namespace string
	Bindings  []Binding
	Steps     []Step
	// Catch holds spec.catch: operations run when any step fails.
	Catch    []Operation
	Skip     bool
	Timeouts Timeouts

	templating bool // spec.template, default true
}

// Step is one step of a test. A step that used a template has the
// template's operations appended and Template set to its path.
type Step struct {
	Name        string
	Description string
	Pos         source.Pos
	Try         []Operation
	Catch       []Operation
	Finally     []Operation
	Cleanup     []Operation
	Bindings    []Binding
	// Use is the step's `use:` block; Load resolves it and sets it to nil.
	Use *Use
	// Template is the step template's path in the fs.FS once Load used it.
	Template string
	Timeouts Timeouts

	templating *bool // the step's own template setting
}

// Timeouts are chainsaw's per-kind timeouts; zero means the default.
type Timeouts struct {
	Apply, Assert, Cleanup, Delete, Error, Exec time.Duration
}

// Operation is one operation of a step.
type Operation struct {
	Type        string // one of the Op constants
	Description string
	Pos         source.Pos
	// File is the `file:` reference as written (maybe a "(expr)"); Load
	// reads it into Resources.
	File string
	// Resources are what apply/create/update/patch/assert/error and
	// delete-by-file act on, from `file` or the inline `resource`.
	Resources []Resource
	// Ref is delete's `ref`, or the object of wait/get/describe/events/
	// podLogs/proxy.
	Ref *ObjectRef
	// Expect are the operation's `expect` entries.
	Expect []Expect
	// Duration is sleep's duration.
	Duration time.Duration
	// Timeout is the operation's own timeout (zero: the default).
	Timeout time.Duration
	// Script is set for script and command operations.
	Script *Script
	// Wait is wait's `for` block, as written.
	Wait map[string]any
	// Template reports whether chainsaw templating applies to Resources
	// (operation, step, then test setting; true by default).
	Template bool
	// DryRun is apply/create/update/patch's dryRun.
	DryRun bool
	// ContinueOnError is the operation's continueOnError.
	ContinueOnError bool
	Bindings        []Binding
	Outputs         []Output
	// Extra holds the fields genplay reads but does not model (cluster,
	// deletionPropagationPolicy, format, subresource, ...), by name.
	Extra map[string]any
}

// Resource is one object an operation acts on.
type Resource struct {
	// Doc is the document the object comes from: a file's document, or the
	// test (or template) document for an inline `resource`.
	Doc *source.Document
	// Path is the object's path inside Doc (nil when it is the whole
	// document); Doc.Pos(append(Path, "metadata", "name")...) positions a
	// field.
	Path []any
	// Object is the document's value (JSON-shaped).
	Object resource.Object
}

// Pos returns the position of a field of the resource.
func (r Resource) Pos(path ...any) source.Pos {
	full := append(append([]any{}, r.Path...), path...)
	return r.Doc.Pos(full...)
}

// Binding is a chainsaw binding: a name and a value that may be a literal or
// hold "(jmespath)" strings.
type Binding struct {
	Name  string
	Value any
	Pos   source.Pos
}

// ObjectRef names objects: by apiVersion and kind, then name or a label
// selector, in a namespace.
type ObjectRef struct {
	APIVersion string
	Kind       string
	Namespace  string
	Name       string
	// Labels is delete.ref.labels.
	Labels map[string]string
	// Selector is the `selector` of wait/get/describe/events/podLogs.
	Selector string
}

// Expect is one `expect` entry: when Match (an assertion tree, nil for
// always) matches the resource, Check must hold (with $error, $stdout, ...
// bound).
type Expect struct {
	Match any
	Check any
	Pos   source.Pos
}

// Output is one `outputs` entry: a binding exported to later operations,
// optionally only when Match matches.
type Output struct {
	Name  string
	Value any
	Match any
}

// Script is a script or command operation.
type Script struct {
	// Content is a script's shell content.
	Content string
	// Entrypoint and Args are a command's program and arguments.
	Entrypoint string
	Args       []string
	Env        []Binding
	// Check is the assertion tree evaluated with $error, $stdout, $stderr.
	Check   any
	Timeout time.Duration
	WorkDir string
}
