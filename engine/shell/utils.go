package shell

import (
	"fmt"
	"path"
	"strings"
)

// The common utilities chainsaw scripts use, interpreted over the test's
// scratch folder (scratch.go): cat, echo, printf, rm, mkdir, touch, cp, mv,
// ls, base64, tr, sed, grep, head, tail, wc, cut, sort, uniq and tee, with
// pipes between them and into kubectl, and redirections to and from files
// (> >> <). Each is GNU coreutils' behaviour for the options genplay reads;
// an option it does not read makes the script unsupported when it is
// parsed, before anything runs. This file is the registry and the
// pipelines; utils_files.go and utils_text.go are the utilities.

// Utils is a pipeline of utilities, maybe ending in a kubectl call that
// reads what they print (cat f | kubectl apply -f -).
type Utils struct {
	Line   int
	Text   string
	Stages []UtilStage
	// Kubectl reads the last stage's output; its own Pipe follows.
	Kubectl *Command
}

// UtilStage is one utility of a pipeline with its redirections.
type UtilStage struct {
	Program string
	Args    []string
	// Stdin is a heredoc; In a file redirected in (<).
	Stdin *string
	In    string
	// Out is the file stdout goes to (> or, with Append, >>).
	Out    string
	Append bool
	// MergeStderr (2>&1), DiscardStdout and DiscardStderr (/dev/null).
	MergeStderr, DiscardStdout, DiscardStderr bool
}

// utilSpec checks a utility's arguments when the script is parsed and
// runs it on its stdin.
type utilSpec struct {
	check func(args []string) error
	run   func(r *runner, args []string, stdin string) (stdout, stderr string, status int)
}

var utilities map[string]utilSpec

func init() {
	utilities = map[string]utilSpec{
		"cat":    {run: utilCat},
		"echo":   {check: checkEchoArgs, run: utilEcho},
		"printf": {check: checkPrintf, run: utilPrintf},
		"rm":     {check: flagsOnly("rm", "fFrRv"), run: utilRm},
		"mkdir":  {check: flagsOnly("mkdir", "pv"), run: utilMkdir},
		"touch":  {check: flagsOnly("touch", ""), run: utilTouch},
		"cp":     {check: flagsOnly("cp", "fv"), run: utilCopy("cp", false)},
		"mv":     {check: flagsOnly("mv", "fv"), run: utilCopy("mv", true)},
		"ls":     {check: flagsOnly("ls", "1"), run: utilLs},
		"base64": {check: checkBase64, run: utilBase64},
		"tr":     {check: checkTr, run: utilTr},
		"sed":    {check: checkSed, run: utilSed},
		"grep":   {check: checkGrep, run: utilGrep},
		"head":   {check: checkLines("head"), run: utilHeadTail("head")},
		"tail":   {check: checkLines("tail"), run: utilHeadTail("tail")},
		"wc":     {check: flagsOnly("wc", "lcw"), run: utilWc},
		"cut":    {check: checkCut, run: utilCut},
		"sort":   {check: flagsOnly("sort", "urn"), run: utilSort},
		"uniq":   {check: flagsOnly("uniq", ""), run: utilUniq},
		"tee":    {check: flagsOnly("tee", "a"), run: utilTee},
	}
	for name, spec := range moreUtilities {
		utilities[name] = spec
	}
}

// moreUtilities are the utilities of files that only some builds have
// (openssl.go), added by their init functions, which run first.
var moreUtilities = map[string]utilSpec{}

func addUtility(name string, spec utilSpec) {
	moreUtilities[name] = spec
	if utilities != nil {
		utilities[name] = spec
	}
}

// utilPipeline reads a pipeline whose first program is a utility; ok is
// false for a pipeline another reader takes: kubectl first, a builtin
// (echo alone, without redirections to files), or cat <<EOF / echo /
// printf piped straight into kubectl.
func utilPipeline(stages []rawStage) (*Utils, bool, error) {
	prog := path.Base(stages[0].words[0])
	if _, ok := utilities[prog]; !ok {
		return nil, false, nil
	}
	files := false
	for _, st := range stages {
		for _, r := range st.redirects {
			files = files || r.target != "" && r.target != "/dev/null"
		}
	}
	switch {
	case prog == "echo" && len(stages) == 1 && !files:
		return nil, false, nil // the builtin
	case (prog == "echo" || prog == "printf" || prog == "cat") && len(stages) > 1 && path.Base(stages[1].words[0]) == "kubectl" && !files:
		if _, err := feeder(stages[0]); err == nil {
			return nil, false, nil // assemble's stdin
		}
	}
	u := &Utils{}
	for i, st := range stages {
		name := path.Base(st.words[0])
		if name == "kubectl" {
			cmd, err := assemble(stages[i:])
			if err != nil {
				return nil, true, err
			}
			cmd.StdinFromPipe = true
			u.Kubectl = cmd
			return u, true, nil
		}
		spec, ok := utilities[name]
		if !ok {
			if i == 0 {
				return nil, false, nil
			}
			return nil, true, unsupported("pipes into " + name + ", which genplay does not interpret")
		}
		us := UtilStage{Program: name, Args: st.words[1:], Stdin: st.stdin}
		if err := utilRedirects(st.redirects, &us, i == len(stages)-1); err != nil {
			return nil, true, err
		}
		if spec.check != nil {
			if err := spec.check(us.Args); err != nil {
				return nil, true, err
			}
		}
		u.Stages = append(u.Stages, us)
	}
	return u, true, nil
}

