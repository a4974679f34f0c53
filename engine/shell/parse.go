package shell

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/genplay/genplay/engine/scenario"
)

// unsupported is a reason genplay cannot run a script honestly.
func unsupported(reason string) error { return &scenario.UnsupportedError{Reason: reason} }

// kyvernoPods recognizes scripts that look at Kyverno's (or the cluster's
// add-ons') own pods: genplay runs no pods.
var kyvernoPods = []*regexp.Regexp{
	regexp.MustCompile(`kubectl\s[^|\n]*\bget\s+(?:po|pod|pods)\b[^|\n]*(?:-n|--namespace)[\s=](kyverno|kube-system|kube-state-metrics)\b`),
	regexp.MustCompile(`kubectl\s[^|\n]*(?:-n|--namespace)[\s=](kyverno|kube-system|kube-state-metrics)\s[^|\n]*\bget\s+(?:po|pod|pods)\b`),
	regexp.MustCompile(`kubectl\s[^|\n]*\bget\s+(?:po|pod|pods)\b[^|\n]*\s(?:-A|--all-namespaces)\b[^\n]*kyverno`),
}

// parseScriptEnv parses a script operation's content: kubectl calls,
// optionally piped into jq, grep or another kubectl, with heredocs as
// input; the builtins exit, true, false, :, echo, test, [, seq, sleep,
// break, continue and set; assignments and $(...); joined by newlines,
// ";", "&&" and "||", negated with "!", in if/elif/else/fi, for, while
// and until. env holds chainsaw's variables (it sets $NAMESPACE), which
// expand now; the script's own expand when it runs, and one it never sets
// is unsupported. Anything genplay cannot interpret honestly returns an
// *scenario.UnsupportedError. It also returns the names of the variables
// the script sets and reads.
func parseScriptEnv(content string, env map[string]string) (List, *shellNames, error) {
	for _, re := range kyvernoPods {
		if m := re.FindStringSubmatch(content); m != nil {
			ns := "kyverno"
			if len(m) > 1 && m[1] != "" {
				ns = m[1]
			}
			if ns == "kyverno" {
				return nil, nil, unsupported("inspects Kyverno's own pods, which genplay does not run")
			}
			return nil, nil, unsupported("inspects the pods of namespace " + ns + ", which genplay does not run")
		}
	}
	names := &shellNames{set: map[string]bool{}, read: map[string]int{}}
	toks, err := lex(content, env, 1, names)
	if err != nil {
		return nil, nil, err
	}
	p := &scriptParser{src: content, toks: toks, names: names}
	list, err := p.parse()
	if err != nil {
		var u *scenario.UnsupportedError
		if errors.As(err, &u) && u.Line == 0 {
			u.Line = p.line()
		}
		return nil, nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(names.read)) {
		if !names.set[name] {
			if name == "KUBECONFIG" && kubeconfigMissing != "" {
				return nil, nil, &scenario.UnsupportedError{Reason: "reads $KUBECONFIG, " + kubeconfigMissing, Line: names.read[name]}
			}
			return nil, nil, &scenario.UnsupportedError{Reason: "uses the shell variable $" + name + ", which is not set", Line: names.read[name]}
		}
	}
	return list, names, nil
}

// parseNested parses the script of a command substitution, whose first
// line is line of the enclosing script.
func parseNested(src string, env map[string]string, line int, names *shellNames) (List, error) {
	toks, err := lex(src, env, line, names)
	if err != nil {
		return nil, err
	}
	p := &scriptParser{src: src, toks: toks, names: names}
	list, err := p.list()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t != nil {
		return nil, fmt.Errorf("line %d: unexpected %q", t.line, t.text)
	}
	return list, nil
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
	src   string
	toks  []token
	i     int
	depth int // of nested ifs and loops
	names *shellNames
}

// maxIfDepth bounds the nesting of if and loops, so hostile input cannot
// exhaust the stack.
const maxIfDepth = 50

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

func (p *scriptParser) parse() (List, error) {
	list, err := p.list()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t != nil {
		return nil, fmt.Errorf("line %d: unexpected %q", t.line, t.text)
	}
	if len(list) == 0 {
		return nil, errors.New("the script runs no command")
	}
	return list, nil
}

// isWord reports whether the next token is the word w at a command's start
// (where sh recognizes reserved words).
func (p *scriptParser) isWord(w string) bool {
	t := p.peek()
	return t != nil && t.kind == tWord && t.text == w
}

