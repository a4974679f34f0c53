package shell

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// builtinSpec is a builtin genplay interprets: check reads its arguments
// when the script is parsed (so a script that misuses one stops before
// anything runs), run runs it.
type builtinSpec struct {
	check func(b *Builtin) error
	run   func(sh *shell, b *Builtin)
	// toStderr: >&2 sends what it prints to stderr (echo).
	toStderr bool
}

// builtins are the shell builtins and the small utilities (test, [, seq,
// sleep) scripts use, by name.
var builtins = map[string]builtinSpec{
	"true":     {run: status(0)},
	":":        {run: status(0)},
	"false":    {run: status(1)},
	"exit":     {check: checkExit, run: (*shell).exit},
	"set":      {check: checkSet, run: (*shell).set},
	"echo":     {check: checkEcho, run: (*shell).echo, toStderr: true},
	"break":    {check: checkLoopControl, run: (*shell).loopControl},
	"continue": {check: checkLoopControl, run: (*shell).loopControl},
	"test":     {run: (*shell).test},
	"[":        {check: checkBracket, run: (*shell).test},
	"seq":      {check: checkSeq, run: (*shell).seq},
	"sleep":    {check: checkSleep, run: (*shell).sleep},
}

// builtin reads a builtin command; ok is false for anything else.
func builtin(stages []rawStage) (*Builtin, bool, error) {
	words := stages[0].words
	name := words[0]
	spec, ok := builtins[name]
	if !ok || name == "echo" && len(stages) > 1 {
		return nil, false, nil // echo ... | kubectl: its stdin
	}
	if len(stages) > 1 {
		return nil, true, unsupported("pipes " + name + " into another command")
	}
	b := &Builtin{Name: name, Args: words[1:]}
	for _, r := range stages[0].redirects {
		switch {
		case spec.toStderr && (r.op == ">&2" || r.op == "1>&2"):
			b.ToStderr = true
		case r.target == "/dev/null" && (r.op == ">" || r.op == "1>" || r.op == ">>" || r.op == "&>" || r.op == "&>>"):
			b.Discard = true
		case r.target == "/dev/null" && (r.op == "2>" || r.op == "2>>"), r.op == "2>&1":
		default:
			return nil, true, unsupported("redirects the output of " + name + " (" + r.op + r.target + ")")
		}
	}
	if stages[0].stdin != nil {
		return nil, true, unsupported("gives " + name + " a heredoc")
	}
	if spec.check != nil {
		if err := spec.check(b); err != nil {
			return nil, true, err
		}
	}
	return b, true, nil
}

// builtin runs a builtin the parser checked.
func (sh *shell) builtin(b *Builtin) { builtins[b.Name].run(sh, b) }

// status is a builtin that only sets the status (true, :, false).
func status(code int) func(*shell, *Builtin) {
	return func(sh *shell, _ *Builtin) { sh.status = code }
}

func checkExit(b *Builtin) error {
	if len(b.Args) > 1 {
		return fmt.Errorf("exit takes at most one status")
	}
	if len(b.Args) == 1 {
		if n, err := strconv.Atoi(b.Args[0]); err != nil || n < 0 || n > 255 {
			return fmt.Errorf("exit %s: the status is a number from 0 to 255", b.Args[0])
		}
	}
	return nil
}

func (sh *shell) exit(b *Builtin) {
	if len(b.Args) == 1 {
		sh.status, _ = strconv.Atoi(b.Args[0]) // checked by checkExit
	}
	sh.exited = true
}

func checkSet(b *Builtin) error {
	var exitOnError bool
	return setOptions(b.Args, &exitOnError)
}

// setOptions checks set's options: -e, -u, -x, and -o pipefail, alone or
// combined (set -euo pipefail).
func setOptions(args []string, exitOnError *bool) error {
	for i := 0; i < len(args); i++ {
		a := args[i]
		flags, o := strings.CutSuffix(a, "o")
		switch {
		case strings.HasPrefix(a, "-") && o && strings.Trim(flags[1:], "eux") == "" && i+1 < len(args) && args[i+1] == "pipefail":
			i++
		case strings.HasPrefix(a, "-") && !o && strings.Trim(a[1:], "eux") == "":
		default:
			return unsupported("uses set " + a)
		}
		if strings.Contains(flags, "e") {
			*exitOnError = true
		}
	}
	return nil
}

func (sh *shell) set(b *Builtin) {
	for _, a := range b.Args {
		if strings.HasPrefix(a, "-") && strings.Contains(a, "e") {
			sh.errexit = true
		}
	}
	sh.status = 0
}

func checkEcho(b *Builtin) error {
	if len(b.Args) > 0 && strings.HasPrefix(b.Args[0], "-") && b.Args[0] != "-n" {
		return unsupported("uses echo " + b.Args[0])
	}
	return nil
}

func (sh *shell) echo(b *Builtin) {
	text := strings.Join(b.Args, " ") + "\n"
	if len(b.Args) > 0 && b.Args[0] == "-n" {
		text = strings.Join(b.Args[1:], " ")
	}
	sh.print(b, text)
	sh.status = 0
}

func checkLoopControl(b *Builtin) error {
	if len(b.Args) > 0 {
		return unsupported(b.Name + " " + b.Args[0] + " (out of more than one loop)")
	}
	return nil
}

