package scenario

import (
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/resource"
	"github.com/genplay/genplay/engine/source"
)

// Use is a step's `use:` block, resolved by Load.
type Use struct {
	Template string
	With     []Binding
	Pos      source.Pos
}

// operation fields by type, as chainsaw's v1alpha1 API defines them.
var (
	opBase      = []string{"description", "continueOnError", "compiler"}
	resourceOps = []string{"bindings", "cluster", "clusters", "dryRun", "expect", "outputs", "file", "resource", "template", "timeout"}
	checkOps    = []string{"bindings", "file", "resource", "template", "cluster", "clusters", "timeout"}
	opFields    = map[string][]string{
		OpApply:    resourceOps,
		OpCreate:   resourceOps,
		OpUpdate:   resourceOps,
		OpPatch:    append(append([]string{}, resourceOps...), "subresource"),
		OpAssert:   checkOps,
		OpError:    checkOps,
		OpCommand:  {"bindings", "check", "cluster", "clusters", "env", "skipLogOutput", "skipCommandOutput", "outputs", "timeout", "entrypoint", "args", "workDir"},
		OpScript:   {"bindings", "check", "cluster", "clusters", "env", "skipLogOutput", "skipCommandOutput", "outputs", "timeout", "content", "shell", "shellArgs", "workDir"},
		OpDelete:   {"bindings", "cluster", "clusters", "expect", "timeout", "template", "file", "ref", "deletionPropagationPolicy"},
		OpDescribe: {"cluster", "clusters", "apiVersion", "kind", "namespace", "name", "selector", "timeout", "showEvents"},
		OpEvents:   {"cluster", "clusters", "format", "namespace", "name", "selector", "timeout"},
		OpGet:      {"cluster", "clusters", "format", "apiVersion", "kind", "namespace", "name", "selector", "timeout"},
		OpPodLogs:  {"cluster", "clusters", "namespace", "name", "selector", "timeout", "container", "tail"},
		OpProxy:    {"cluster", "clusters", "outputs", "timeout", "name", "namespace", "apiVersion", "kind", "port", "path"},
		OpSleep:    {"duration"},
		OpWait:     {"timeout", "format", "cluster", "clusters", "apiVersion", "kind", "namespace", "name", "selector", "for"},
	}
	// modelled are the fields Operation holds; the others go to Extra.
	modelled = map[string]bool{
		"bindings": true, "expect": true, "outputs": true, "file": true, "resource": true, "template": true,
		"timeout": true, "dryRun": true, "check": true, "env": true, "entrypoint": true, "args": true,
		"content": true, "workDir": true, "ref": true, "duration": true, "apiVersion": true, "kind": true,
		"namespace": true, "name": true, "selector": true, "for": true,
	}
	tryOps     = []string{OpApply, OpAssert, OpCommand, OpCreate, OpDelete, OpDescribe, OpError, OpEvents, OpGet, OpPatch, OpPodLogs, OpProxy, OpScript, OpSleep, OpUpdate, OpWait}
	finallyOps = []string{OpPodLogs, OpEvents, OpDescribe, OpWait, OpGet, OpDelete, OpCommand, OpScript, OpSleep}

	testFields = []string{"description", "failFast", "timeouts", "cluster", "clusters", "skip", "concurrent", "skipDelete",
		"template", "compiler", "namespace", "namespaceTemplate", "namespaceTemplateCompiler", "fastNamespaceDeletion",
		"scenarios", "bindings", "steps", "catch", "forceTerminationGracePeriod", "delayBeforeCleanup", "deletionPropagationPolicy"}
	stepFields = []string{"name", "use", "description", "timeouts", "deletionPropagationPolicy", "cluster", "clusters",
		"skipDelete", "template", "compiler", "bindings", "try", "catch", "finally", "cleanup"}

	testRootFields = []string{"apiVersion", "kind", "metadata", "spec"}
	useFields      = []string{"template", "with"}
	withFields     = []string{"bindings"}
	bindingFields  = []string{"name", "value", "compiler"}
	refFields      = []string{"apiVersion", "kind", "namespace", "name", "labels"}
	waitForFields  = []string{"creation", "deletion", "condition", "jsonPath"}
	expectFields   = []string{"match", "check"}
	outputFields   = []string{"name", "value", "match", "compiler"}
	timeoutsFields = []string{"apply", "assert", "cleanup", "delete", "error", "exec"}

	bindingName = regexp.MustCompile(`^(?:\w+|\(.+\))$`)
)

// Parse reads the chainsaw Tests of one file. `file:` references and step
// templates (`use:`) are left for Load to resolve: operations keep File and
// steps keep Use.
func Parse(file string, data []byte) ([]*Test, source.Diagnostics) {
	return parse(file, data, nil)
}

