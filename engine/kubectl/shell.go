package kubectl

import (
	"errors"
	"strconv"
	"strings"

	"github.com/genplay/genplay/engine/scenario"
	"github.com/genplay/genplay/engine/timeline"
)

// shell runs a parsed script as sh would: lists in order, && and || on
// the status so far, ! negating, if choosing a branch, exit ending the
// script, and set -e ending it at a failure outside a condition. Each
// kubectl call is one timeline step; builtins make none.
type shell struct {
	r        *runner
	stepName string
	op       *scenario.Operation
	res      *scriptResult
	status   int
	errexit  bool
	last     *timeline.Step
	// exited: the script ended (exit, set -e); its status is status.
	exited bool
	// stopped: the operation ended without a status (skipped, failed, a
	// limit); the runner's outcome says why.
	stopped bool
}

// done reports whether nothing more of the script runs.
func (sh *shell) done() bool { return sh.exited || sh.stopped }

// list runs l; tested marks a list whose status a condition reads, where
// set -e does not apply.
func (sh *shell) list(l scenario.List, tested bool) {
	for _, ao := range l {
		sh.andOr(ao, tested)
		if sh.done() {
			return
		}
	}
}

func (sh *shell) andOr(ao scenario.AndOr, tested bool) {
	for i := range ao.Pipelines {
		if i > 0 && (ao.Ops[i-1] == "&&") != (sh.status == 0) {
			continue
		}
		last := i == len(ao.Pipelines)-1
		sh.pipeline(&ao.Pipelines[i], tested || !last)
		if sh.done() {
			return
		}
	}
}

func (sh *shell) pipeline(p *scenario.Pipeline, tested bool) {
	switch {
	case p.Kubectl != nil:
		sh.kubectl(p.Kubectl)
	case p.Builtin != nil:
		sh.builtin(p.Builtin)
	case p.If != nil:
		sh.ifClause(p.If, tested)
	}
	if sh.done() {
		return
	}
	if p.Negate {
		sh.status = boolStatus(sh.status != 0)
		return
	}
	if sh.status != 0 && sh.errexit && !tested {
		sh.exited = true
	}
}

func (sh *shell) ifClause(f *scenario.If, tested bool) {
	for i, cond := range f.Conds {
		sh.list(cond, true)
		if sh.done() {
			return
		}
		if sh.status == 0 {
			sh.list(f.Bodies[i], tested)
			return
		}
	}
	if f.Else != nil {
		sh.list(f.Else, tested)
		return
	}
	sh.status = 0 // no branch ran
}

func (sh *shell) builtin(b *scenario.Builtin) {
	switch b.Name {
	case "true", ":":
		sh.status = 0
	case "false":
		sh.status = 1
	case "exit":
		if len(b.Args) == 1 {
			sh.status, _ = strconv.Atoi(b.Args[0]) // checked by the parser
		}
		sh.exited = true
	case "set":
		for _, a := range b.Args {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "e") {
				sh.errexit = true
			}
		}
		sh.status = 0
	case "echo":
		text := strings.Join(b.Args, " ") + "\n"
		if len(b.Args) > 0 && b.Args[0] == "-n" {
			text = strings.Join(b.Args[1:], " ")
		}
		switch {
		case b.Discard:
		case b.ToStderr:
			sh.res.stderr.WriteString(text)
		default:
			sh.res.stdout.WriteString(text)
		}
		sh.status = 0
	}
}

// kubectl runs one kubectl call (with its pipe stages) as a timeline step.
func (sh *shell) kubectl(c *scenario.Command) {
	r := sh.r
	if r.s.Limited(sh.op.Pos) {
		sh.stopped = true
		return
	}
	r.s.Begin(sh.stepName, sh.op.Type, c.Text)
	code, err := r.pipeline(c, sh.res)
	if err != nil {
		sh.stopped = true
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			r.s.End()
			if u.Line == 0 {
				u.Line = c.Line
			}
			r.skip(sh.op, u)
			return
		}
		r.scriptFailed(sh.op, err)
		return
	}
	sh.status = code
	sh.last = r.s.End()
}

func boolStatus(ok bool) int {
	if ok {
		return 0
	}
	return 1
}
