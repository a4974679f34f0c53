package shell

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The common utilities chainsaw scripts use, interpreted over the test's
// scratch folder (scratch.go): cat, echo, printf, rm, mkdir, touch, cp, mv,
// ls, base64, tr, sed, grep, head, tail, wc, cut, sort, uniq and tee, with
// pipes between them and into kubectl, and redirections to and from files
// (> >> <). Each is GNU coreutils' behaviour for the options genplay reads;
// an option it does not read makes the script unsupported when it is
// parsed, before anything runs.

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

func utilCat(r *runner, args []string, stdin string) (string, string, int) {
	return r.inputs("cat", args, stdin)
}

func checkEchoArgs(args []string) error {
	if len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-n" {
		return unsupported("uses echo " + args[0])
	}
	return nil
}

func utilEcho(_ *runner, args []string, _ string) (string, string, int) {
	if len(args) > 0 && args[0] == "-n" {
		return strings.Join(args[1:], " "), "", 0
	}
	return strings.Join(args, " ") + "\n", "", 0
}

var printfVerb = regexp.MustCompile(`%[-0-9.]*[a-zA-Z%]`)

func checkPrintf(args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("printf needs a format")
	}
	for _, v := range printfVerb.FindAllString(args[0], -1) {
		if c := v[len(v)-1]; c != 's' && c != 'd' && c != '%' {
			return unsupported("uses printf " + v)
		}
	}
	return nil
}

// utilPrintf is printf with %s, %d and %% and the backslash escapes; the
// format is reused while arguments are left, as printf does.
func utilPrintf(_ *runner, args []string, _ string) (string, string, int) {
	format, rest := unescape(args[0]), args[1:]
	var out strings.Builder
	for {
		used := 0
		out.WriteString(printfVerb.ReplaceAllStringFunc(format, func(v string) string {
			if v == "%%" {
				return "%"
			}
			arg := ""
			if used < len(rest) {
				arg = rest[used]
			}
			used++
			if v[len(v)-1] == 'd' {
				n, _ := strconv.Atoi(arg)
				return fmt.Sprintf(strings.TrimSuffix(v, "d")+"d", n)
			}
			return fmt.Sprintf(strings.TrimSuffix(v, "s")+"s", arg)
		}))
		if used == 0 || used >= len(rest) {
			return out.String(), "", 0
		}
		rest = rest[used:]
	}
}

