package shell

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// A chainsaw script or command operation: parsed with chainsaw's
// environment, checked before anything of it runs, interpreted (interp.go),
// then its check runs with $error, $stdout and $stderr bound. What cannot
// be simulated honestly makes the test skip.

// scriptResult is what a script or command printed and how it ended.
type scriptResult struct {
	stdout, stderr strings.Builder
	status         int
}

// script runs a script or command operation.
func (r *runner) script(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	list, vars, err := r.parseScript(op, bindings)
	if err != nil {
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			r.skip(op, u)
			return false
		}
		r.s.Begin(stepName, op.Type, op.Type+" (not understood)")
		r.s.Current().Error = err.Error()
		r.fail(fmt.Sprintf("%s: %v", op.Type, err))
		r.s.End()
		return false
	}
	cmds := list.Commands()
	r.writesFiles = list.writesFiles()
	for _, c := range cmds {
		if err := r.precheck(c); err != nil {
			var u *scenario.UnsupportedError
			if errors.As(err, &u) {
				if u.Line == 0 {
					u.Line = c.Line
				}
				r.skip(op, u)
				return false
			}
			r.s.Begin(stepName, op.Type, c.Text)
			r.s.Current().Error = err.Error()
			r.fail(fmt.Sprintf("%s: line %d: %v", op.Type, c.Line, err))
			r.s.End()
			return false
		}
	}
	if usesOutputOf("exec", op, cmds) {
		r.skip(op, &scenario.UnsupportedError{Reason: "checks the output of kubectl exec, which genplay cannot produce (it runs no containers)"})
		return false
	}
	if usesOutputOf("evict", op, cmds) {
		r.skip(op, &scenario.UnsupportedError{Reason: "checks the output of kubectl evict, a plugin whose output genplay does not reproduce"})
		return false
	}
	sh := &shell{r: r, stepName: stepName, op: op, res: &scriptResult{}, vars: vars}
	sh.list(list, false)
	if sh.stopped {
		return false
	}
	sh.res.status = sh.status
	return r.scriptCheck(op, bindings, sh.res, sh.last)
}

// skip marks the test skipped because of an operation genplay cannot run.
func (r *runner) skip(op *scenario.Operation, u *scenario.UnsupportedError) {
	where := op.Pos.String()
	if u.Line > 0 && op.Type == scenario.OpScript {
		where += fmt.Sprintf(" (script line %d)", u.Line)
	}
	r.out.Skipped = fmt.Sprintf("%s: the %s %s", where, op.Type, u.Reason)
}

func (r *runner) scriptFailed(op *scenario.Operation, err error) bool {
	if r.s.Current() != nil {
		r.s.Current().Error = err.Error()
		r.s.End()
	}
	r.fail(fmt.Sprintf("%s: %v", op.Type, err))
	return false
}

// parseScript turns the operation into a script, with chainsaw's
// environment ($NAMESPACE, the operation's env, and $KUBECONFIG, the
// kubeconfig chainsaw writes for each operation); a command operation is
// a script of one kubectl call. vars are the script's variables before it
// runs: those of the environment it assigns (export KUBECONFIG=./temp),
// which expand when they are read, not when the script is parsed.
func (r *runner) parseScript(op *scenario.Operation, bindings map[string]any) (List, map[string]string, error) {
	vars := map[string]string{}
	if op.Script == nil {
		return nil, vars, fmt.Errorf("the operation has no content")
	}
	env := map[string]string{"NAMESPACE": r.opts.Namespace}
	if len(op.Script.Env) > 0 {
		b, err := scenario.ResolveBindings(bindings, op.Script.Env)
		if err != nil {
			return nil, vars, fmt.Errorf("env: %w", err)
		}
		for _, e := range op.Script.Env {
			env[e.Name] = stringValue(b[e.Name])
		}
	}
	if op.Script.WorkDir != "" {
		return nil, vars, &scenario.UnsupportedError{Reason: "sets workDir, which genplay does not simulate"}
	}
	if path := r.writeKubeconfig(); path != "" {
		env["KUBECONFIG"] = path
	}
	r.env = env
	if op.Type == scenario.OpCommand {
		args := make([]string, len(op.Script.Args))
		for i, a := range op.Script.Args {
			args[i] = os.Expand(a, func(k string) string { return env[k] })
		}
		c, err := ParseCommand(op.Script.Entrypoint, args)
		if err != nil {
			return nil, vars, err
		}
		return List{{Pipelines: []Pipeline{{Line: 1, Kubectl: &c}}}}, vars, nil
	}
	list, names, err := parseScriptEnv(op.Script.Content, env)
	if err != nil {
		return nil, vars, err
	}
	assigned := false
	for name := range names.set {
		if v, ok := env[name]; ok {
			vars[name] = v
			assigned = true
		}
	}
	if !assigned {
		return list, vars, nil
	}
	// Parse again with the variables the script assigns left to run time.
	rest := map[string]string{}
	for k, v := range env {
		if _, ok := vars[k]; !ok {
			rest[k] = v
		}
	}
	list, _, err = parseScriptEnv(op.Script.Content, rest)
	return list, vars, err
}

