package shell

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// The utilities that transform text: echo, printf, base64, tr, sed, grep,
// head, tail, wc, cut, sort and uniq (registered in utils.go).

var printfVerb = regexp.MustCompile(`%[-0-9.]*[a-zA-Z%]`)

// sedCommand is one s/RE/REPLACEMENT/FLAGS of a sed script.
type sedCommand struct {
	re     *regexp.Regexp
	repl   string
	global bool
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
