package scenario

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strings"
)

// UnsupportedError says why a script or command cannot be run honestly by
// genplay (which has no real cluster, no Kyverno pods and no shell); the
// runner reports the operation as skipped with Reason.
type UnsupportedError struct {
	Reason string
	// Line is the script line (1-based) where the problem is, 0 if unknown.
	Line int
}

func (e *UnsupportedError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Reason)
	}
	return e.Reason
}

func unsupported(reason string) error { return &UnsupportedError{Reason: reason} }

// Command is one kubectl invocation from a script or command operation,
// with the pipeline that follows it.
type Command struct {
	// Line is where the command starts in the script (1 for a command
	// operation); Text is its source text.
	Line int
	Text string
	// Args are every argument after "kubectl", as the shell passes them.
	Args []string
	// Verb is the subcommand: apply, create, delete, get, label, annotate,
	// patch, replace, scale, run, exec, wait, evict, describe, ...
	Verb string
	// Targets are the positional arguments after the verb: a type and
	// names ("configmap", "owner"), TYPE/NAME, or key=value pairs for
	// label and annotate.
	Targets []string
	// Flags holds every flag by its long name, "true" for boolean flags.
	Flags map[string][]string
	// The flags the runner needs most, read from Flags.
	Namespace     string   // -n, --namespace
	AllNamespaces bool     // -A, --all-namespaces
	Files         []string // -f, --filename, split on commas ("-" is stdin)
	Output        string   // -o, --output
	Selector      string   // -l, --selector
	DryRun        string   // --dry-run: "client", "server" or ""
	PatchType     string   // --type
	Patch         string   // -p, --patch
	PatchFile     string   // --patch-file
	As            string   // --as (impersonated user)
	// ExecArgs are the arguments after "--" (exec, run).
	ExecArgs []string
	// Stdin is what the command reads: a heredoc, or the text echoed into
	// it. StdinFromPipe is set instead when an earlier stage's output is
	// piped in (then Stdin is empty).
	Stdin         string
	StdinFromPipe bool
	// MergeStderr is set by 2>&1; DiscardStdout/DiscardStderr by
	// redirections to /dev/null.
	MergeStderr   bool
	DiscardStdout bool
	DiscardStderr bool
	// Pipe are the stages the output flows through, in order.
	Pipe []Stage
	// AndThen: the command runs only if the previous one succeeded (&&).
	AndThen bool
	// IgnoreError: the command is followed by "|| true".
	IgnoreError bool
	// ExitOnError: a "set -e" came before; a failure ends the script.
	// Otherwise the script's status is its last command's, as in sh.
	ExitOnError bool
}

// Stage is one program after a kubectl call in a pipeline.
type Stage struct {
	// Program is "jq", "grep" or "kubectl".
	Program string
	Args    []string
	// Options are the single-letter options given ("q", "v", "E" for grep;
	// "e", "r", "c" for jq).
	Options map[string]bool
	// Expr is grep's pattern or jq's filter.
	Expr string
	// Kubectl is set when Program is "kubectl"; it reads the pipe.
	Kubectl       *Command
	MergeStderr   bool
	DiscardStdout bool
	DiscardStderr bool
}

// ParseScript parses a script operation's content with no environment
// variables set; see ParseScriptEnv.
func ParseScript(content string) ([]Command, error) {
	return ParseScriptEnv(content, nil)
}

// kyvernoPods recognizes scripts that look at Kyverno's (or the cluster's
// add-ons') own pods: genplay runs no pods.
var kyvernoPods = []*regexp.Regexp{
	regexp.MustCompile(`kubectl\s[^|\n]*\bget\s+(?:po|pod|pods)\b[^|\n]*(?:-n|--namespace)[\s=](kyverno|kube-system|kube-state-metrics)\b`),
	regexp.MustCompile(`kubectl\s[^|\n]*(?:-n|--namespace)[\s=](kyverno|kube-system|kube-state-metrics)\s[^|\n]*\bget\s+(?:po|pod|pods)\b`),
	regexp.MustCompile(`kubectl\s[^|\n]*\bget\s+(?:po|pod|pods)\b[^|\n]*\s(?:-A|--all-namespaces)\b[^\n]*kyverno`),
}

