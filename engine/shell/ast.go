package shell

import (
	"fmt"
	"slices"
)

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
	// Out is the file of the scratch folder the pipeline's output goes to
	// (> FILE, or >> FILE with Append); "" for stdout.
	Out    string
	Append bool
}

// List is the statements of a script, run in order: and-or lists
// separated by newlines or ";". The script's status is its last
// pipeline's, as in sh.
type List []AndOr

// AndOr is pipelines joined by && and ||: Ops[i] ("&&" or "||") joins
// Pipelines[i] and Pipelines[i+1]. As in sh, both have the same
// precedence and bind left to right: a pipeline after && runs when the
// status so far is 0, after || when it is not.
type AndOr struct {
	Pipelines []Pipeline
	Ops       []string
}

// Pipeline is one command of a script, its status negated by a leading
// "!". Exactly one of Kubectl, Builtin, Assign, If, For, While and
// Deferred is set.
type Pipeline struct {
	// Line is where the pipeline starts in the script.
	Line    int
	Negate  bool
	Kubectl *Command
	Builtin *Builtin
	Assign  *Assign
	If      *If
	For     *For
	While   *While
	// Utils is a pipeline of utilities (cat, rm, base64, sed, ...) over
	// the scratch folder, maybe into kubectl.
	Utils *Utils
	// Deferred is a kubectl call or builtin whose words hold the script's
	// variables or command substitutions: Resolve it once they are known.
	Deferred *Deferred
}

// Assign is NAME=VALUE: VALUE is not split into fields.
type Assign struct {
	Name  string
	Value Word
}

// For is `for NAME in WORDS; do BODY; done`.
type For struct {
	Name  string
	Words []Word
	Body  List
}

// While is `while COND; do BODY; done` (Until: `until`, the body runs
// while COND fails).
type While struct {
	Cond, Body List
	Until      bool
}

// Deferred is a command known only when it runs. Provisional is the
// kubectl call it is with every such part as "x", for the checks made
// before the script runs (nil for a builtin).
type Deferred struct {
	Line        int
	Text        string
	Provisional *Command
	stages      []rawStage
}

// Words returns the words of each stage of the pipeline; a word known
// before running is one quoted literal.
func (d *Deferred) Words() [][]Word {
	out := make([][]Word, len(d.stages))
	for i, st := range d.stages {
		for j, w := range st.words {
			if st.parts[j] != nil {
				out[i] = append(out[i], st.parts[j])
			} else {
				out[i] = append(out[i], Word{{Lit: w, Quoted: true}})
			}
		}
	}
	return out
}

// Texts returns the heredocs and redirection targets of the pipeline
// known only when it runs, stage by stage, each to expand without
// splitting.
func (d *Deferred) Texts() []Word {
	var out []Word
	for _, st := range d.stages {
		if st.stdinParts != nil {
			out = append(out, st.stdinParts)
		}
		for _, r := range st.redirects {
			if r.targetParts != nil {
				out = append(out, r.targetParts)
			}
		}
	}
	return out
}

// Resolve builds the command from its expanded words (stage by stage, as
// Words lines them up) and texts (as Texts lines them up), checked as a
// command known before running is.
func (d *Deferred) Resolve(words [][]string, texts []string) (Pipeline, error) {
	if len(words) != len(d.stages) || len(texts) != len(d.Texts()) {
		return Pipeline{}, fmt.Errorf("expanded %d stages and %d texts of %d and %d", len(words), len(texts), len(d.stages), len(d.Texts()))
	}
	stages := make([]rawStage, len(d.stages))
	for i, st := range d.stages {
		if len(words[i]) == 0 {
			return Pipeline{}, fmt.Errorf("line %d: a command expanded to nothing", d.Line)
		}
		stages[i] = rawStage{words: words[i], parts: make([]Word, len(words[i])), redirects: slices.Clone(st.redirects), stdin: st.stdin}
		if st.stdinParts != nil {
			stages[i].stdin = &texts[0]
			texts = texts[1:]
		}
		for j, r := range stages[i].redirects {
			if r.targetParts != nil {
				if texts[0] == "" {
					return Pipeline{}, fmt.Errorf("line %d: ambiguous redirect (its target expanded to nothing)", d.Line)
				}
				stages[i].redirects[j] = redirect{op: r.op, target: texts[0]}
				texts = texts[1:]
			}
		}
	}
	pl := Pipeline{Line: d.Line}
	if u, ok, err := utilPipeline(stages); ok || err != nil {
		if u != nil {
			u.Line, u.Text = d.Line, d.Text
			if u.Kubectl != nil {
				u.Kubectl.Line, u.Kubectl.Text = d.Line, d.Text
			}
		}
		pl.Utils = u
		return pl, err
	}
	if b, ok, err := builtin(stages); ok || err != nil {
		pl.Builtin = b
		return pl, err
	}
	cmd, err := assemble(stages)
	if err != nil {
		return pl, err
	}
	cmd.Line, cmd.Text = d.Line, d.Text
	pl.Kubectl = cmd
	return pl, nil
}

// Builtin is a call of one of the builtins genplay interprets (the table
// in builtins.go); echo piped into kubectl is not one, but its stdin.
type Builtin struct {
	Name string
	Args []string
	// ToStderr is set by >&2; Discard by >/dev/null.
	ToStderr, Discard bool
}

// If is `if COND; then BODY; [elif COND; then BODY;]... [else BODY;] fi`:
// the body of the first condition whose status is 0 runs, else Else.
type If struct {
	Conds, Bodies []List
	Else          List
}

// Commands returns every kubectl command of l, in command substitutions
// too, for checks that must see the whole script before any of it runs.
func (l List) Commands() []*Command {
	var out []*Command
	var walk func(List)
	words := func(ws ...Word) {
		for _, w := range ws {
			for _, part := range w {
				walk(part.Sub)
			}
		}
	}
	walk = func(l List) {
		for _, ao := range l {
			for _, p := range ao.Pipelines {
				switch {
				case p.Kubectl != nil:
					out = append(out, p.Kubectl)
				case p.Utils != nil && p.Utils.Kubectl != nil:
					out = append(out, p.Utils.Kubectl)
				case p.Assign != nil:
					words(p.Assign.Value)
				case p.Deferred != nil:
					for _, stage := range p.Deferred.Words() {
						words(stage...)
					}
					words(p.Deferred.Texts()...)
					if p.Deferred.Provisional != nil {
						out = append(out, p.Deferred.Provisional)
					}
				case p.If != nil:
					for i := range p.If.Conds {
						walk(p.If.Conds[i])
						walk(p.If.Bodies[i])
					}
					walk(p.If.Else)
				case p.For != nil:
					words(p.For.Words...)
					walk(p.For.Body)
				case p.While != nil:
					walk(p.While.Cond)
					walk(p.While.Body)
				}
			}
		}
	}
	walk(l)
	return out
}

// Stage is one program after a kubectl call in a pipeline.
type Stage struct {
	// Program is "jq", "grep", "kubectl" or another utility (utils.go).
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