// listEnd are the reserved words that end a list inside an if or a loop.
var listEnd = map[string]bool{"then": true, "elif": true, "else": true, "fi": true, "do": true, "done": true}

// list reads and-or lists separated by newlines and ";" up to the end or
// a word that ends it (then, elif, else, fi).
func (p *scriptParser) list() (List, error) {
	var out List
	for p.i < len(p.toks) {
		if p.isOp("\n") || p.isOp(";") {
			p.i++
			continue
		}
		if t := p.peek(); t.kind == tWord && listEnd[t.text] {
			break
		}
		ao, err := p.andOr()
		if err != nil {
			return nil, err
		}
		out = append(out, ao)
		switch {
		case p.isOp("&"):
			return nil, unsupported("runs a command in the background (&)")
		case p.i < len(p.toks) && !p.isOp("\n") && !p.isOp(";"):
			if t := p.peek(); !(t.kind == tWord && listEnd[t.text]) {
				return nil, fmt.Errorf("line %d: unexpected %q", t.line, t.text)
			}
		}
	}
	return out, nil
}

// andOr reads pipelines joined by && and ||; a newline may follow either.
func (p *scriptParser) andOr() (AndOr, error) {
	var ao AndOr
	for {
		pl, err := p.command()
		if err != nil {
			return ao, err
		}
		ao.Pipelines = append(ao.Pipelines, pl)
		if !p.isOp("&&") && !p.isOp("||") {
			return ao, nil
		}
		op := p.peek()
		ao.Ops = append(ao.Ops, op.text)
		p.i++
		for p.isOp("\n") {
			p.i++
		}
		if p.peek() == nil {
			return ao, fmt.Errorf("line %d: %s needs a command after it", op.line, op.text)
		}
	}
}

// command reads one pipeline: "!" then an if, a builtin or a kubectl call.
func (p *scriptParser) command() (Pipeline, error) {
	t := p.peek()
	if t == nil {
		return Pipeline{}, fmt.Errorf("line %d: expected a command", p.line())
	}
	pl := Pipeline{Line: t.line}
	if p.isWord("!") {
		p.i++
		pl.Negate = true
		if p.isWord("!") {
			return pl, unsupported("negates a command twice (! !)")
		}
		if p.peek() == nil {
			return pl, fmt.Errorf("line %d: ! needs a command after it", t.line)
		}
	}
	for _, w := range []string{"if", "for", "while", "until"} {
		if !p.isWord(w) {
			continue
		}
		p.i++
		if p.depth++; p.depth > maxIfDepth {
			return pl, fmt.Errorf("line %d: if and loops are nested more than %d deep", t.line, maxIfDepth)
		}
		var err error
		switch w {
		case "if":
			pl.If, err = p.ifClause(t.line)
		case "for":
			pl.For, err = p.forLoop(t.line)
		default:
			pl.While, err = p.whileLoop(t.line, w == "until")
		}
		p.depth--
		return pl, err
	}
	if t := p.peek(); t.kind == tWord && listEnd[t.text] {
		return pl, fmt.Errorf("line %d: unexpected %q", t.line, t.text)
	}
	if p.isWord("export") {
		return p.export(pl)
	}
	start := p.i
	stages, err := p.pipeline()
	if err != nil {
		return pl, err
	}
	if name, value, ok := assignment(stages[0]); ok {
		if len(stages) > 1 || len(stages[0].words) > 1 || len(stages[0].redirects) > 0 || stages[0].stdin != nil {
			return pl, unsupported("sets the shell variable " + name + " for one command")
		}
		p.names.set[name] = true
		pl.Assign = &Assign{Name: name, Value: value}
		return pl, nil
	}
	text := strings.TrimSpace(p.src[p.toks[start].start:p.toks[p.i-1].end])
	u, isUtils, err := utilPipeline(stages)
	if err != nil {
		return pl, err
	}
	if isUtils {
		u.Line, u.Text = p.toks[start].line, text
		if u.Kubectl != nil {
			u.Kubectl.Line, u.Kubectl.Text = u.Line, text
		}
		if slices.ContainsFunc(stages, rawStage.runtime) {
			pl.Deferred = &Deferred{Line: u.Line, Text: text, Provisional: u.Kubectl, stages: stages}
			return pl, nil
		}
		pl.Utils = u
		return pl, nil
	}
	b, isBuiltin, err := builtin(stages)
	if err != nil {
		return pl, err
	}
	var cmd *Command
	if !isBuiltin {
		if cmd, err = assemble(stages); err != nil {
			return pl, err
		}
		cmd.Line, cmd.Text = p.toks[start].line, text
	}
	if slices.ContainsFunc(stages, rawStage.runtime) {
		// Checked with "x" for each part known only when it runs;
		// resolved then.
		pl.Deferred = &Deferred{Line: p.toks[start].line, Text: text, Provisional: cmd, stages: stages}
		return pl, nil
	}
	pl.Builtin, pl.Kubectl = b, cmd
	return pl, nil
}