// ParseScriptEnv parses a script operation's content: shell lines of
// kubectl calls, optionally piped into jq, grep or another kubectl, joined
// by newlines, ";" or "&&", with heredocs as input. env holds the variables
// the script may use (chainsaw sets $NAMESPACE). Anything genplay cannot
// interpret honestly returns an *UnsupportedError.
func ParseScriptEnv(content string, env map[string]string) ([]Command, error) {
	for _, re := range kyvernoPods {
		if m := re.FindStringSubmatch(content); m != nil {
			ns := "kyverno"
			if len(m) > 1 && m[1] != "" {
				ns = m[1]
			}
			if ns == "kyverno" {
				return nil, unsupported("inspects Kyverno's own pods, which genplay does not run")
			}
			return nil, unsupported("inspects the pods of namespace " + ns + ", which genplay does not run")
		}
	}
	toks, err := lex(content, env)
	if err != nil {
		return nil, err
	}
	p := &scriptParser{src: content, toks: toks}
	cmds, err := p.parse()
	if err != nil {
		var u *UnsupportedError
		if errors.As(err, &u) && u.Line == 0 {
			u.Line = p.line()
		}
		return nil, err
	}
	return cmds, nil
}

// ParseCommand parses a command operation: entrypoint and args are passed
// to the program without a shell.
func ParseCommand(entrypoint string, args []string) (Command, error) {
	if path.Base(entrypoint) != "kubectl" {
		return Command{}, unsupported("runs " + entrypoint + ", which genplay does not interpret (only kubectl)")
	}
	cmd, err := parseKubectl(args)
	if err != nil {
		return Command{}, err
	}
	cmd.Line = 1
	cmd.Text = strings.TrimSpace(entrypoint + " " + strings.Join(args, " "))
	if err := checkKubectl(cmd); err != nil {
		return Command{}, err
	}
	return *cmd, nil
}

type scriptParser struct {
	src  string
	toks []token
	i    int
}

func (p *scriptParser) line() int {
	if p.i < len(p.toks) {
		return p.toks[p.i].line
	}
	if len(p.toks) > 0 {
		return p.toks[len(p.toks)-1].line
	}
	return 0
}

func (p *scriptParser) peek() *token {
	if p.i < len(p.toks) {
		return &p.toks[p.i]
	}
	return nil
}

func (p *scriptParser) isOp(text string) bool {
	t := p.peek()
	return t != nil && t.kind == tOp && t.text == text
}

func (p *scriptParser) parse() ([]Command, error) {
	var out []Command
	exitOnError := false
	andThen := false
	for p.i < len(p.toks) {
		if p.isOp("\n") || p.isOp(";") {
			if andThen {
				return nil, fmt.Errorf("line %d: && needs a command after it", p.line())
			}
			p.i++
			continue
		}
		start := p.i
		stages, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		if words := stages[0].words; len(stages) == 1 && len(words) > 0 && words[0] == "set" {
			if err := setOptions(words[1:], &exitOnError); err != nil {
				return nil, err
			}
			andThen = p.isOp("&&")
			if andThen {
				p.i++
			}
			continue
		}
		cmd, err := assemble(stages)
		if err != nil {
			return nil, err
		}
		cmd.AndThen = andThen
		cmd.ExitOnError = exitOnError
		cmd.Line = p.toks[start].line
		andThen = false
		switch {
		case p.isOp("&&"):
			p.i++
			andThen = true
		case p.isOp("||"):
			p.i++
			next, err := p.pipeline()
			if err != nil {
				return nil, err
			}
			if len(next) != 1 || len(next[0].words) != 1 || (next[0].words[0] != "true" && next[0].words[0] != ":") {
				return nil, unsupported("uses || with a command other than true")
			}
			cmd.IgnoreError = true
		case p.isOp("&"):
			return nil, unsupported("runs a command in the background (&)")
		}
		cmd.Text = strings.TrimSpace(p.src[p.toks[start].start:p.toks[p.i-1].end])
		out = append(out, *cmd)
	}
	if andThen {
		return nil, fmt.Errorf("line %d: && needs a command after it", p.line())
	}
	if len(out) == 0 {
		return nil, errors.New("the script runs no command")
	}
	return out, nil
}

