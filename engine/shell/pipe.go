package shell

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/genplay/genplay/engine/scenario"
)

// pipeline runs one command with its pipe stages and appends the output to
// res; it returns the exit status of the last stage.
func (r *runner) pipeline(c *Command, res *scriptResult) (int, error) {
	out, errOut, code, err := r.kubectl(c, c.Stdin)
	if err != nil {
		return 0, err
	}
	out, errOut = streams(out, errOut, c.MergeStderr, c.DiscardStdout, c.DiscardStderr)
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
			spec, ok := utilities[st.Program]
			if !ok {
				err = &scenario.UnsupportedError{Reason: "pipes into " + st.Program}
				break
			}
			o, e, code = spec.run(r, st.Args, out)
		}
		if err != nil {
			return 0, err
		}
		o, e = streams(o, e, st.MergeStderr, st.DiscardStdout, st.DiscardStderr)
		res.stderr.WriteString(e)
		out = o
	}
	if c.Out != "" {
		if err := r.scratch().Write(c.Out, []byte(out), c.Append); err != nil {
			res.stderr.WriteString("sh: " + c.Out + ": " + err.Error() + "\n")
			return 1, nil
		}
		return code, nil
	}
	res.stdout.WriteString(out)
	return code, nil
}

// streams applies a command's 2>&1 and >/dev/null redirections to what it
// printed, in sh's order: 2>/dev/null, then 2>&1, then >/dev/null.
func streams(out, errOut string, merge, discardOut, discardErr bool) (string, string) {
	if discardErr {
		errOut = ""
	}
	if merge {
		out, errOut = errOut+out, ""
	}
	if discardOut {
		out = ""
	}
	return out, errOut
}

// grep is grep(1) over text: exit 0 when a line matched, 1 otherwise.
func grep(st Stage, text string) (string, int, error) {
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