func stringValue(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}

// scriptCheck applies the operation's check (or, without one, requires
// success), as chainsaw does.
func (r *runner) scriptCheck(op *scenario.Operation, bindings map[string]any, res *scriptResult, last *timeline.Step) bool {
	var errVal any
	if res.status != 0 {
		errVal = fmt.Sprintf("exit status %d", res.status)
	}
	stdout, stderr := res.stdout.String(), res.stderr.String()
	var failures []string
	if op.Script.Check == nil {
		if errVal != nil {
			failures = append(failures, fmt.Sprintf("the %s failed (%s)", op.Type, errVal))
		}
	} else {
		b := maps.Clone(bindings)
		if b == nil {
			b = map[string]any{}
		}
		b["error"], b["stdout"], b["stderr"] = errVal, stdout, stderr
		failures = assert.Match(op.Script.Check, nil, b)
	}
	if last != nil {
		last.Check = &timeline.Check{Passed: len(failures) == 0, Failures: failures}
		if errVal != nil {
			last.Error = fmt.Sprint(errVal)
		}
	}
	if len(failures) == 0 {
		b := maps.Clone(bindings)
		if b == nil {
			b = map[string]any{}
		}
		b["error"], b["stdout"], b["stderr"] = errVal, stdout, stderr
		return r.outputs(op, b)
	}
	msg := strings.Join(failures, "; ")
	msg += "\n  stdout: " + quoteOutput(stdout) + "\n  stderr: " + quoteOutput(stderr)
	r.fail(op.Type + " failed: " + msg)
	return false
}

// outputs evaluates the operation's outputs, as chainsaw does after an
// operation succeeded: each whose match holds (or has none) binds its
// value, evaluated with $stdout, $stderr and $error, for the operations
// after it in the step.
func (r *runner) outputs(op *scenario.Operation, b map[string]any) bool {
	for _, o := range op.Outputs {
		if o.Match != nil && len(assert.Match(o.Match, nil, b)) > 0 {
			continue
		}
		out, err := scenario.ResolveBindings(b, []scenario.Binding{{Name: o.Name, Value: o.Value}})
		if err != nil {
			r.fail(op.Type + " failed: output " + o.Name + ": " + err.Error())
			return false
		}
		if r.out.Outputs == nil {
			r.out.Outputs = map[string]any{}
		}
		r.out.Outputs[o.Name] = out[o.Name]
		b[o.Name] = out[o.Name]
	}
	return true
}

func quoteOutput(s string) string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return "(empty)"
	}
	if len(s) > 2000 {
		s = s[:2000] + "…"
	}
	return strings.ReplaceAll(s, "\n", "\n          ")
}

// usesOutputOf reports whether an operation that runs kubectl verb checks
// what it printed.
func usesOutputOf(verb string, op *scenario.Operation, cmds []*Command) bool {
	uses := false
	for _, c := range cmds {
		uses = uses || c.Verb == verb
	}
	if !uses || (op.Script.Check == nil && len(op.Outputs) == 0) {
		return false
	}
	b, err := json.Marshal([]any{op.Script.Check, op.Outputs})
	return err != nil || strings.Contains(string(b), "$stdout") || strings.Contains(string(b), "$stderr")
}
