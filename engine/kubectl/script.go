package kubectl

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/assert"
	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// This file interprets chainsaw script and command operations: kubectl
// calls (with their pipelines into jq, grep or another kubectl) run against
// the simulated cluster, producing the stdout, stderr and exit status a
// real shell would, then the operation's check runs with $error, $stdout
// and $stderr bound. What cannot be simulated honestly makes the test skip.

// scriptResult is what a script or command printed and how it ended.
type scriptResult struct {
	stdout, stderr strings.Builder
	status         int
}

// script runs a script or command operation.
func (r *runner) script(stepName string, op *scenario.Operation, bindings map[string]any) bool {
	list, err := r.parseScript(op, bindings)
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
	sh := &shell{r: r, stepName: stepName, op: op, res: &scriptResult{}, vars: map[string]string{}}
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
// environment ($NAMESPACE and the operation's env); a command operation is
// a script of one kubectl call.
func (r *runner) parseScript(op *scenario.Operation, bindings map[string]any) (scenario.List, error) {
	if op.Script == nil {
		return nil, fmt.Errorf("the operation has no content")
	}
	env := map[string]string{"NAMESPACE": r.opts.Namespace}
	if len(op.Script.Env) > 0 {
		b, err := scenario.ResolveBindings(bindings, op.Script.Env)
		if err != nil {
			return nil, fmt.Errorf("env: %w", err)
		}
		for _, e := range op.Script.Env {
			env[e.Name] = stringValue(b[e.Name])
		}
	}
	if op.Script.WorkDir != "" {
		return nil, &scenario.UnsupportedError{Reason: "sets workDir, which genplay does not simulate"}
	}
	if op.Type == scenario.OpCommand {
		args := make([]string, len(op.Script.Args))
		for i, a := range op.Script.Args {
			args[i] = os.Expand(a, func(k string) string { return env[k] })
		}
		c, err := scenario.ParseCommand(op.Script.Entrypoint, args)
		if err != nil {
			return nil, err
		}
		return scenario.List{{Pipelines: []scenario.Pipeline{{Line: 1, Kubectl: &c}}}}, nil
	}
	return scenario.ParseScriptEnv(op.Script.Content, env)
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
		return true
	}
	msg := strings.Join(failures, "; ")
	msg += "\n  stdout: " + quoteOutput(stdout) + "\n  stderr: " + quoteOutput(stderr)
	r.fail(op.Type + " failed: " + msg)
	return false
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

// precheck rejects, before anything runs, the commands genplay cannot
// simulate honestly, so a skipped test has no half-run script.
func (r *runner) precheck(c *scenario.Command) error {
	if err := r.precheckOne(c); err != nil {
		return err
	}
	if err := r.canRead(c); err != nil {
		return err
	}
	for _, st := range c.Pipe {
		if st.Kubectl != nil {
			if err := r.precheckOne(st.Kubectl); err != nil {
				return err
			}
			if err := r.canRead(st.Kubectl); err != nil {
				return err
			}
		}
		if st.Program == "jq" && !jqAvailable {
			return &scenario.UnsupportedError{Reason: "pipes into jq, which this build of genplay (the browser one) does not include; run it with the genplay CLI"}
		}
	}
	return nil
}

// canRead fails a command that reads a file (-f, --patch-file) where no
// files can be read: kubectl would print an error, and a check expecting
// one would pass without anything having been tried.
func (r *runner) canRead(c *scenario.Command) error {
	if r.opts.Files != nil {
		return nil
	}
	files := c.Files
	if c.PatchFile != "" {
		files = append(files[:len(files):len(files)], c.PatchFile)
	}
	for _, f := range files {
		if f != "-" && f != "/dev/stdin" {
			return fmt.Errorf("kubectl %s reads %s: %s", c.Verb, f, scenario.NoFiles)
		}
	}
	return nil
}

func (r *runner) precheckOne(c *scenario.Command) error {
	switch c.Verb {
	case "exec":
		if len(c.Pipe) > 0 {
			return &scenario.UnsupportedError{Reason: "pipes the output of kubectl exec, which genplay cannot produce (it runs no containers)"}
		}
	case "evict":
		if len(c.Pipe) > 0 {
			return &scenario.UnsupportedError{Reason: "pipes the output of kubectl evict (a plugin), which genplay does not reproduce"}
		}
	case "rollout":
		if err := r.rolloutTarget(c); err != nil {
			return err
		}
	case "describe":
		return &scenario.UnsupportedError{Reason: "runs kubectl describe, whose output genplay does not reproduce"}
	case "wait":
		if f := last(c.Flags["for"]); !strings.HasPrefix(f, "delete") && !strings.HasPrefix(f, "jsonpath=") {
			return &scenario.UnsupportedError{Reason: "waits for " + f + ": simulated objects have no controllers or kubelet to set status conditions"}
		}
	case "run":
		if len(c.ExecArgs) > 0 || c.Flags["rm"] != nil || c.Flags["stdin"] != nil || c.Flags["attach"] != nil {
			return &scenario.UnsupportedError{Reason: "runs a command in a container with kubectl run, which genplay cannot do (it runs no containers)"}
		}
	}
	if c.DryRun == "server" {
		return &scenario.UnsupportedError{Reason: "uses --dry-run=server, which genplay does not simulate"}
	}
	if c.As != "" && !slices.Contains([]string{"create", "apply", "delete", "get", "label", "annotate"}, c.Verb) {
		return &scenario.UnsupportedError{Reason: "impersonates " + c.As + " with kubectl " + c.Verb + ", which genplay simulates only for create, apply, delete, get, label and annotate"}
	}
	if c.Flags["as-group"] != nil {
		return &scenario.UnsupportedError{Reason: "impersonates groups (--as-group), which genplay does not simulate"}
	}
	if o := c.Output; o != "" && o != "json" && o != "yaml" && o != "name" && o != "wide" && !simpleJSONPath.MatchString(o) {
		return &scenario.UnsupportedError{Reason: "prints -o " + o + ", which genplay does not reproduce (only json, yaml, name and jsonpath={.a.b})"}
	}
	return nil
}

func last(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// pipeline runs one command with its pipe stages and appends the output to
// res; it returns the exit status of the last stage.
func (r *runner) pipeline(c *scenario.Command, res *scriptResult) (int, error) {
	out, errOut, code, err := r.kubectl(c, c.Stdin)
	if err != nil {
		return 0, err
	}
	if c.DiscardStderr {
		errOut = ""
	}
	if c.MergeStderr {
		out, errOut = errOut+out, ""
	}
	if c.DiscardStdout {
		out = ""
	}
	res.stderr.WriteString(errOut)
	for _, st := range c.Pipe {
		var o, e string
		switch st.Program {
		case "grep":
			o, code, err = grep(st, out)
		case "jq":
			o, e, code, err = runJQ(st, out, r.s.Budget())
		case "kubectl":
			o, e, code, err = r.kubectl(st.Kubectl, out)
		default:
			err = &scenario.UnsupportedError{Reason: "pipes into " + st.Program}
		}
		if err != nil {
			return 0, err
		}
		if st.DiscardStderr {
			e = ""
		}
		if st.MergeStderr {
			o, e = e+o, ""
		}
		if st.DiscardStdout {
			o = ""
		}
		res.stderr.WriteString(e)
		out = o
	}
	res.stdout.WriteString(out)
	return code, nil
}

// grep is grep(1) over text: exit 0 when a line matched, 1 otherwise.
func grep(st scenario.Stage, text string) (string, int, error) {
	pattern := st.Expr
	switch {
	case st.Options["F"]:
		pattern = regexp.QuoteMeta(pattern)
	case !st.Options["E"]:
		pattern = basicRegexp(pattern)
	}
	if st.Options["w"] {
		pattern = `(?:^|\W)(?:` + pattern + `)(?:\W|$)`
	}
	if st.Options["x"] {
		pattern = `^(?:` + pattern + `)$`
	}
	if st.Options["i"] {
		pattern = "(?i)" + pattern
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return "", 2, &scenario.UnsupportedError{Reason: fmt.Sprintf("greps for %q, a pattern genplay cannot translate: %v", st.Expr, err)}
	}
	var out strings.Builder
	n := 0
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if text == "" {
		lines = nil
	}
	for _, line := range lines {
		if re.MatchString(line) != st.Options["v"] {
			n++
			if !st.Options["q"] && !st.Options["c"] {
				out.WriteString(line + "\n")
			}
		}
	}
	if st.Options["c"] && !st.Options["q"] {
		fmt.Fprintf(&out, "%d\n", n)
	}
	if n == 0 {
		return out.String(), 1, nil
	}
	return out.String(), 0, nil
}

// basicRegexp turns a POSIX basic regular expression (GNU flavour) into Go
// syntax: + ? | ( ) { } are literal unless escaped.
func basicRegexp(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\' && i+1 < len(p) && strings.IndexByte("+?|(){}", p[i+1]) >= 0:
			b.WriteByte(p[i+1])
			i++
		case strings.IndexByte("+?|(){}", c) >= 0:
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