// unescape reads the backslash escapes of printf's format and tr's sets.
func unescape(s string) string {
	r := strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\r`, "\r", `\\`, `\`, `\"`, `"`)
	return r.Replace(s)
}

func utilRm(r *runner, args []string, _ string) (string, string, int) {
	opts, files, _ := splitFlags("rm", args, "fFrRv", "")
	force, recursive := opts['f'] != "", opts['r'] != "" || opts['R'] != ""
	var errOut strings.Builder
	status := 0
	if len(files) == 0 && !force {
		return "", "rm: missing operand\n", 1
	}
	for _, f := range files {
		if err := r.scratch().Remove(f, recursive); err != nil {
			if err == errNotExist && force {
				continue
			}
			fmt.Fprintf(&errOut, "rm: cannot remove '%s': %v\n", f, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

func utilMkdir(r *runner, args []string, _ string) (string, string, int) {
	opts, dirs, _ := splitFlags("mkdir", args, "pv", "")
	var errOut strings.Builder
	status := 0
	if len(dirs) == 0 {
		return "", "mkdir: missing operand\n", 1
	}
	for _, d := range dirs {
		if err := r.scratch().Mkdir(d, opts['p'] != ""); err != nil {
			fmt.Fprintf(&errOut, "mkdir: cannot create directory '%s': %v\n", d, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

func utilTouch(r *runner, args []string, _ string) (string, string, int) {
	_, files, _ := splitFlags("touch", args, "", "")
	var errOut strings.Builder
	status := 0
	for _, f := range files {
		if exists, _, _ := r.scratch().Stat(f); exists {
			continue
		}
		if err := r.scratch().Write(f, nil, false); err != nil {
			fmt.Fprintf(&errOut, "touch: cannot touch '%s': %v\n", f, err)
			status = 1
		}
	}
	return "", errOut.String(), status
}

// utilCopy is cp (or mv) of files: SRC... DST, DST a folder when there are
// several.
func utilCopy(name string, move bool) func(*runner, []string, string) (string, string, int) {
	return func(r *runner, args []string, _ string) (string, string, int) {
		_, ops, _ := splitFlags(name, args, "fv", "")
		if len(ops) < 2 {
			return "", name + ": missing file operand\n", 1
		}
		s := r.scratch()
		dst := ops[len(ops)-1]
		_, dstDir, _ := s.Stat(dst)
		if len(ops) > 2 && !dstDir {
			return "", fmt.Sprintf("%s: target '%s' is not a directory\n", name, dst), 1
		}
		var errOut strings.Builder
		status := 0
		for _, src := range ops[:len(ops)-1] {
			b, err := s.Read(src)
			if err != nil {
				fmt.Fprintf(&errOut, "%s: cannot stat '%s': %v\n", name, src, err)
				status = 1
				continue
			}
			to := dst
			if dstDir {
				to = path.Join(dst, path.Base(src))
			}
			if err := s.Write(to, b, false); err != nil {
				fmt.Fprintf(&errOut, "%s: cannot create regular file '%s': %v\n", name, to, err)
				status = 1
				continue
			}
			if move {
				_ = s.Remove(src, false)
			}
		}
		return "", errOut.String(), status
	}
}

func utilLs(r *runner, args []string, _ string) (string, string, int) {
	_, paths, _ := splitFlags("ls", args, "1", "")
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var out, errOut strings.Builder
	status := 0
	for _, p := range paths {
		names, err := r.scratch().List(p)
		if err != nil {
			fmt.Fprintf(&errOut, "ls: cannot access '%s': %v\n", p, err)
			status = 2
			continue
		}
		for _, n := range names {
			out.WriteString(n + "\n")
		}
	}
	return out.String(), errOut.String(), status
}

func checkBase64(args []string) error {
	_, _, files, err := base64Args(args)
	if err == nil && len(files) > 1 {
		err = fmt.Errorf("base64: extra operand %q", files[1])
	}
	return err
}

// base64Args reads base64's options: -d/--decode, -w N/--wrap=N, -i
// (--ignore-garbage) and at most one file.
func base64Args(args []string) (decode bool, wrap int, rest []string, err error) {
	wrap = 76
	var short []string
	for _, a := range args {
		switch {
		case a == "--decode":
			decode = true
		case strings.HasPrefix(a, "--wrap="):
			wrap, _ = strconv.Atoi(strings.TrimPrefix(a, "--wrap="))
		case a == "--ignore-garbage":
		default:
			short = append(short, a)
		}
	}
	opts, files, err := splitFlags("base64", short, "diD", "w")
	if err != nil {
		return false, 0, nil, err
	}
	decode = decode || opts['d'] != "" || opts['D'] != ""
	if w, ok := opts['w']; ok {
		if wrap, err = strconv.Atoi(w); err != nil {
			return false, 0, nil, fmt.Errorf("base64: invalid wrap size: %q", w)
		}
	}
	return decode, wrap, files, nil
}

func utilBase64(r *runner, args []string, stdin string) (string, string, int) {
	decode, wrap, files, _ := base64Args(args)
	in, errOut, status := r.inputs("base64", files, stdin)
	if status != 0 {
		return "", errOut, status
	}
	if decode {
		clean := strings.Map(func(r rune) rune {
			if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
				return -1
			}
			return r
		}, in)
		b, err := base64.StdEncoding.DecodeString(clean)
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(clean); err != nil {
				return string(b), "base64: invalid input\n", 1
			}
		}
		return string(b), "", 0
	}
	enc := base64.StdEncoding.EncodeToString([]byte(in))
	if wrap <= 0 {
		return enc, "", 0
	}
	var out strings.Builder
	for len(enc) > wrap {
		out.WriteString(enc[:wrap] + "\n")
		enc = enc[wrap:]
	}
	out.WriteString(enc + "\n")
	return out.String(), "", 0
}

func checkTr(args []string) error {
	opts, sets, err := splitFlags("tr", args, "d", "")
	if err != nil {
		return err
	}
	if opts['d'] != "" && len(sets) != 1 || opts['d'] == "" && len(sets) != 2 {
		return fmt.Errorf("tr takes -d SET or SET1 SET2")
	}
	return nil
}

// trSet expands a tr set: ranges (a-z) and backslash escapes.
func trSet(s string) []rune {
	rs := []rune(unescape(s))
	var out []rune
	for i := 0; i < len(rs); i++ {
		if i+2 < len(rs) && rs[i+1] == '-' && rs[i] <= rs[i+2] {
			for c := rs[i]; c <= rs[i+2]; c++ {
				out = append(out, c)
			}
			i += 2
			continue
		}
		out = append(out, rs[i])
	}
	return out
}

func utilTr(_ *runner, args []string, stdin string) (string, string, int) {
	opts, sets, _ := splitFlags("tr", args, "d", "")
	from := trSet(sets[0])
	if opts['d'] != "" {
		return strings.Map(func(r rune) rune {
			for _, c := range from {
				if r == c {
					return -1
				}
			}
			return r
		}, stdin), "", 0
	}
	to := trSet(sets[1])
	return strings.Map(func(r rune) rune {
		for i, c := range from {
			if r == c {
				if len(to) == 0 {
					return r
				}
				return to[min(i, len(to)-1)]
			}
		}
		return r
	}, stdin), "", 0
}

// sedCommand is one s/RE/REPLACEMENT/FLAGS of a sed script.
type sedCommand struct {
	re     *regexp.Regexp
	repl   string
	global bool
}

func checkSed(args []string) error {
	_, _, err := sedArgs(args)
	return err
}

// sedArgs reads sed's options (-e SCRIPT, -E or -r) and its script of s
// commands separated by ; or new lines; other commands are unsupported.
func sedArgs(args []string) ([]sedCommand, []string, error) {
	var scripts []string
	var rest []string
	extended := false
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-e" && i+1 < len(args):
			scripts = append(scripts, args[i+1])
			i++
		case a == "-E" || a == "-r":
			extended = true
		case strings.HasPrefix(a, "-") && a != "-":
			return nil, nil, unsupported("sed option " + a + " is not interpreted")
		default:
			rest = append(rest, a)
		}
	}
	if len(scripts) == 0 {
		if len(rest) == 0 {
			return nil, nil, fmt.Errorf("sed needs a script")
		}
		scripts, rest = rest[:1], rest[1:]
	}
	var cmds []sedCommand
	for _, script := range scripts {
		for s := strings.TrimSpace(script); s != ""; s = strings.TrimLeft(s, "; \n") {
			if len(s) < 2 || s[0] != 's' {
				return nil, nil, unsupported("runs the sed script " + strconv.Quote(script) + " (genplay interprets s/RE/REPLACEMENT/[g] only)")
			}
			delim := s[1]
			parts, end := splitSed(s[2:], delim)
			if len(parts) != 2 {
				return nil, nil, fmt.Errorf("sed: unterminated `s' command in %q", script)
			}
			flags := s[2+end:]
			cut := strings.IndexAny(flags, "; \n")
			if cut < 0 {
				cut = len(flags)
			}
			if strings.Trim(flags[:cut], "g") != "" {
				return nil, nil, unsupported("uses the sed flags " + flags[:cut])
			}
			pattern := parts[0]
			if !extended {
				pattern = basicRegexp(pattern)
			}
			re, err := regexp.Compile(pattern)
			if err != nil {
				return nil, nil, unsupported(fmt.Sprintf("runs sed with %q, a pattern genplay cannot translate: %v", parts[0], err))
			}
			cmds = append(cmds, sedCommand{re: re, repl: sedReplacement(parts[1]), global: strings.Contains(flags[:cut], "g")})
			s = flags[cut:]
		}
	}
	return cmds, rest, nil
}