// parse is Parse under a chainsaw Configuration (nil: chainsaw's defaults).
func parse(file string, data []byte, config *Configuration) ([]*Test, source.Diagnostics) {
	docs, diags := source.Parse(file, data)
	var tests []*Test
	for _, doc := range docs {
		if doc.Value == nil {
			continue
		}
		d := decoder{doc: doc, diags: &diags, noTemplating: config != nil && !config.Templating}
		root, ok := d.object(nil, doc.Value, "a chainsaw Test")
		if !ok {
			continue
		}
		apiVersion, kind := root.str("apiVersion"), root.str("kind")
		if apiVersion != APIVersion || kind != "Test" {
			d.errorf(nil, "expected apiVersion %s and kind Test, got apiVersion %q and kind %q", APIVersion, apiVersion, kind)
			continue
		}
		if t := parseTest(d, root); t != nil {
			tests = append(tests, t)
		}
	}
	if len(tests) == 0 && !hasErrors(diags) {
		diags = append(diags, source.Diagnostic{Pos: source.Pos{File: file, Line: 1, Col: 1}, Severity: source.SeverityError,
			Message: "found no chainsaw Test (apiVersion " + APIVersion + ", kind Test)"})
	}
	return tests, diags
}

func hasErrors(diags source.Diagnostics) bool { return diags.HasErrors() }

func parseTest(d decoder, root node) *Test {
	root.only("a Test", testRootFields...)
	t := &Test{File: d.doc.File, Pos: d.pos(nil)}
	if md, ok := d.object(root.at("metadata"), root.m["metadata"], "metadata"); ok {
		t.Name = md.str("name")
	}
	if t.Name == "" {
		d.errorf(root.at("metadata"), "metadata.name is required")
	}
	spec, ok := d.object(root.at("spec"), root.m["spec"], "spec")
	if !ok {
		return t
	}
	spec.only("a Test spec", testFields...)
	t.Description = spec.str("description")
	t.Namespace = spec.str("namespace")
	t.Skip = boolOr(spec.boolean("skip"), false)
	t.Timeouts = spec.timeouts("timeouts")
	t.Bindings = parseBindings(spec, "bindings")
	template := boolOr(spec.boolean("template"), !d.noTemplating)
	t.templating = template
	t.Catch = parseOperations(spec, "catch", finallyOps, template)
	steps := spec.list("steps")
	t.Steps = make([]Step, 0, len(steps))
	for i, v := range steps {
		s, ok := d.object(child(spec.at("steps"), i), v, "a step")
		if !ok {
			continue
		}
		t.Steps = append(t.Steps, parseStep(s, template))
	}
	if !spec.has("steps") {
		d.errorf(spec.path, "spec.steps is required")
	}
	return t
}

func parseStep(s node, testTemplate bool) Step {
	s.only("a step", stepFields...)
	own := s.boolean("template")
	template := boolOr(own, testTemplate)
	step := Step{
		templating:  own,
		Name:        s.str("name"),
		Description: s.str("description"),
		Pos:         s.d.pos(s.path),
		Bindings:    parseBindings(s, "bindings"),
		Timeouts:    s.timeouts("timeouts"),
		Try:         parseOperations(s, "try", tryOps, template),
		Catch:       parseOperations(s, "catch", finallyOps, template),
		Finally:     parseOperations(s, "finally", finallyOps, template),
		Cleanup:     parseOperations(s, "cleanup", finallyOps, template),
	}
	if v, ok := s.m["use"]; ok {
		if u, ok := s.d.object(s.at("use"), v, "use"); ok {
			u.only("use", useFields...)
			step.Use = &Use{Template: u.str("template"), Pos: s.d.pos(u.at("template"))}
			if step.Use.Template == "" {
				s.d.errorf(u.path, "use.template is required")
			}
			if w, ok := u.m["with"]; ok {
				if with, ok := s.d.object(u.at("with"), w, "use.with"); ok {
					with.only("use.with", withFields...)
					step.Use.With = parseBindings(with, "bindings")
				}
			}
		}
	} else if !s.has("try") {
		s.d.errorf(s.path, "a step needs try (or use)")
	}
	return step
}

func boolOr(b *bool, def bool) bool {
	if b == nil {
		return def
	}
	return *b
}

func parseBindings(n node, key string) []Binding {
	var out []Binding
	for i, v := range n.list(key) {
		b, ok := n.d.object(child(n.path, key, i), v, "a binding")
		if !ok {
			continue
		}
		b.only("a binding", bindingFields...)
		name := b.str("name")
		if !bindingName.MatchString(name) {
			n.d.errorf(b.at("name"), "invalid binding name %q (letters, digits and _ only)", name)
		}
		if !b.has("value") {
			n.d.errorf(b.path, "binding %q has no value", name)
		}
		out = append(out, Binding{Name: name, Value: b.m["value"], Pos: n.d.pos(b.path)})
	}
	return out
}

func parseOperations(n node, key string, allowed []string, template bool) []Operation {
	var out []Operation
	for i, v := range n.list(key) {
		o, ok := n.d.object(child(n.path, key, i), v, "an operation")
		if !ok {
			continue
		}
		if op, ok := parseOperation(o, key, allowed, template); ok {
			out = append(out, op)
		}
	}
	return out
}