// export reads `export NAME=VALUE` (an assignment: every variable kubectl
// reads, KUBECONFIG, comes from chainsaw's environment and so is exported
// already) or `export NAME` (which changes nothing the script can see).
func (p *scriptParser) export(pl Pipeline) (Pipeline, error) {
	p.i++
	if t := p.peek(); t == nil || t.kind != tWord {
		return pl, unsupported("uses export without a variable")
	}
	stages, err := p.pipeline()
	if err != nil {
		return pl, err
	}
	st := stages[0]
	if len(stages) > 1 || len(st.words) != 1 || len(st.redirects) > 0 || st.stdin != nil {
		return pl, unsupported("uses export other than `export NAME=VALUE` or `export NAME`")
	}
	if name, value, ok := assignment(st); ok {
		p.names.set[name] = true
		pl.Assign = &Assign{Name: name, Value: value}
		return pl, nil
	}
	if st.parts[0] != nil || !identifier.MatchString(st.words[0]) || !isNameStart(st.words[0][0]) {
		return pl, unsupported("exports " + st.words[0] + ", which is not a variable name")
	}
	pl.Builtin = &Builtin{Name: ":"}
	return pl, nil
}

// assignment reads NAME=VALUE from a command's first word.
func assignment(st rawStage) (name string, value Word, ok bool) {
	name, _, ok = strings.Cut(st.words[0], "=")
	if !ok || !identifier.MatchString(name) || !isNameStart(name[0]) {
		return "", nil, false
	}
	if st.parts[0] == nil {
		return name, Word{{Lit: strings.TrimPrefix(st.words[0], name+"="), Quoted: true}}, true
	}
	// Drop the literal "NAME=" from the front of the parts.
	skip := len(name) + 1
	for _, part := range st.parts[0] {
		switch {
		case skip == 0 || part.Lit == "" && part.Var == "" && part.Sub == nil:
		case len(part.Lit) >= skip:
			part.Lit = part.Lit[skip:]
			skip = 0
		default:
			return "", nil, false // NAME= is not one literal: not an assignment
		}
		if part.Lit != "" || part.Var != "" || part.Sub != nil {
			part.Quoted = true // an assignment is not split into fields
			value = append(value, part)
		}
	}
	if value == nil {
		value = Word{{Quoted: true}}
	}
	return name, value, true
}

// forLoop reads a for after its "for" up to its "done".
func (p *scriptParser) forLoop(line int) (*For, error) {
	t := p.peek()
	if t == nil || t.kind != tWord || t.parts != nil || !identifier.MatchString(t.text) || !isNameStart(t.text[0]) {
		return nil, fmt.Errorf("line %d: for needs a variable name", line)
	}
	f := &For{Name: t.text}
	p.names.set[f.Name] = true
	p.i++
	if !p.isWord("in") {
		return nil, unsupported("loops over the script's arguments (for without in)")
	}
	p.i++
	for t := p.peek(); t != nil && t.kind == tWord; t = p.peek() {
		if t.parts != nil {
			f.Words = append(f.Words, t.parts)
		} else {
			f.Words = append(f.Words, Word{{Lit: t.text, Quoted: true}})
		}
		p.i++
	}
	if !p.isOp(";") && !p.isOp("\n") {
		return nil, fmt.Errorf("line %d: for needs ; or a new line before do", line)
	}
	body, err := p.doDone(line, "for")
	f.Body = body
	return f, err
}

// whileLoop reads a while or until after its first word up to its "done".
func (p *scriptParser) whileLoop(line int, until bool) (*While, error) {
	cond, err := p.list()
	if err != nil {
		return nil, err
	}
	if len(cond) == 0 {
		return nil, fmt.Errorf("line %d: while needs a condition", line)
	}
	body, err := p.doDone(line, "while")
	return &While{Cond: cond, Body: body, Until: until}, err
}