// splitSed splits "RE<d>REPL<d>" at unescaped delimiters; end is the
// offset after the last one.
func splitSed(s string, d byte) ([]string, int) {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == d:
			cur.WriteByte(d)
			i++
		case s[i] == '\\' && i+1 < len(s):
			cur.WriteByte(s[i])
			cur.WriteByte(s[i+1])
			i++
		case s[i] == d:
			parts = append(parts, cur.String())
			cur.Reset()
			if len(parts) == 2 {
				return parts, i + 1
			}
		default:
			cur.WriteByte(s[i])
		}
	}
	return parts, len(s)
}

// sedReplacement turns sed's & and \N into Go's ${0} and ${N}.
func sedReplacement(r string) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		switch {
		case r[i] == '&':
			b.WriteString("${0}")
		case r[i] == '\\' && i+1 < len(r) && r[i+1] >= '0' && r[i+1] <= '9':
			b.WriteString("${" + string(r[i+1]) + "}")
			i++
		case r[i] == '\\' && i+1 < len(r):
			b.WriteString(unescape(r[i : i+2]))
			i++
		case r[i] == '$':
			b.WriteString("$$")
		default:
			b.WriteByte(r[i])
		}
	}
	return b.String()
}

func utilSed(r *runner, args []string, stdin string) (string, string, int) {
	cmds, files, _ := sedArgs(args)
	in, errOut, status := r.inputs("sed", files, stdin)
	var out strings.Builder
	lines := strings.SplitAfter(in, "\n")
	for _, line := range lines {
		if line == "" {
			continue
		}
		text, nl := strings.CutSuffix(line, "\n")
		for _, c := range cmds {
			if c.global {
				text = c.re.ReplaceAllString(text, c.repl)
				continue
			}
			if loc := c.re.FindStringSubmatchIndex(text); loc != nil {
				var dst []byte
				dst = c.re.ExpandString(dst, c.repl, text, loc)
				text = text[:loc[0]] + string(dst) + text[loc[1]:]
			}
		}
		out.WriteString(text)
		if nl {
			out.WriteByte('\n')
		}
	}
	return out.String(), errOut, status
}

