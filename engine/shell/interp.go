package shell

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"maps"

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
	// vars are the variables the script set.
	vars map[string]string
	// loops is how deep in loops the shell is; breaking and continuing
	// end the current iteration (break also the loop).
	loops                int
	breaking, continuing bool
	// iterations counts loop iterations and builtins run, against
	// maxShellWork.
	iterations int
	// exited: the script ended (exit, set -e); its status is status.
	exited bool
	// stopped: the operation ended without a status (skipped, failed, a
	// limit); the runner's outcome says why.
	stopped bool
}

// maxShellWork bounds the loop iterations of one script, so a loop that
// runs no kubectl (which the run's limits count) still ends;
// maxShellBytes bounds what a script prints and holds in a variable.
const (
	maxShellWork  = 10000
	maxShellBytes = 4 << 20
)

// done reports whether nothing more of the current list runs.
func (sh *shell) done() bool { return sh.exited || sh.stopped || sh.breaking || sh.continuing }

// fail stops the script with an error at the operation.
func (sh *shell) fail(err error) {
	sh.stopped = true
	sh.r.scriptFailed(sh.op, err)
}

// list runs l; tested marks a list whose status a condition reads, where
// set -e does not apply.
func (sh *shell) list(l List, tested bool) {
	for _, ao := range l {
		sh.andOr(ao, tested)
		if sh.done() {
			return
		}
	}
}