// doDone reads "do LIST done".
func (p *scriptParser) doDone(line int, what string) (List, error) {
	for p.isOp(";") || p.isOp("\n") {
		p.i++
	}
	if !p.isWord("do") {
		return nil, fmt.Errorf("line %d: %s needs do", line, what)
	}
	p.i++
	body, err := p.list()
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		return nil, fmt.Errorf("line %d: do needs a command", line)
	}
	if !p.isWord("done") {
		return nil, fmt.Errorf("line %d: %s has no done", line, what)
	}
	p.i++
	return body, nil
}

// ifClause reads an if after its "if" up to its "fi".
func (p *scriptParser) ifClause(line int) (*If, error) {
	f := &If{}
	for {
		cond, err := p.list()
		if err != nil {
			return nil, err
		}
		if len(cond) == 0 || !p.isWord("then") {
			return nil, fmt.Errorf("line %d: if needs a condition and then", line)
		}
		p.i++
		body, err := p.list()
		if err != nil {
			return nil, err
		}
		if len(body) == 0 {
			return nil, fmt.Errorf("line %d: then needs a command", line)
		}
		f.Conds, f.Bodies = append(f.Conds, cond), append(f.Bodies, body)
		switch {
		case p.isWord("elif"):
			p.i++
			continue
		case p.isWord("else"):
			p.i++
			if f.Else, err = p.list(); err != nil {
				return nil, err
			}
			if len(f.Else) == 0 {
				return nil, fmt.Errorf("line %d: else needs a command", line)
			}
		}
		if !p.isWord("fi") {
			return nil, fmt.Errorf("line %d: if has no fi", line)
		}
		p.i++
		return f, nil
	}
}

type rawStage struct {
	words []string
	// parts[i] is set when words[i] is known only when the script runs
	// (words[i] is then its text with each such part as "x").
	parts     []Word
	redirects []redirect
	stdin     *string
	// stdinParts is set when the heredoc is known only when the script
	// runs (stdin is then its text with each such part as "x").
	stdinParts Word
}

// runtime reports whether the stage has words or a heredoc known only
// when the script runs.
func (s rawStage) runtime() bool {
	return s.stdinParts != nil || slices.ContainsFunc(s.parts, func(w Word) bool { return w != nil }) ||
		slices.ContainsFunc(s.redirects, func(r redirect) bool { return r.targetParts != nil })
}

// redirect is a redirection; targetParts is set when its target is
// known only when the script runs (target is then its text with each
// such part as "x").
type redirect struct {
	op, target  string
	targetParts Word
}

// reserved are the words at a command's start that genplay does not
// interpret (if, for, while, until, !, and the words that end their
// lists are read before).
var reserved = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "fi": true, "for": true, "while": true, "until": true,
	"do": true, "done": true, "case": true, "esac": true, "[[": true, "{": true, "}": true, "!": true,
	"function": true, "select": true, "export": true, "source": true, ".": true, "eval": true,
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
			if len(cur.words) == 0 && t.parts == nil && reserved[t.text] {
				return nil, unsupported("uses shell control flow (" + t.text + ")")
			}
			cur.words = append(cur.words, t.text)
			cur.parts = append(cur.parts, t.parts)
		case tHeredoc:
			text := t.text
			cur.stdin, cur.stdinParts = &text, t.parts
		case tRedirect:
			r := redirect{op: t.text}
			if !strings.HasSuffix(t.op(), "&1") && !strings.HasSuffix(t.op(), "&2") {
				n := p.peek()
				if n == nil || n.kind != tWord {
					return nil, fmt.Errorf("line %d: %s needs a target", t.line, t.text)
				}
				r.target, r.targetParts = n.text, n.parts
				p.i++
			}
			cur.redirects = append(cur.redirects, r)
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
	stages = slices.Clone(stages)
	var out string
	var appending bool
	// Only the last stage's output can go to a file.
	last := stages[len(stages)-1]
	var rest []redirect
	for _, r := range last.redirects {
		if (r.op == ">" || r.op == "1>" || r.op == ">>" || r.op == "1>>") && r.target != "" && r.target != "/dev/null" {
			if len(stages) > 1 && path.Base(last.words[0]) == "kubectl" {
				return nil, unsupported("pipes into kubectl and writes its output to the file " + r.target)
			}
			out, appending = r.target, strings.HasSuffix(r.op, ">>")
			continue
		}
		rest = append(rest, r)
	}
	stages[len(stages)-1].redirects = rest
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
	cmd.Out, cmd.Append = out, appending
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
	if spec, ok := utilities[prog]; ok {
		if spec.check != nil {
			return st, spec.check(st.Args)
		}
		return st, nil
	}
	return st, unsupported("pipes into " + prog + ", which genplay does not interpret")
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