func checkGrep(args []string) error {
	_, _, err := grepArgs(args)
	return err
}

// grepArgs reads grep's options, its patterns (the first operand, or
// each -e), and the files after them.
func grepArgs(args []string) (Stage, []string, error) {
	st := Stage{Program: "grep", Options: map[string]bool{}}
	var patterns, operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			return st, nil, unsupported("grep option " + a + " is not interpreted")
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			switch {
			case strings.IndexByte("qvEFiwxcs", c) >= 0:
				st.Options[string(c)] = true
			case c == 'e':
				v := a[j+1:]
				if v == "" {
					if i+1 >= len(args) {
						return st, nil, fmt.Errorf("grep -e needs a pattern")
					}
					i++
					v = args[i]
				}
				patterns = append(patterns, v)
				j = len(a)
			default:
				return st, nil, unsupported("grep option -" + string(c) + " is not interpreted")
			}
		}
	}
	if len(patterns) == 0 {
		if len(operands) == 0 {
			return st, nil, fmt.Errorf("grep needs a pattern")
		}
		patterns, operands = operands[:1], operands[1:]
	}
	if len(patterns) == 1 {
		st.Expr = patterns[0]
		return st, operands, nil
	}
	// Several patterns: one extended expression of the alternatives.
	alts := make([]string, len(patterns))
	for i, p := range patterns {
		switch {
		case st.Options["F"]:
			alts[i] = regexp.QuoteMeta(p)
		case !st.Options["E"]:
			alts[i] = basicRegexp(p)
		default:
			alts[i] = p
		}
	}
	st.Expr = "(?:" + strings.Join(alts, ")|(?:") + ")"
	st.Options["E"], st.Options["F"] = true, false
	return st, operands, nil
}

