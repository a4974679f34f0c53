// Package scenario loads chainsaw tests (chainsaw.kyverno.io/v1alpha1 Test)
// into a model the runner executes: tests, steps and operations, with the
// resources they apply or assert already read and every element positioned
// in its file.
//
// Parse reads one file and leaves `file:` references unresolved; Load reads
// a test from an fs.FS, resolves `file:` (globs, relative to the test's
// folder) and `use: template:` step templates (kind StepTemplate) with their
// `with: bindings`, as chainsaw's discovery does: the template's bindings
// and then the `with` bindings are appended to the step's, and its
// operations after the step's own. LoadData does the same for a test
// whose content is in hand (the playground's editor, an HTTP request);
// given no fs.FS, every `file:` and `use:` is an error at its line
// (NoFiles). Nothing here touches the OS, so the package runs unchanged in
// the browser.
//
// Render applies chainsaw's templating to a resource ("(expr)" string
// values evaluated as JMESPath with bindings); ResolveBindings evaluates a
// list of bindings in order. Script and command operations are kept as
// written, for package shell to parse and run; an *UnsupportedError says
// why an operation cannot be run honestly, and the test is skipped.
//
// Where this differs from chainsaw: expressions are JMESPath only (no CEL);
// `file:` URLs are not fetched; a `file:` expression must be computable
// from the test's and step's bindings when the test is loaded (chainsaw
// evaluates it when the operation runs, so it could also use $namespace).
package scenario