func parseOperation(o node, section string, allowed []string, template bool) (Operation, bool) {
	var types []string
	for _, k := range sortedKeys(o.m) {
		if contains(opBase, k) {
			continue
		}
		if contains(allowed, k) {
			types = append(types, k)
			continue
		}
		if _, known := opFields[k]; known {
			o.d.errorf(o.at(k), "%s operations are not allowed in %s (allowed: %s)", k, section, strings.Join(allowed, ", "))
		} else {
			o.d.errorf(o.at(k), "unknown operation %q (allowed in %s: %s)", k, section, strings.Join(allowed, ", "))
		}
		return Operation{}, false
	}
	if len(types) != 1 {
		if len(types) == 0 {
			o.d.errorf(o.path, "an operation needs one of: %s", strings.Join(allowed, ", "))
		} else {
			o.d.errorf(o.path, "an operation holds exactly one of %s, got %s", strings.Join(allowed, ", "), strings.Join(types, " and "))
		}
		return Operation{}, false
	}
	typ := types[0]
	op := Operation{
		Type:            typ,
		Description:     o.str("description"),
		ContinueOnError: boolOr(o.boolean("continueOnError"), false),
		Pos:             o.d.pos(o.at(typ)),
	}
	b, ok := o.d.object(o.at(typ), o.m[typ], typ)
	if !ok {
		return Operation{}, false
	}
	b.only("a "+typ+" operation", opFields[typ]...)
	op.Template = boolOr(b.boolean("template"), template)
	op.Timeout = b.duration("timeout")
	op.DryRun = boolOr(b.boolean("dryRun"), false)
	op.Bindings = parseBindings(b, "bindings")
	op.File = b.str("file")
	for _, k := range sortedKeys(b.m) {
		if !modelled[k] {
			if op.Extra == nil {
				op.Extra = map[string]any{}
			}
			op.Extra[k] = b.m[k]
		}
	}
	if v, ok := b.m["resource"]; ok {
		if obj, ok := b.d.object(b.at("resource"), v, "resource"); ok {
			op.Resources = []Resource{{Doc: b.d.doc, Path: obj.path, Object: resource.Object(obj.m)}}
		}
	}
	switch typ {
	case OpApply, OpCreate, OpUpdate, OpPatch, OpAssert, OpError:
		if op.File == "" && !b.has("resource") {
			b.d.errorf(b.path, "%s needs file or resource", typ)
		} else if op.File != "" && b.has("resource") {
			b.d.errorf(b.path, "%s takes file or resource, not both", typ)
		}
	case OpDelete:
		if v, ok := b.m["ref"]; ok {
			if r, ok := b.d.object(b.at("ref"), v, "ref"); ok {
				r.only("delete.ref", refFields...)
				op.Ref = &ObjectRef{APIVersion: r.str("apiVersion"), Kind: r.str("kind"), Namespace: r.str("namespace"),
					Name: r.str("name"), Labels: r.stringMap("labels")}
				if op.Ref.APIVersion == "" || op.Ref.Kind == "" {
					b.d.errorf(r.path, "delete.ref needs apiVersion and kind")
				}
			}
		}
		if op.File == "" && op.Ref == nil {
			b.d.errorf(b.path, "delete needs file or ref")
		}
	case OpWait, OpGet, OpDescribe, OpEvents, OpPodLogs, OpProxy:
		op.Ref = &ObjectRef{APIVersion: b.str("apiVersion"), Kind: b.str("kind"), Namespace: b.str("namespace"),
			Name: b.str("name"), Selector: b.str("selector")}
		if v, ok := b.m["for"]; ok {
			if f, ok := b.d.object(b.at("for"), v, "wait.for"); ok {
				f.only("wait.for", waitForFields...)
				op.Wait = f.m
			}
		} else if typ == OpWait {
			b.d.errorf(b.path, "wait needs for")
		}
	case OpSleep:
		op.Duration = b.duration("duration")
		if !b.has("duration") {
			b.d.errorf(b.path, "sleep needs duration")
		}
	case OpScript, OpCommand:
		op.Script = &Script{
			Content: b.str("content"), Entrypoint: b.str("entrypoint"), Args: b.strings("args"),
			Env: parseBindings(b, "env"), Check: b.m["check"], Timeout: op.Timeout, WorkDir: b.str("workDir"),
		}
		if typ == OpScript && op.Script.Content == "" {
			b.d.errorf(b.path, "script needs content")
		}
		if typ == OpCommand && op.Script.Entrypoint == "" {
			b.d.errorf(b.path, "command needs entrypoint")
		}
	}
	for i, v := range b.list("expect") {
		e, ok := b.d.object(child(b.path, "expect", i), v, "an expect entry")
		if !ok {
			continue
		}
		e.only("an expect entry", expectFields...)
		if !e.has("check") {
			b.d.errorf(e.path, "expect needs check")
		}
		op.Expect = append(op.Expect, Expect{Match: e.m["match"], Check: e.m["check"], Pos: b.d.pos(e.path)})
	}
	for i, v := range b.list("outputs") {
		e, ok := b.d.object(child(b.path, "outputs", i), v, "an output")
		if !ok {
			continue
		}
		e.only("an output", outputFields...)
		op.Outputs = append(op.Outputs, Output{Name: e.str("name"), Value: e.m["value"], Match: e.m["match"]})
	}
	return op, true
}

func contains(list []string, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
