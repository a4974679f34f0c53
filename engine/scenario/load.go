package scenario

import (
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// TestFileNames are the file names of chainsaw tests (chainsaw's default
// testFile; a Configuration may name others).
var TestFileNames = []string{"chainsaw-test.yaml", "chainsaw-test.yml"}

// Load reads the chainsaw Tests of the file at p in fsys and resolves what
// Parse leaves open: step templates (`use:`) and `file:` references, which
// are relative to the test's folder (for templates too, as in chainsaw).
func Load(fsys fs.FS, p string) ([]*Test, source.Diagnostics) {
	return LoadConfigured(fsys, p, nil)
}

// LoadConfigured is Load under a chainsaw Configuration, whose defaults
// apply where a test sets nothing (templating); nil is chainsaw's defaults.
func LoadConfigured(fsys fs.FS, p string, config *Configuration) ([]*Test, source.Diagnostics) {
	data, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, source.Diagnostics{{Pos: source.Pos{File: p, Line: 1, Col: 1}, Severity: source.SeverityError,
			Message: fmt.Sprintf("read test: %v", err)}}
	}
	return loadData(fsys, p, data, config)
}

// LoadData is Load of a test whose content is data, at p in fsys. With a
// nil fsys no file can be read: every `file:` and `use: template:` is an
// error at its line (NoFiles), never an operation that silently does
// nothing.
func LoadData(fsys fs.FS, p string, data []byte) ([]*Test, source.Diagnostics) {
	return loadData(fsys, p, data, nil)
}

func loadData(fsys fs.FS, p string, data []byte, config *Configuration) ([]*Test, source.Diagnostics) {
	tests, diags := parse(p, data, config)
	l := &loader{fsys: fsys, diags: &diags, files: map[string][]*source.Document{}}
	for _, t := range tests {
		l.resolve(t)
	}
	return tests, diags
}

// NoFiles says why an operation that names a file cannot run: the
// scenario was given on its own, with no folder to read from.
const NoFiles = "no files can be read here: the scenario runs on its own (as in the playground or the HTTP API), with no folder next to it; " +
	"put the resource inline (resource:), or run the test from its folder with genplay run or genplay test"

type loader struct {
	fsys  fs.FS
	diags *source.Diagnostics
	files map[string][]*source.Document
}

func (l *loader) errorf(pos source.Pos, format string, args ...any) {
	*l.diags = append(*l.diags, source.Diagnostic{Pos: pos, Severity: source.SeverityError, Message: fmt.Sprintf(format, args...)})
}

// read parses a file once per Load; errors are reported at pos.
func (l *loader) read(p string, pos source.Pos) ([]*source.Document, bool) {
	if docs, ok := l.files[p]; ok {
		return docs, docs != nil
	}
	data, err := fs.ReadFile(l.fsys, p)
	if err != nil {
		l.errorf(pos, "read %s: %v", p, err)
		l.files[p] = nil
		return nil, false
	}
	docs, diags := source.Parse(p, data)
	*l.diags = append(*l.diags, diags...)
	if hasErrors(diags) {
		l.files[p] = nil
		return nil, false
	}
	l.files[p] = docs
	return docs, true
}

// join resolves a path relative to dir inside the file system.
func join(dir, rel string) (string, error) {
	if path.IsAbs(rel) {
		return "", fmt.Errorf("%s: absolute paths are not supported, use a path relative to the test", rel)
	}
	p := path.Join(dir, rel)
	if !fs.ValidPath(p) {
		return "", fmt.Errorf("%s: the path leaves the folder the tests are loaded from", rel)
	}
	return p, nil
}

func (l *loader) resolve(t *Test) {
	dir := path.Dir(t.File)
	testBindings, _ := resolveLenient(nil, t.Bindings)
	for i := range t.Steps {
		s := &t.Steps[i]
		if s.Use != nil {
			l.useTemplate(dir, s, t)
		}
		stepBindings, _ := resolveLenient(testBindings, s.Bindings)
		for _, ops := range [][]Operation{s.Try, s.Catch, s.Finally, s.Cleanup} {
			for j := range ops {
				l.resolveFile(dir, &ops[j], stepBindings)
			}
		}
	}
	for j := range t.Catch {
		l.resolveFile(dir, &t.Catch[j], testBindings)
	}
}

// resolveLenient evaluates the bindings it can: at load time $namespace and
// the outputs of earlier operations are not known yet.
func resolveLenient(base map[string]any, list []Binding) (map[string]any, error) {
	out := make(map[string]any, len(base)+len(list))
	for k, v := range base {
		out[k] = v
	}
	var first error
	for _, b := range list {
		next, err := ResolveBindings(out, []Binding{b})
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		out = next
	}
	return out, first
}