func (sh *shell) andOr(ao AndOr, tested bool) {
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

func (sh *shell) pipeline(p *Pipeline, tested bool) {
	switch {
	case p.Kubectl != nil:
		sh.kubectl(p.Kubectl)
	case p.Builtin != nil:
		sh.builtin(p.Builtin)
	case p.Utils != nil:
		sh.utils(p.Utils)
	case p.Assign != nil:
		sh.assign(p.Assign)
	case p.If != nil:
		sh.ifClause(p.If, tested)
	case p.For != nil:
		sh.forLoop(p.For, tested)
	case p.While != nil:
		sh.whileLoop(p.While, tested)
	case p.Deferred != nil:
		sh.deferred(p.Deferred)
	}
	if n := sh.res.stdout.Len() + sh.res.stderr.Len(); n > maxShellBytes && !sh.stopped {
		sh.fail(fmt.Errorf("line %d: the script printed more than %d bytes; genplay stops it", p.Line, maxShellBytes))
		return
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

func (sh *shell) ifClause(f *If, tested bool) {
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

// work counts one loop iteration; past maxShellWork the script fails.
func (sh *shell) work() bool {
	if sh.iterations++; sh.iterations > maxShellWork {
		sh.fail(fmt.Errorf("the script's loops ran more than %d times; genplay stops it", maxShellWork))
		return false
	}
	return true
}

func (sh *shell) forLoop(f *For, tested bool) {
	var items []string
	for _, w := range f.Words {
		fields, ok := sh.expand(w)
		if !ok {
			return
		}
		items = append(items, fields...)
	}
	sh.status = 0
	sh.loops++
	defer func() { sh.loops-- }()
	for _, item := range items {
		if !sh.work() {
			return
		}
		sh.vars[f.Name] = item
		sh.list(f.Body, tested)
		sh.continuing = false
		if sh.breaking {
			sh.breaking = false
			return
		}
		if sh.done() {
			return
		}
	}
}

func (sh *shell) whileLoop(w *While, tested bool) {
	sh.loops++
	defer func() { sh.loops-- }()
	status := 0
	for {
		if !sh.work() {
			return
		}
		sh.list(w.Cond, true)
		if sh.done() {
			sh.breaking, sh.continuing = false, false
			break
		}
		if (sh.status == 0) == w.Until {
			break
		}
		sh.list(w.Body, tested)
		status = sh.status
		sh.continuing = false
		if sh.breaking {
			sh.breaking = false
			break
		}
		if sh.done() {
			return
		}
	}
	if !sh.exited && !sh.stopped {
		sh.status = status
	}
}

func (sh *shell) assign(a *Assign) {
	sh.status = 0 // or the status of the last substitution in the value
	v, ok := sh.concat(a.Value)
	if !ok {
		return
	}
	if len(v) > maxShellBytes {
		sh.fail(fmt.Errorf("the variable %s would hold more than %d bytes; genplay stops the script", a.Name, maxShellBytes))
		return
	}
	sh.vars[a.Name] = v
}

// deferred expands a command's words, then runs it.
func (sh *shell) deferred(d *Deferred) {
	words := d.Words()
	expanded := make([][]string, len(words))
	for i, stage := range words {
		for _, w := range stage {
			fields, ok := sh.expand(w)
			if !ok {
				return
			}
			expanded[i] = append(expanded[i], fields...)
		}
	}
	var texts []string
	for _, w := range d.Texts() {
		v, ok := sh.concat(w)
		if !ok {
			return
		}
		texts = append(texts, v)
	}
	pl, err := d.Resolve(expanded, texts)
	if err == nil && pl.Kubectl != nil {
		err = sh.r.precheck(pl.Kubectl)
	}
	if err == nil && pl.Utils != nil && pl.Utils.Kubectl != nil {
		err = sh.r.precheck(pl.Utils.Kubectl)
	}
	if err != nil {
		var u *scenario.UnsupportedError
		if errors.As(err, &u) {
			sh.stopped = true
			if u.Line == 0 {
				u.Line = d.Line
			}
			sh.r.skip(sh.op, u)
			return
		}
		sh.fail(fmt.Errorf("line %d: %w", d.Line, err))
		return
	}
	switch {
	case pl.Kubectl != nil:
		sh.kubectl(pl.Kubectl)
	case pl.Utils != nil:
		sh.utils(pl.Utils)
	default:
		sh.builtin(pl.Builtin)
	}
}

// concat is a word's value without splitting (an assignment's).
func (sh *shell) concat(w Word) (string, bool) {
	var b strings.Builder
	for _, p := range w {
		v, ok := sh.partValue(p)
		if !ok {
			return "", false
		}
		b.WriteString(v)
	}
	return b.String(), true
}

// expand is a word's fields: unquoted variables and substitutions are
// split on white space, as sh splits them with the default IFS.
func (sh *shell) expand(w Word) ([]string, bool) {
	var fields []string
	var cur strings.Builder
	have := false
	flush := func() {
		if have {
			fields = append(fields, cur.String())
		}
		cur.Reset()
		have = false
	}
	for _, p := range w {
		v, ok := sh.partValue(p)
		if !ok {
			return nil, false
		}
		if p.Quoted || (p.Var == "" && p.Sub == nil) {
			cur.WriteString(v)
			have = true
			continue
		}
		pieces := strings.Fields(v)
		if len(pieces) == 0 {
			if v != "" {
				flush()
			}
			continue
		}
		if strings.IndexAny(v[:1], " \t\n") == 0 {
			flush()
		}
		for i, piece := range pieces {
			if i > 0 {
				flush()
			}
			cur.WriteString(piece)
			have = true
		}
		if strings.IndexAny(v[len(v)-1:], " \t\n") == 0 {
			flush()
		}
	}
	flush()
	return fields, true
}

// partValue is the value of one part of a word.
func (sh *shell) partValue(p WordPart) (string, bool) {
	switch {
	case p.Var == "?":
		return strconv.Itoa(sh.status), true
	case p.Var != "":
		return sh.vars[p.Var], true
	case p.Sub != nil:
		return sh.substitute(p.Sub)
	}
	return p.Lit, true
}

// substitute runs a command substitution as a subshell: what it prints
// on stdout, less trailing newlines, is the value; its stderr is the
// script's. Its status becomes the shell's (as for NAME=$(...)).
func (sh *shell) substitute(l List) (string, bool) {
	sub := &shell{r: sh.r, stepName: sh.stepName, op: sh.op, res: &scriptResult{}, errexit: sh.errexit,
		vars: maps.Clone(sh.vars), iterations: sh.iterations}
	sub.list(l, false)
	sh.iterations = sub.iterations
	sh.res.stderr.WriteString(sub.res.stderr.String())
	if sub.last != nil {
		sh.last = sub.last
	}
	if sub.stopped {
		sh.stopped = true
		return "", false
	}
	sh.status = sub.status
	return strings.TrimRight(sub.res.stdout.String(), "\n"), true
}

// kubectl runs one kubectl call (with its pipe stages) as a timeline step.
func (sh *shell) kubectl(c *Command) {
	r := sh.r
	if r.s.Limited(sh.op.Pos) {
		sh.stopped = true
		return
	}
	r.s.Begin(sh.stepName, sh.op.Type, c.Text)
	r.vars = sh.vars
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