func utilGrep(r *runner, args []string, stdin string) (string, string, int) {
	st, files, _ := grepArgs(args)
	in, errOut, status := r.inputs("grep", files, stdin)
	out, code, err := grep(st, in)
	if err != nil {
		return "", "grep: " + err.Error() + "\n", 2
	}
	if status != 0 && code == 1 {
		code = 2
	}
	if st.Options["s"] {
		errOut = ""
	}
	return out, errOut, code
}

func checkLines(name string) func([]string) error {
	return func(args []string) error {
		_, _, err := linesArgs(name, args)
		return err
	}
}

// linesArgs reads head's and tail's -n N (or -N) and the files.
func linesArgs(name string, args []string) (int, []string, error) {
	n := 10
	var rest []string
	for _, a := range args {
		if len(a) > 1 && a[0] == '-' && a[1] >= '0' && a[1] <= '9' {
			v, err := strconv.Atoi(a[1:])
			if err != nil {
				return 0, nil, fmt.Errorf("%s: invalid number of lines: %q", name, a[1:])
			}
			n = v
			continue
		}
		rest = append(rest, a)
	}
	opts, files, err := splitFlags(name, rest, "", "n")
	if err != nil {
		return 0, nil, err
	}
	if v, ok := opts['n']; ok {
		if n, err = strconv.Atoi(strings.TrimPrefix(v, "+")); err != nil || n < 0 {
			return 0, nil, fmt.Errorf("%s: invalid number of lines: %q", name, v)
		}
	}
	return n, files, nil
}

func utilHeadTail(name string) func(*runner, []string, string) (string, string, int) {
	return func(r *runner, args []string, stdin string) (string, string, int) {
		n, files, _ := linesArgs(name, args)
		in, errOut, status := r.inputs(name, files, stdin)
		lines := strings.SplitAfter(in, "\n")
		if len(lines) > 0 && lines[len(lines)-1] == "" {
			lines = lines[:len(lines)-1]
		}
		if name == "head" {
			lines = lines[:min(n, len(lines))]
		} else {
			lines = lines[max(0, len(lines)-n):]
		}
		return strings.Join(lines, ""), errOut, status
	}
}

func utilWc(r *runner, args []string, stdin string) (string, string, int) {
	opts, files, _ := splitFlags("wc", args, "lcw", "")
	in, errOut, status := r.inputs("wc", files, stdin)
	lines, words, chars := strings.Count(in, "\n"), len(strings.Fields(in)), len(in)
	var parts []string
	if len(opts) == 0 {
		opts = map[byte]string{'l': "true", 'w': "true", 'c': "true"}
	}
	for _, c := range []byte("lwc") {
		if opts[c] != "" {
			parts = append(parts, strconv.Itoa(map[byte]int{'l': lines, 'w': words, 'c': chars}[c]))
		}
	}
	out := strings.Join(parts, " ")
	if len(files) == 1 {
		out += " " + files[0]
	}
	return out + "\n", errOut, status
}

func checkCut(args []string) error {
	opts, _, err := splitFlags("cut", args, "", "df")
	if err != nil {
		return err
	}
	if opts['f'] == "" {
		return unsupported("uses cut without -f")
	}
	_, err = cutFields(opts['f'])
	return err
}