func (l *loader) useTemplate(dir string, s *Step, t *Test) {
	use := s.Use
	s.Use = nil
	if l.fsys == nil {
		l.errorf(use.Pos, "use.template %s: %s", use.Template, NoFiles)
		return
	}
	p, err := join(dir, use.Template)
	if err != nil {
		l.errorf(use.Pos, "use.template: %v", err)
		return
	}
	docs, ok := l.read(p, use.Pos)
	if !ok {
		return
	}
	var found []*source.Document
	for _, doc := range docs {
		if m, ok := doc.Value.(map[string]any); ok && m["kind"] == "StepTemplate" && m["apiVersion"] == APIVersion {
			found = append(found, doc)
		}
	}
	if len(found) != 1 {
		l.errorf(use.Pos, "use.template: %s must hold exactly one StepTemplate (%s), found %d", p, APIVersion, len(found))
		return
	}
	doc := found[0]
	d := decoder{doc: doc, diags: l.diags}
	root, _ := d.object(nil, doc.Value, "a StepTemplate")
	root.only("a StepTemplate", "apiVersion", "kind", "metadata", "spec")
	spec, ok := d.object(root.at("spec"), root.m["spec"], "spec")
	if !ok {
		return
	}
	spec.only("a StepTemplate spec", "bindings", "try", "catch", "finally", "cleanup")
	// The using step's template setting (or the test's) applies to the
	// template's operations, as chainsaw merges them into the step.
	template := stepTemplating(s, t)
	s.Template = p
	s.Bindings = append(s.Bindings, parseBindings(spec, "bindings")...)
	s.Bindings = append(s.Bindings, use.With...)
	s.Try = append(s.Try, parseOperations(spec, "try", tryOps, template)...)
	s.Catch = append(s.Catch, parseOperations(spec, "catch", finallyOps, template)...)
	s.Finally = append(s.Finally, parseOperations(spec, "finally", finallyOps, template)...)
	s.Cleanup = append(s.Cleanup, parseOperations(spec, "cleanup", finallyOps, template)...)
}

// stepTemplating recovers the step's effective template setting.
func stepTemplating(s *Step, t *Test) bool {
	if s.templating != nil {
		return *s.templating
	}
	return t.templating
}

// resolveFile evaluates the operation's `file:` and reads the resources.
func (l *loader) resolveFile(dir string, op *Operation, bindings map[string]any) {
	if op.File == "" {
		return
	}
	if l.fsys == nil {
		l.errorf(op.Pos, "%s.file %s: %s", op.Type, op.File, NoFiles)
		return
	}
	scope, _ := resolveLenient(bindings, op.Bindings)
	expr := assert.ParseTemplate(op.File)
	v, err := expr.Evaluate(nil, scope)
	if err != nil {
		l.errorf(op.Pos, "%s.file %s: %v", op.Type, op.File, err)
		return
	}
	ref, ok := v.(string)
	if !ok || ref == "" {
		l.errorf(op.Pos, "%s.file %s: expected a file name, got %v", op.Type, op.File, v)
		return
	}
	if strings.Contains(ref, "://") {
		l.errorf(op.Pos, "%s.file %s: URLs are not supported; put the file next to the test", op.Type, ref)
		return
	}
	p, err := join(dir, ref)
	if err != nil {
		l.errorf(op.Pos, "%s.file: %v", op.Type, err)
		return
	}
	paths := []string{p}
	if strings.ContainsAny(ref, "*?[") {
		paths, err = fs.Glob(l.fsys, p)
		if err != nil {
			l.errorf(op.Pos, "%s.file %s: %v", op.Type, ref, err)
			return
		}
		if len(paths) == 0 {
			l.errorf(op.Pos, "%s.file %s: no file matches", op.Type, ref)
			return
		}
	}
	needsType := op.Type != OpAssert && op.Type != OpError
	before := len(*l.diags)
	for _, fp := range paths {
		docs, ok := l.read(fp, op.Pos)
		if !ok {
			continue
		}
		for _, doc := range docs {
			if doc.Value == nil {
				continue
			}
			m, ok := doc.Value.(map[string]any)
			if !ok {
				l.errorf(doc.Pos(), "a resource must be an object, got %s", kindOf(doc.Value))
				continue
			}
			obj := resource.Object(m)
			if needsType && (obj.APIVersion() == "" || obj.Kind() == "") {
				l.errorf(doc.Pos(), "a resource to %s needs apiVersion and kind", op.Type)
				continue
			}
			op.Resources = append(op.Resources, Resource{Doc: doc, Object: obj})
		}
	}
	if len(op.Resources) == 0 && len(*l.diags) == before {
		l.errorf(op.Pos, "%s.file %s holds no resource", op.Type, ref)
	}
}