func setOptions(args []string, exitOnError *bool) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" && i+1 < len(args) && args[i+1] == "pipefail":
			i++
		case strings.HasPrefix(a, "-") && strings.Trim(a[1:], "eux") == "":
			if strings.Contains(a, "e") {
				*exitOnError = true
			}
		default:
			return unsupported("uses set " + a)
		}
	}
	return nil
}

type rawStage struct {
	words     []string
	redirects []redirect
	stdin     *string
}

type redirect struct{ op, target string }

var reserved = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true, "while": true, "until": true,
	"do": true, "done": true, "case": true, "esac": true, "[": true, "[[": true, "{": true, "}": true, "!": true,
	"function": true, "select": true, "test": true, "export": true, "source": true, ".": true, "eval": true,
}

// pipeline reads stages separated by |, up to a list operator or the end.
func (p *scriptParser) pipeline() ([]rawStage, error) {
	var stages []rawStage
	cur := rawStage{}
	for {
		t := p.peek()
		if t == nil || t.kind == tOp && t.text != "|" {
			if t != nil && (t.text == "(" || t.text == ")") {
				return nil, unsupported("uses a subshell ( ... )")
			}
			if t != nil && t.text == ";;" {
				return nil, unsupported("uses shell control flow (case)")
			}
			break
		}
		p.i++
		switch t.kind {
		case tOp: // "|"
			if len(cur.words) == 0 {
				return nil, fmt.Errorf("line %d: | needs a command before it", t.line)
			}
			stages = append(stages, cur)
			cur = rawStage{}
		case tWord:
			if len(cur.words) == 0 {
				if reserved[t.text] {
					return nil, unsupported("uses shell control flow (" + t.text + ")")
				}
				if strings.Contains(t.text, "=") && identifier.MatchString(strings.SplitN(t.text, "=", 2)[0]) {
					return nil, unsupported("sets the shell variable " + strings.SplitN(t.text, "=", 2)[0])
				}
			}
			cur.words = append(cur.words, t.text)
		case tHeredoc:
			text := t.text
			cur.stdin = &text
		case tRedirect:
			target := ""
			if !strings.HasSuffix(t.op(), "&1") && !strings.HasSuffix(t.op(), "&2") {
				n := p.peek()
				if n == nil || n.kind != tWord {
					return nil, fmt.Errorf("line %d: %s needs a target", t.line, t.text)
				}
				target = n.text
				p.i++
			}
			cur.redirects = append(cur.redirects, redirect{op: t.text, target: target})
		}
	}
	if len(cur.words) == 0 {
		return nil, fmt.Errorf("line %d: expected a command", p.line())
	}
	return append(stages, cur), nil
}

func (t token) op() string { return t.text }

// assemble turns a pipeline into a kubectl Command.
func assemble(stages []rawStage) (*Command, error) {
	first := stages[0]
	var stdin *string
	switch prog := path.Base(first.words[0]); prog {
	case "kubectl":
	case "cat", "echo", "printf":
		text, err := feeder(first)
		if err != nil {
			return nil, err
		}
		if len(stages) < 2 || path.Base(stages[1].words[0]) != "kubectl" {
			return nil, unsupported("runs " + prog + " without piping it into kubectl")
		}
		stdin = &text
		stages = stages[1:]
		first = stages[0]
	default:
		return nil, unsupported("runs " + prog + ", which genplay does not interpret")
	}
	cmd, err := kubectlStage(first)
	if err != nil {
		return nil, err
	}
	if stdin != nil {
		cmd.Stdin = *stdin
	}
	for _, s := range stages[1:] {
		st, err := pipeStage(s)
		if err != nil {
			return nil, err
		}
		cmd.Pipe = append(cmd.Pipe, st)
	}
	return cmd, nil
}

// feeder returns what cat <<EOF, echo or printf writes.
func feeder(s rawStage) (string, error) {
	switch path.Base(s.words[0]) {
	case "cat":
		if len(s.words) == 1 && s.stdin != nil && len(s.redirects) == 0 {
			return *s.stdin, nil
		}
		return "", unsupported("reads files with cat")
	case "echo":
		args := s.words[1:]
		if len(args) > 0 && args[0] == "-n" {
			return strings.Join(args[1:], " "), nil
		}
		if len(args) > 0 && strings.HasPrefix(args[0], "-") {
			return "", unsupported("uses echo " + args[0])
		}
		return strings.Join(args, " ") + "\n", nil
	default:
		if len(s.words) == 2 && !strings.Contains(s.words[1], "%") {
			return strings.ReplaceAll(s.words[1], `\n`, "\n"), nil
		}
		return "", unsupported("uses printf with a format")
	}
}