// utilRedirects reads a utility's redirections: files in and out (out on
// the last stage only), stderr merged or discarded.
func utilRedirects(rs []redirect, us *UtilStage, last bool) error {
	for _, r := range rs {
		switch {
		case r.op == "2>&1":
			us.MergeStderr = true
		case r.target == "/dev/null" && (r.op == ">" || r.op == "1>" || r.op == ">>"):
			us.DiscardStdout = true
		case r.target == "/dev/null" && (r.op == "2>" || r.op == "2>>"):
			us.DiscardStderr = true
		case r.target == "/dev/null" && (r.op == "&>" || r.op == "&>>"):
			us.DiscardStdout, us.DiscardStderr = true, true
		case r.op == "<":
			us.In = r.target
		case (r.op == ">" || r.op == "1>" || r.op == ">>" || r.op == "1>>") && r.target != "":
			if !last {
				return unsupported("redirects the output of " + us.Program + " in the middle of a pipeline")
			}
			us.Out, us.Append = r.target, strings.HasSuffix(r.op, ">>")
		default:
			return unsupported("redirects " + us.Program + " with " + r.op + r.target)
		}
	}
	return nil
}

// utils runs a pipeline of utilities. Without pipefail, its status is the
// last stage's; a kubectl call at the end is one timeline step, as ever.
func (sh *shell) utils(u *Utils) {
	text := ""
	for _, st := range u.Stages {
		if !sh.work() {
			return
		}
		in := text
		switch {
		case st.Stdin != nil:
			in = *st.Stdin
		case st.In != "":
			b, err := sh.r.scratch().Read(st.In)
			if err != nil {
				sh.res.stderr.WriteString("sh: " + st.In + ": " + err.Error() + "\n")
				sh.status, text = 1, ""
				continue
			}
			in = string(b)
		}
		out, errOut, status := utilities[st.Program].run(sh.r, st.Args, in)
		if st.DiscardStderr {
			errOut = ""
		}
		if st.MergeStderr {
			out, errOut = errOut+out, ""
		}
		if st.DiscardStdout {
			out = ""
		}
		if st.Out != "" {
			if err := sh.r.scratch().Write(st.Out, []byte(out), st.Append); err != nil {
				errOut += "sh: " + st.Out + ": " + err.Error() + "\n"
				status = 1
			}
			out = ""
		}
		sh.res.stderr.WriteString(errOut)
		text, sh.status = out, status
	}
	if u.Kubectl != nil {
		c := *u.Kubectl
		c.Stdin = text
		sh.kubectl(&c)
		return
	}
	sh.res.stdout.WriteString(text)
}

// writesFiles reports whether the script writes a file: a redirection to
// one, or cp, mv, tee or touch.
func (l List) writesFiles() bool {
	found := false
	var walk func(List)
	walk = func(l List) {
		for _, ao := range l {
			for _, p := range ao.Pipelines {
				switch {
				case p.Kubectl != nil && p.Kubectl.Out != "":
					found = true
				case p.Utils != nil:
					for _, st := range p.Utils.Stages {
						found = found || st.Out != "" || st.Program == "cp" || st.Program == "mv" || st.Program == "tee" || st.Program == "touch"
					}
				case p.Deferred != nil:
					found = true // known when it runs
				case p.If != nil:
					for i := range p.If.Conds {
						walk(p.If.Conds[i])
						walk(p.If.Bodies[i])
					}
					walk(p.If.Else)
				case p.For != nil:
					walk(p.For.Body)
				case p.While != nil:
					walk(p.While.Cond)
					walk(p.While.Body)
				}
			}
		}
	}
	walk(l)
	return found
}

// scratch is the test's scratch folder, made at the first operation that
// needs it.
func (r *runner) scratch() *Scratch {
	if r.test.scratch == nil {
		r.test.scratch = NewScratch(r.opts.Files, r.opts.File)
	}
	return r.test.scratch
}

// flagsOnly is a check that reads the single-letter options in allowed and
// refuses any other; the operands are left to the utility.
func flagsOnly(name, allowed string) func([]string) error {
	return func(args []string) error {
		_, _, err := splitFlags(name, args, allowed, "")
		return err
	}
}

// splitFlags reads single-letter options: those of bools alone, those of
// valued with a value (-n5, -n 5); "--" ends them. It returns the options
// set and the operands.
func splitFlags(name string, args []string, bools, valued string) (map[byte]string, []string, error) {
	opts := map[byte]string{}
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return opts, append(operands, args[i+1:]...), nil
		}
		if len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, "--") {
			if strings.HasPrefix(a, "--") {
				return nil, nil, unsupported(name + " option " + a + " is not interpreted")
			}
			operands = append(operands, a)
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case strings.IndexByte(bools, c) >= 0:
				opts[c] = "true"
			case strings.IndexByte(valued, c) >= 0:
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return nil, nil, fmt.Errorf("%s -%c needs a value", name, c)
					}
					i++
					v = args[i]
				}
				opts[c] = v
				j = len(a)
			default:
				return nil, nil, unsupported(name + " option -" + string(c) + " is not interpreted")
			}
		}
	}
	return opts, operands, nil
}

// inputs is what a utility reads: its files in order ("-" is stdin), or
// stdin when none is named; missing files are reported on stderr.
func (r *runner) inputs(name string, files []string, stdin string) (string, string, int) {
	if len(files) == 0 {
		return stdin, "", 0
	}
	var out, errOut strings.Builder
	status := 0
	for _, f := range files {
		if f == "-" {
			out.WriteString(stdin)
			continue
		}
		b, err := r.scratch().Read(f)
		if err != nil {
			fmt.Fprintf(&errOut, "%s: %s: %v\n", name, f, err)
			status = 1
			continue
		}
		out.Write(b)
	}
	return out.String(), errOut.String(), status
}