// cutFields reads cut's -f list: N, N-M, N-, -M, separated by commas.
func cutFields(list string) ([][2]int, error) {
	var out [][2]int
	for _, f := range strings.Split(list, ",") {
		lo, hi, isRange := strings.Cut(f, "-")
		a, b := 1, 1<<30
		var err error
		if lo != "" {
			if a, err = strconv.Atoi(lo); err != nil || a < 1 {
				return nil, fmt.Errorf("cut: invalid field value %q", f)
			}
		}
		switch {
		case !isRange:
			b = a
		case hi != "":
			if b, err = strconv.Atoi(hi); err != nil {
				return nil, fmt.Errorf("cut: invalid field value %q", f)
			}
		}
		out = append(out, [2]int{a, b})
	}
	return out, nil
}

func utilCut(r *runner, args []string, stdin string) (string, string, int) {
	opts, files, _ := splitFlags("cut", args, "", "df")
	delim := "\t"
	if d, ok := opts['d']; ok {
		delim = d
	}
	fields, _ := cutFields(opts['f'])
	in, errOut, status := r.inputs("cut", files, stdin)
	var out strings.Builder
	for _, line := range strings.SplitAfter(in, "\n") {
		if line == "" {
			continue
		}
		text, nl := strings.CutSuffix(line, "\n")
		cols := strings.Split(text, delim)
		if len(cols) == 1 {
			out.WriteString(text) // a line without the delimiter is printed whole
		} else {
			var keep []string
			for i, c := range cols {
				for _, f := range fields {
					if i+1 >= f[0] && i+1 <= f[1] {
						keep = append(keep, c)
						break
					}
				}
			}
			out.WriteString(strings.Join(keep, delim))
		}
		if nl || text != "" {
			out.WriteByte('\n')
		}
	}
	return out.String(), errOut, status
}

func splitLines(s string) []string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	if s == "" {
		return nil
	}
	return lines
}

func utilSort(r *runner, args []string, stdin string) (string, string, int) {
	opts, files, _ := splitFlags("sort", args, "urn", "")
	in, errOut, status := r.inputs("sort", files, stdin)
	lines := splitLines(in)
	if opts['n'] != "" {
		sort.SliceStable(lines, func(i, j int) bool {
			a, _ := strconv.ParseFloat(strings.TrimSpace(lines[i]), 64)
			b, _ := strconv.ParseFloat(strings.TrimSpace(lines[j]), 64)
			return a < b
		})
	} else {
		sort.Strings(lines)
	}
	if opts['r'] != "" {
		for i, j := 0, len(lines)-1; i < j; i, j = i+1, j-1 {
			lines[i], lines[j] = lines[j], lines[i]
		}
	}
	if opts['u'] != "" {
		lines = uniq(lines)
	}
	if len(lines) == 0 {
		return "", errOut, status
	}
	return strings.Join(lines, "\n") + "\n", errOut, status
}

func uniq(lines []string) []string {
	var out []string
	for i, l := range lines {
		if i == 0 || l != lines[i-1] {
			out = append(out, l)
		}
	}
	return out
}

func utilUniq(r *runner, args []string, stdin string) (string, string, int) {
	_, files, _ := splitFlags("uniq", args, "", "")
	in, errOut, status := r.inputs("uniq", files, stdin)
	lines := uniq(splitLines(in))
	if len(lines) == 0 {
		return "", errOut, status
	}
	return strings.Join(lines, "\n") + "\n", errOut, status
}

func utilTee(r *runner, args []string, stdin string) (string, string, int) {
	opts, files, _ := splitFlags("tee", args, "a", "")
	var errOut bytes.Buffer
	status := 0
	for _, f := range files {
		if err := r.scratch().Write(f, []byte(stdin), opts['a'] != ""); err != nil {
			fmt.Fprintf(&errOut, "tee: %s: %v\n", f, err)
			status = 1
		}
	}
	return stdin, errOut.String(), status
}