func kubectlStage(s rawStage) (*Command, error) {
	cmd, err := parseKubectl(s.words[1:])
	if err != nil {
		return nil, err
	}
	if s.stdin != nil {
		cmd.Stdin = *s.stdin
	}
	if err := applyRedirects(s.redirects, &cmd.MergeStderr, &cmd.DiscardStdout, &cmd.DiscardStderr); err != nil {
		return nil, err
	}
	if err := checkKubectl(cmd); err != nil {
		return nil, err
	}
	return cmd, nil
}

func applyRedirects(rs []redirect, merge, discardOut, discardErr *bool) error {
	for _, r := range rs {
		switch {
		case r.op == "2>&1":
			*merge = true
		case r.op == ">&2" || r.op == "1>&2":
			return unsupported("redirects output to stderr")
		case r.target == "/dev/null" && (r.op == ">" || r.op == "1>" || r.op == ">>"):
			*discardOut = true
		case r.target == "/dev/null" && (r.op == "2>" || r.op == "2>>"):
			*discardErr = true
		case r.target == "/dev/null" && (r.op == "&>" || r.op == "&>>"):
			*discardOut, *discardErr = true, true
		case strings.HasPrefix(r.op, "<") || strings.HasSuffix(r.op, "<"):
			return unsupported("reads the file " + r.target)
		default:
			return unsupported("writes to the file " + r.target)
		}
	}
	return nil
}

func pipeStage(s rawStage) (Stage, error) {
	prog := path.Base(s.words[0])
	st := Stage{Program: prog, Args: s.words[1:], Options: map[string]bool{}}
	if s.stdin != nil {
		return st, unsupported("pipes into a command that also reads a heredoc")
	}
	if err := applyRedirects(s.redirects, &st.MergeStderr, &st.DiscardStdout, &st.DiscardStderr); err != nil {
		return st, err
	}
	switch prog {
	case "kubectl":
		cmd, err := parseKubectl(s.words[1:])
		if err != nil {
			return st, err
		}
		cmd.StdinFromPipe = true
		cmd.MergeStderr, cmd.DiscardStdout, cmd.DiscardStderr = st.MergeStderr, st.DiscardStdout, st.DiscardStderr
		if err := checkKubectl(cmd); err != nil {
			return st, err
		}
		st.Kubectl = cmd
		return st, nil
	case "grep":
		return st, options(&st, "qvEFiwxc", "e")
	case "jq":
		return st, options(&st, "ercjSMn", "")
	}
	return st, unsupported("pipes into " + prog + ", which genplay does not interpret (only jq and grep)")
}

// options reads single-letter options (bool in bools, taking the next word
// as Expr in valued) and the one operand, Expr.
func options(st *Stage, bools, valued string) error {
	var operands []string
	for i := 0; i < len(st.Args); i++ {
		a := st.Args[i]
		if a == "--" {
			operands = append(operands, st.Args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			operands = append(operands, a)
			continue
		}
		if strings.HasPrefix(a, "--") {
			return unsupported(st.Program + " option " + a + " is not interpreted")
		}
		for j, c := range a[1:] {
			switch {
			case strings.ContainsRune(bools, c):
				st.Options[string(c)] = true
			case strings.ContainsRune(valued, c):
				st.Options[string(c)] = true
				rest := a[2+j:]
				if rest == "" {
					if i+1 >= len(st.Args) {
						return fmt.Errorf("%s -%c needs a value", st.Program, c)
					}
					i++
					rest = st.Args[i]
				}
				operands = append([]string{rest}, operands...)
				goto next
			default:
				return unsupported(st.Program + " option -" + string(c) + " is not interpreted")
			}
		}
	next:
	}
	switch {
	case len(operands) == 0 && st.Program == "jq":
		st.Expr = "."
	case len(operands) == 1:
		st.Expr = operands[0]
	case len(operands) == 0:
		return fmt.Errorf("%s needs a pattern", st.Program)
	default:
		return unsupported(st.Program + " reads files (" + strings.Join(operands[1:], " ") + ")")
	}
	return nil
}