// loopControl is break and continue.
func (sh *shell) loopControl(b *Builtin) {
	sh.status = 0
	if sh.loops == 0 {
		return // sh ignores them outside a loop
	}
	sh.breaking, sh.continuing = b.Name == "break", b.Name == "continue"
}

func checkBracket(b *Builtin) error {
	if len(b.Args) == 0 || b.Args[len(b.Args)-1] != "]" {
		return fmt.Errorf("[ needs a closing ]")
	}
	return nil
}

// test is test and [.
func (sh *shell) test(b *Builtin) {
	args := b.Args
	if b.Name == "[" {
		args = args[:len(args)-1]
	}
	status, msg := test(args, sh.r.scratch().Stat)
	if msg != "" {
		sh.res.stderr.WriteString(b.Name + ": " + msg + "\n")
	}
	sh.status = status
}

func checkSeq(b *Builtin) error {
	if len(b.Args) < 1 || len(b.Args) > 3 {
		return fmt.Errorf("seq takes [FIRST [INCREMENT]] LAST")
	}
	return nil
}

func (sh *shell) seq(b *Builtin) {
	out, err := seq(b.Args)
	if err != nil {
		sh.res.stderr.WriteString("seq: " + err.Error() + "\n")
		sh.status = 1
		return
	}
	sh.print(b, out)
	sh.status = 0
}

func checkSleep(b *Builtin) error {
	if len(b.Args) != 1 {
		return fmt.Errorf("sleep takes one duration")
	}
	return nil
}

func (sh *shell) sleep(b *Builtin) {
	d, err := sleepDuration(b.Args[0])
	if err != nil {
		sh.res.stderr.WriteString("sleep: " + err.Error() + "\n")
		sh.status = 1
		return
	}
	sh.r.s.Sleep(d)
	sh.status = 0
}

func (sh *shell) print(b *Builtin, text string) {
	switch {
	case b.Discard:
	case b.ToStderr:
		sh.res.stderr.WriteString(text)
	default:
		sh.res.stdout.WriteString(text)
	}
}

// test is test(1) for strings and integers: -z, -n, =, ==, !=, -eq, -ne,
// -lt, -le, -gt, -ge and !; status 2 with a message for anything else.
func test(args []string, stat func(string) (exists, dir bool, size int)) (int, string) {
	if len(args) > 0 && args[0] == "!" {
		status, msg := test(args[1:], stat)
		if status == 2 {
			return status, msg
		}
		return boolStatus(status != 0), ""
	}
	switch len(args) {
	case 0:
		return 1, ""
	case 1:
		return boolStatus(args[0] != ""), ""
	case 2:
		switch args[0] {
		case "-z":
			return boolStatus(args[1] == ""), ""
		case "-n":
			return boolStatus(args[1] != ""), ""
		case "-e", "-f", "-d", "-s", "-r", "-w":
			// Files of the scratch folder (or the test's folder).
			exists, dir, size := stat(args[1])
			switch args[0] {
			case "-f":
				exists = exists && !dir
			case "-d":
				exists = exists && dir
			case "-s":
				exists = exists && !dir && size > 0
			}
			return boolStatus(exists), ""
		}
		return 2, "genplay does not interpret " + args[0]
	case 3:
		a, op, b := args[0], args[1], args[2]
		switch op {
		case "=", "==":
			return boolStatus(a == b), ""
		case "!=":
			return boolStatus(a != b), ""
		case "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
			x, err1 := strconv.Atoi(a)
			y, err2 := strconv.Atoi(b)
			if err1 != nil || err2 != nil {
				return 2, "integer expression expected"
			}
			return boolStatus(map[string]bool{"-eq": x == y, "-ne": x != y, "-lt": x < y, "-le": x <= y, "-gt": x > y, "-ge": x >= y}[op]), ""
		}
		return 2, "genplay does not interpret " + op
	}
	return 2, "genplay interprets tests of at most three arguments"
}

// maxSeq bounds what seq prints.
const maxSeq = 10000

// seq is seq(1) for integers: [FIRST [INCREMENT]] LAST.
func seq(args []string) (string, error) {
	nums := make([]int, len(args))
	for i, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			return "", fmt.Errorf("invalid integer argument: %q", a)
		}
		nums[i] = n
	}
	first, inc, last := 1, 1, nums[len(nums)-1]
	if len(nums) >= 2 {
		first = nums[0]
	}
	if len(nums) == 3 {
		inc = nums[1]
	}
	if inc == 0 {
		return "", fmt.Errorf("invalid Zero increment value: '0'")
	}
	var b strings.Builder
	for i, n := first, 0; inc > 0 && i <= last || inc < 0 && i >= last; i, n = i+inc, n+1 {
		if n >= maxSeq {
			return "", fmt.Errorf("genplay prints at most %d numbers", maxSeq)
		}
		fmt.Fprintf(&b, "%d\n", i)
	}
	return b.String(), nil
}

// sleepDuration reads sleep(1)'s argument: seconds, or a number with s,
// m, h or d.
func sleepDuration(arg string) (time.Duration, error) {
	unit := time.Second
	num := arg
	for suffix, u := range map[string]time.Duration{"s": time.Second, "m": time.Minute, "h": time.Hour, "d": 24 * time.Hour} {
		if n, ok := strings.CutSuffix(arg, suffix); ok {
			num, unit = n, u
		}
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil || f < 0 || f > 1e6 {
		return 0, fmt.Errorf("invalid time interval %q", arg)
	}
	return time.Duration(f * float64(unit)), nil
}
